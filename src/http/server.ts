/**
 * The HTTP plumbing the preview and the sidecar share: a node:http server bound to an address,
 * with bounds on what a client can make it hold (headers 16 KiB; 64 connections from one address,
 * 512 in all; headers within 10 s of connecting, a whole request within 20 s, 5 s idle between
 * requests), requests node's parser refuses answered in JSON (unparsable.ts), a failing handler
 * answered with a 500, and a stop that waits at most 3 s for the requests being answered.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { errorText, JSON_TYPE, serverError, VARY, type ApiError } from '../api/answers.ts';
import type { Release } from '../model/releases.ts';
import { bindServer } from './bind.ts';
import { answerUnparsableRequests } from './unparsable.ts';

type Handler = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

interface ServeOptions {
  /** Address to bind: 127.0.0.1 unless told otherwise. */
  bind?: string | undefined;
  /** 0 picks a free port. */
  port: number;
  /** The release (or flavour) whose error bodies the server's own answers take. */
  version: Release;
  /** Where to report a failure inside a request (a bug); silent by default. */
  log?: ((text: string) => void) | undefined;
  /** How soon a whole request must arrive (20 s unless told); its headers, within half of it. */
  requestTimeoutMs?: number | undefined;
}

export interface HttpServer {
  /** `http://127.0.0.1:8080`: the origin the server answers on. */
  origin: string;
  /**
   * Stops taking connections, waits a few seconds at most for the requests being answered, then
   * closes the connections left (a write a handler took still finishes; its client may not hear).
   */
  close: () => Promise<void>;
}

/** Starts answering with `handle`; a busy port or a bad address is a message, not a throw. */
export async function serveHttp(
  handle: Handler,
  options: ServeOptions,
): Promise<{ ok: true; server: HttpServer } | { ok: false; message: string }> {
  const { version } = options;
  const log = options.log ?? (() => undefined);
  let active = 0;
  let idle: (() => void) | null = null;
  const requestTimeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const timeouts = { headersTimeout: requestTimeout / 2, requestTimeout };
  const server = createServer({ ...SERVER_OPTIONS, ...timeouts }, (request, response) => {
    // The first request came: from now on node's own timeouts apply.
    request.socket.setTimeout(0);
    active++;
    handle(request, response)
      .catch((error: unknown) => fail(request, response, version, error, log))
      .finally(() => {
        if (--active === 0) idle?.();
      });
  });
  server.maxConnections = MAX_CONNECTIONS;
  guardConnections(server, timeouts.headersTimeout);
  const cutLingering = answerUnparsableRequests(server, version);
  const bind = options.bind ?? '127.0.0.1';
  const bound = await bindServer(server, options.port, bind);
  if (!bound.ok) return bound;
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
  const origin = `http://${bind.includes(':') ? `[${bind}]` : bind}:${bound.port}`;
  return { ok: true, server: { origin, close } };
}

/** A JSON error answer in the flavour's form. */
export function sendJsonError(
  response: ServerResponse,
  version: Release,
  error: ApiError,
  headers: Record<string, string> = {},
): void {
  const body = errorText(version, error);
  response.writeHead(error.status, {
    'Content-Type': JSON_TYPE,
    'Content-Length': Buffer.byteLength(body),
    Vary: VARY,
    ...headers,
  });
  response.end(body);
}

// --- internal ---

/** Connections held open at once; more are closed as they come. */
const MAX_CONNECTIONS = 512;

/** Connections one address may hold, so that one client cannot take every connection. */
const MAX_CONNECTIONS_PER_CLIENT = 64;

/**
 * A request must arrive whole, body included, this soon (1 MiB at 50 KB/s); its headers within
 * half of it (the next request's too, after an answer).
 */
const REQUEST_TIMEOUT_MS = 20_000;

/** An idle connection between requests is closed after this long. */
const KEEP_ALIVE_TIMEOUT_MS = 5_000;

/** How long a stop waits for the requests being answered before it cuts their connections. */
const CLOSE_GRACE_MS = 3_000;

const SERVER_OPTIONS = {
  maxHeaderSize: 16 * 1024,
  keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
  connectionsCheckingInterval: 1000,
  requireHostHeader: false,
};

/**
 * Closes a connection as it comes when its address already holds its share, and one that sends
 * nothing: node's headers timeout starts only with a request's first byte.
 */
function guardConnections(server: Server, headersTimeout: number): void {
  const held = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = held.get(address) ?? 0;
    if (count >= MAX_CONNECTIONS_PER_CLIENT) return void socket.destroy();
    socket.setTimeout(headersTimeout);
    held.set(address, count + 1);
    socket.once('close', () => {
      const left = (held.get(address) ?? 1) - 1;
      if (left === 0) held.delete(address);
      else held.set(address, left);
    });
  });
}

function fail(
  request: IncomingMessage,
  response: ServerResponse,
  version: Release,
  error: unknown,
  log: (text: string) => void,
): void {
  // A client that went away mid-request is not a failure of the server.
  if (request.destroyed && !request.complete) return void response.destroy();
  log(
    `Internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  if (!response.headersSent) sendJsonError(response, version, serverError(version));
  else response.destroy();
}
