/**
 * The sidecar's only socket code: a node:http server that hands each request
 * to the app as a web Request and writes back its Response. It bounds what a
 * client can make it hold: headers (16 KiB, node's parser), the
 * request-target (the app refuses more than 8 KiB), the body (read up to
 * 1 MiB; past that the app answers 413 at once, and the rest is read and
 * dropped, up to 8 MiB, before the connection closes), and time (a request
 * must arrive whole within a minute). A request node's parser refuses gets a
 * JSON answer too, with a lingering close of its own (serve/unparsable.ts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { bindServer } from '../http/bind.ts';
import { answerUnparsableRequests } from '../http/unparsable.ts';
import { MAX_BODY } from './body.ts';
import type { SidecarApp } from './app.ts';

interface ListenOptions {
  /** Address to bind: 127.0.0.1 unless told otherwise. */
  host?: string;
  /** 0 picks a free port. */
  port: number;
  /** Where to report a failure of the bridge itself; silent by default. */
  log?: (text: string) => void;
}

interface Listening {
  /** `http://127.0.0.1:8080`: the origin the server answers on. */
  origin: string;
  /**
   * Stops taking connections, waits for the requests being answered (a write
   * in progress finishes), then closes the connections left.
   */
  close(): Promise<void>;
}

type ListenResult = { ok: true; listening: Listening } | { ok: false; message: string };

export async function listen(app: SidecarApp, options: ListenOptions): Promise<ListenResult> {
  const log = options.log ?? (() => undefined);
  let active = 0;
  let idle: (() => void) | null = null;
  const server = createServer({ maxHeaderSize: 16 * 1024, requestTimeout: 60_000 }, (request, response) => {
    active++;
    bridge(app, request, response)
      .catch((error: unknown) => {
        log(`Internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
        if (!response.headersSent)
          response.writeHead(500, { 'Content-Type': 'application/json' }).end('{"detail":"A server error occurred."}\n');
        else response.destroy();
      })
      .finally(() => {
        if (--active === 0) idle?.();
      });
  });
  const cutLingering = answerUnparsableRequests(server);
  const host = options.host ?? '127.0.0.1';
  const bound = await bindServer(server, options.port, host);
  if (!bound.ok) return bound;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${bound.port}`;
  const close = async () => {
    const closed = new Promise<void>((done) => server.close(() => done()));
    server.closeIdleConnections();
    if (active > 0) await new Promise<void>((done) => (idle = done));
    server.closeAllConnections();
    cutLingering();
    await closed;
  };
  return { ok: true, listening: { origin, close } };
}

// --- internal ---

/** Bytes of an oversized body read and thrown away before the connection is cut. */
const DRAIN_LIMIT = 8 * MAX_BODY;

/** Methods the Fetch standard refuses in a Request; the app is told the real one through `wire`. */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

async function bridge(app: SidecarApp, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const method = request.method ?? 'GET';
  const target = request.url ?? '/';
  const body = await readBody(request);
  const fetchMethod = FORBIDDEN_METHODS.has(method) ? 'GET' : method;
  const init: RequestInit = { method: fetchMethod, headers: headersOf(request) };
  if (fetchMethod !== 'GET' && fetchMethod !== 'HEAD' && body !== 'too large' && body.length > 0) init.body = body;
  const answer = await app(new Request(urlOf(request, target), init), { target, method, bodyTooLarge: body === 'too large' });
  const headers: Record<string, string> = Object.fromEntries(answer.headers);
  const payload = method === 'HEAD' || !answer.body ? undefined : Buffer.from(await answer.arrayBuffer());
  if (body !== 'too large') {
    response.writeHead(answer.status, headers).end(payload);
    return;
  }
  // A lingering close, as nginx does after a 413: the answer goes out at once, the connection
  // ends only once the client has sent its body (read and dropped, up to DRAIN_LIMIT), so
  // it is not cut while the client is still writing and can read the answer.
  response.writeHead(answer.status, { ...headers, connection: 'close' });
  if (payload) response.write(payload);
  await drain(request);
  response.end();
}

/** The body, or 'too large' as soon as it passes MAX_BODY (the rest is left unread). */
function readBody(request: IncomingMessage): Promise<Buffer | 'too large'> {
  if (Number(request.headers['content-length'] ?? 0) > MAX_BODY) return Promise.resolve('too large');
  return new Promise((done, failed) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) {
        chunks.push(chunk);
        return;
      }
      request.off('data', onData);
      request.pause();
      done('too large');
    };
    request.on('data', onData);
    request.once('end', () => done(Buffer.concat(chunks)));
    request.once('error', failed);
  });
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
