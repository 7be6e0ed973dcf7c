/**
 * A loopback server with a script: each request is answered by a function
 * that may return a status, headers and body, or drop the connection. Every
 * request is logged (path and query, status, Authorization header), so tests
 * can assert on what a client asked for.
 */
import type { IncomingMessage } from 'node:http';
import { answerFromTree, startLoopbackServer, type LoopbackServer } from './loopback-server.ts';

export type Scripted = { status: number; body: string; headers?: Record<string, string> } | 'drop';

export interface LoggedRequest {
  /** Path and query: `/api/languages/?page=2`. */
  url: string;
  status: number | 'dropped';
  authorization: string | undefined;
}

export interface ScriptedServer extends LoopbackServer {
  log: LoggedRequest[];
}

export async function startScriptedServer(
  respond: (request: IncomingMessage) => Promise<Scripted> | Scripted,
): Promise<ScriptedServer> {
  const log: LoggedRequest[] = [];
  const server = await startLoopbackServer(async (request, response) => {
    const answer = await respond(request);
    const entry: LoggedRequest = {
      url: request.url ?? '/',
      status: answer === 'drop' ? 'dropped' : answer.status,
      authorization: request.headers.authorization,
    };
    log.push(entry);
    if (answer === 'drop') {
      request.socket.destroy();
      return;
    }
    response.writeHead(answer.status, { 'Content-Type': 'application/json', ...answer.headers });
    response.end(answer.body);
  });
  return { ...server, log };
}

/** Answers from a folder of recorded responses laid out like a built tree (page N of a list at `<list>/~page/N/`). */
export function recordedResponses(dir: string): (request: IncomingMessage) => Promise<Scripted> {
  return (request) => answerFromTree(dir, request.method ?? 'GET', request.url ?? '/');
}

/**
 * Weblate's anonymous throttle in small: `limit` requests per window, the
 * X-RateLimit-* headers on every answer, and a 429 with Retry-After once the
 * window is used up. The window resets only when the test says so.
 */
export function rateLimited(
  limit: number,
  resetSeconds: number,
  inner: (request: IncomingMessage) => Promise<Scripted>,
) {
  let used = 0;
  const headers = () => ({
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(limit - used),
    'X-RateLimit-Reset': String(resetSeconds),
  });
  return {
    reset: () => void (used = 0),
    respond: async (request: IncomingMessage): Promise<Scripted> => {
      if (used >= limit) {
        const body = `{"detail":"Request was throttled. Expected available in ${resetSeconds} seconds."}`;
        return {
          status: 429,
          body,
          headers: { ...headers(), 'Retry-After': String(resetSeconds) },
        };
      }
      used++;
      const answer = await inner(request);
      return answer === 'drop'
        ? answer
        : { ...answer, headers: { ...answer.headers, ...headers() } };
    },
  };
}
