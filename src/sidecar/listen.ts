/**
 * The sidecar's only socket code: a node:http server that hands each request
 * to the app as a web Request and writes back its Response. It bounds what a
 * client can make it hold: headers (16 KiB, node's parser), the
 * request-target (the app refuses more than 8 KiB), the body (read up to
 * 1 MiB; past that the app answers 413 at once, and the rest is read and
 * dropped, up to 8 MiB, before the connection closes), connections (64 from
 * one address, 512 in all), and time (headers within 10 s of connecting, a
 * whole request within 20 s, 5 s idle between requests). A request node's
 * parser refuses gets a JSON answer too, with a lingering close of its own
 * (http/unparsable.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { bindServer } from '../http/bind.ts';
import { answerUnparsableRequests } from '../http/unparsable.ts';
import { errorText, JSON_TYPE, serverError, VARY } from '../api/answers.ts';
import type { WeblateVersion } from '../model/defaults.ts';
import { MAX_BODY } from './body.ts';
import type { SidecarApp } from './app.ts';

interface ListenOptions {
  /** Address to bind: 127.0.0.1 unless told otherwise. */
  bind?: string;
  /** 0 picks a free port. */
  port: number;
  /** Where to report a failure of the bridge itself; silent by default. */
  log?: (text: string) => void;
  /** The flavour whose error bodies the bridge's own answers take (4 unless told). */
  version?: WeblateVersion;
}

interface Listening {
  /** `http://127.0.0.1:8080`: the origin the server answers on. */
  origin: string;
  /**
   * Stops taking connections, waits a few seconds at most for the requests
   * being answered, then closes the connections left (a write the app took
   * still finishes; its client may not hear of it).
   */
  close(): Promise<void>;
}

type ListenResult = { ok: true; listening: Listening } | { ok: false; message: string };

