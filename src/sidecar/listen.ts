/**
 * The sidecar's socket code over the shared server (http/server.ts): each node:http request goes
 * to the app as a web Request, and its Response is written back. The request-target is bounded by
 * the app (8 KiB), the body read up to 1 MiB (past that the app answers 413 at once, and the rest
 * is read and dropped, up to 8 MiB, before the connection closes).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { serveHttp, type HttpServer } from '../http/server.ts';
import { errorText, JSON_TYPE, VARY } from '../api/answers.ts';
import type { Release } from '../model/releases.ts';
import { MAX_BODY } from './body.ts';
import type { SidecarApp } from './app.ts';

interface ListenOptions {
  /** Address to bind: 127.0.0.1 unless told otherwise. */
  bind?: string;
  /** 0 picks a free port. */
  port: number;
  /** Where to report a failure of the bridge itself; silent by default. */
  log?: (text: string) => void;
  /** The release whose error bodies the bridge's own answers take (4 unless told). */
  version?: Release;
  /** How soon a whole request must arrive (20 s unless told); its headers, within half of it. */
  requestTimeoutMs?: number | undefined;
}

type ListenResult = { ok: true; listening: HttpServer } | { ok: false; message: string };

export async function listen(app: SidecarApp, options: ListenOptions): Promise<ListenResult> {
  const version = options.version ?? '4';
  const started = await serveHttp((request, response) => bridge(app, request, response, version), {
    ...options,
    version,
  });
  return started.ok ? { ok: true, listening: started.server } : started;
}

// --- internal ---

/** Bytes of an oversized body read and thrown away before the connection is cut. */
const DRAIN_LIMIT = 8 * MAX_BODY;

const JSON_HEADERS = { 'Content-Type': JSON_TYPE, Vary: VARY };
const MISSING_HOST = 'Bad request: HTTP/1.1 requires a Host header.';
const CLIENT_GONE = 'The client closed the connection before its body was complete.';

/** Methods the Fetch standard refuses in a Request; the app is told the real one through `wire`. */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

async function bridge(
  app: SidecarApp,
  request: IncomingMessage,
  response: ServerResponse,
  version: Release,
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
