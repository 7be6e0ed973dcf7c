/**
 * Requests node's HTTP parser refuses before any handler sees them (a request
 * line with `"` in it, headers over the limit, a request that never arrives
 * whole): a JSON answer instead of node's bare one, then a lingering close.
 * Shared by the preview and the sidecar.
 */
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorText, JSON_TYPE } from '../api/answers.ts';
import type { Release } from '../model/releases.ts';

/** How long a refused request's connection stays open to read what the client still sends. */
const LINGER_MS = 5_000;

/** Bytes read from a refused request's connection before it is cut. */
const LINGER_BYTES = 8 * 1024 * 1024;

/** Answers by the parser's error code; anything else is a 400. */
const ANSWERS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request header fields too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request timeout.'],
};
const BAD_REQUEST: [number, string] = [
  400,
  'Bad request: the request line or its headers could not be parsed.',
];

/**
 * Makes the server answer refused requests in JSON. Returns what closing the
 * server calls to cut the connections still lingering.
 */
export function answerUnparsableRequests(server: Server, version: Release = '4'): () => void {
  const lingering = new Set<Duplex>();
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) =>
    refuse(error, socket, lingering, version),
  );
  return () => {
    for (const socket of lingering) socket.destroy();
  };
}

// --- internal ---

/**
 * The answer goes out and the socket is half-closed; what the client still
 * sends is read (the parser reports it here again, and it is dropped) until
 * the client closes its side, for at most LINGER_MS or LINGER_BYTES. Closing
 * with unread bytes would send a reset, and a reset can make the client drop
 * the answer unread.
 */
function refuse(
  error: NodeJS.ErrnoException,
  socket: Duplex,
  lingering: Set<Duplex>,
  version: Release,
): void {
  const counters = socket as Duplex & { bytesRead?: number; bytesWritten?: number };
  if (lingering.has(socket)) {
    if ((counters.bytesRead ?? 0) > LINGER_BYTES) socket.destroy();
    return;
  }
  if (!socket.writable || (counters.bytesWritten ?? 0) > 0) {
    socket.destroy();
    return;
  }
  lingering.add(socket);
  const [status, message] = ANSWERS[error.code ?? ''] ?? BAD_REQUEST;
  const body = errorText(version, {
    status,
    code: status === 400 ? 'parse_error' : 'error',
    detail: message,
  });
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    `Content-Type: ${JSON_TYPE}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  const timer = setTimeout(() => socket.destroy(), LINGER_MS).unref();
  socket.once('close', () => {
    clearTimeout(timer);
    lingering.delete(socket);
  });
}