export async function listen(app: SidecarApp, options: ListenOptions): Promise<ListenResult> {
  const log = options.log ?? (() => undefined);
  const version = options.version ?? '4';
  let active = 0;
  let idle: (() => void) | null = null;
  const server = createServer(
    {
      maxHeaderSize: 16 * 1024,
      headersTimeout: HEADERS_TIMEOUT_MS,
      requestTimeout: REQUEST_TIMEOUT_MS,
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
      connectionsCheckingInterval: 1000,
      requireHostHeader: false,
    },
    (request, response) => {
      // The first request came: from now on node's own timeouts apply.
      request.socket.setTimeout(0);
      active++;
      bridge(app, request, response, version)
        .catch((error: unknown) => {
          // A client that went away mid-request is not a failure of the sidecar.
          if (request.destroyed && !request.complete) return response.destroy();
          log(
            `Internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
          );
          if (!response.headersSent)
            response
              .writeHead(500, { 'Content-Type': 'application/json' })
              .end(errorText(version, serverError(version)));
          else response.destroy();
        })
        .finally(() => {
          if (--active === 0) idle?.();
        });
    },
  );
  server.maxConnections = MAX_CONNECTIONS;
  guardConnections(server);
  const cutLingering = answerUnparsableRequests(server, version);
  const bind = options.bind ?? '127.0.0.1';
  const bound = await bindServer(server, options.port, bind);
  if (!bound.ok) return bound;
  const origin = `http://${bind.includes(':') ? `[${bind}]` : bind}:${bound.port}`;
  const close = async () => {
    const closed = new Promise<void>((done) => server.close(() => done()));
    server.closeIdleConnections();
    if (active > 0)
      await new Promise<void>((done) => {
        idle = done;
        // A client still sending its request does not hold the stop up for long.
        setTimeout(done, CLOSE_GRACE_MS).unref();
      });
    server.closeAllConnections();
    cutLingering();
    await closed;
  };
  return { ok: true, listening: { origin, close } };
}

// --- internal ---

/** Bytes of an oversized body read and thrown away before the connection is cut. */
const DRAIN_LIMIT = 8 * MAX_BODY;

/** Connections held open at once; more are closed as they come (each may hold up to MAX_BODY of a body). */
const MAX_CONNECTIONS = 512;

/** Connections one address may hold, so that one client cannot take every connection. */
const MAX_CONNECTIONS_PER_CLIENT = 64;

/** A connection must send a request's headers this soon (and each next request's after the last answer). */
const HEADERS_TIMEOUT_MS = 10_000;

/** A request must arrive whole, body included, this soon (1 MiB at 50 KB/s). */
const REQUEST_TIMEOUT_MS = 20_000;

/** An idle connection between requests is closed after this long. */
const KEEP_ALIVE_TIMEOUT_MS = 5_000;

/** How long a stop waits for the requests being answered before it cuts their connections. */
const CLOSE_GRACE_MS = 3_000;

const JSON_HEADERS = { 'Content-Type': JSON_TYPE, Vary: VARY };
const MISSING_HOST = 'Bad request: HTTP/1.1 requires a Host header.';
const CLIENT_GONE = 'The client closed the connection before its body was complete.';

/** Methods the Fetch standard refuses in a Request; the app is told the real one through `wire`. */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/**
 * Closes a connection as it comes when its address already holds its share,
 * and one that sends nothing: node's headers timeout starts only with a
 * request's first byte.
 */
function guardConnections(server: Server): void {
  const held = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = held.get(address) ?? 0;
    if (count >= MAX_CONNECTIONS_PER_CLIENT) return void socket.destroy();
    socket.setTimeout(HEADERS_TIMEOUT_MS);
    held.set(address, count + 1);
    socket.once('close', () => {
      const left = (held.get(address) ?? 1) - 1;
      if (left === 0) held.delete(address);
      else held.set(address, left);
    });
  });
}

async function bridge(
  app: SidecarApp,
  request: IncomingMessage,
  response: ServerResponse,
  version: WeblateVersion,
): Promise<void> {
  const method = request.method ?? 'GET';
  const target = request.url ?? '/';
  if (request.headers.host === undefined && request.httpVersion === '1.1') {
    const body = Buffer.from(
      errorText(version, { status: 400, code: 'parse_error', detail: MISSING_HOST }),
    );
    return respond(
      request,
      response,
      400,
      { ...JSON_HEADERS, 'Content-Length': String(body.length) },
      body,
    );
  }
  const fetchMethod = FORBIDDEN_METHODS.has(method) ? 'GET' : method;
  const init: RequestInit & { duplex?: 'half' } = {
    method: fetchMethod,
    headers: headersOf(request),
  };
  // The body is read only if the app asks for it: after the key is checked, and never for a read.
  if (fetchMethod !== 'GET' && fetchMethod !== 'HEAD')
    Object.assign(init, { body: bodyStream(request), duplex: 'half' });
  const client = request.socket.remoteAddress ?? '';
  const answer = await app(new Request(urlOf(request, target), init), { target, method, client });
  const headers: Record<string, string> = Object.fromEntries(answer.headers);
  const payload =
    method === 'HEAD' || !answer.body ? undefined : Buffer.from(await answer.arrayBuffer());
  await respond(request, response, answer.status, headers, payload);
}

/**
 * Writes the answer. When the app did not read the whole body (a read, a
 * refusal, a body too large), it is a lingering close, as nginx does: the
 * answer goes out at once, and the connection ends only once the client has
 * sent its body (read and dropped, up to DRAIN_LIMIT), so it is not cut while
 * the client is still writing and can read the answer.
 */
async function respond(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  headers: Record<string, string>,
  payload?: Buffer,
): Promise<void> {
  if (request.complete || request.destroyed) {
    response.writeHead(status, headers).end(payload);
    return;
  }
  response.writeHead(status, { ...headers, connection: 'close' });
  if (payload) response.write(payload);
  await drain(request);
  response.end();
}

/**
 * The request's body as a web stream that reads from the socket only when
 * pulled. Cancelling it (a body too large) leaves the rest unread for the
 * lingering close; a client that goes away ends it with an error the app
 * answers as a bad request.
 */
function bodyStream(request: IncomingMessage): ReadableStream<Uint8Array> {
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      pull: (controller) =>
        new Promise<void>((resolve) => {
          const finish = (step: () => void) => {
            request.off('readable', onReadable);
            request.off('end', onEnd);
            request.off('close', onClose);
            step();
            resolve();
          };
          const onReadable = () => {
            if (cancelled) return finish(() => undefined);
            const chunk = request.read() as Buffer | null;
            if (chunk !== null)
              finish(() =>
                controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length)),
              );
          };
          const onEnd = () => finish(() => controller.close());
          const onClose = () =>
            finish(() =>
              request.complete ? controller.close() : controller.error(new Error(CLIENT_GONE)),
            );
          request.on('readable', onReadable);
          request.once('end', onEnd);
          request.once('close', onClose);
          if (request.readableEnded) onEnd();
          else onReadable();
        }),
      cancel: () => {
        cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
}

/** Reads and drops what is still coming of a request, up to DRAIN_LIMIT (then the connection is cut). */
function drain(request: IncomingMessage): Promise<void> {
  if (request.complete) return Promise.resolve();
  return new Promise((done) => {
    let drained = 0;
    request.on('data', (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > DRAIN_LIMIT) {
        request.socket.destroy();
        done();
      }
    });
    request.once('end', () => done());
    request.once('close', () => done());
    request.resume();
  });
}

function headersOf(request: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    for (const one of Array.isArray(value) ? value : [value ?? '']) {
      try {
        headers.append(name, one);
      } catch {
        // A value the Fetch standard refuses: left out, as if it had not been sent.
      }
    }
  }
  return headers;
}

/** An absolute URL for the Request (the app reads the target from `wire`, as sent). */
function urlOf(request: IncomingMessage, target: string): string {
  const origin = `http://${request.socket.localAddress?.includes(':') ? `[${request.socket.localAddress}]` : (request.socket.localAddress ?? '127.0.0.1')}:${request.socket.localPort ?? 80}`;
  try {
    return new URL(target.startsWith('/') ? target : '/', origin).href;
  } catch {
    return `${origin}/`;
  }
}
