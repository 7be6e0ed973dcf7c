/**
 * Loopback servers for the pull tests: startLoopbackServer() on 127.0.0.1 and
 * a free port, and answerFromTree(), which answers from a folder laid out like
 * a built tree as Weblate would: GET `/api/<path>/` (with or without the
 * trailing slash) from `<dir>/api/<path>/index.json`, `?page=N` from the page
 * file (`<list>/~page/N/index.json`; page 1 is the list itself), and
 * `{"detail":"Not found."}` with 404 for anything else. The scripted server
 * serves recorded Weblate answers with it; round trips use the real sidecar.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export interface LoopbackServer {
  /** `http://127.0.0.1:<port>`: the base URL to build the tree with. */
  url: string;
  close(): Promise<void>;
}

export interface TreeAnswer {
  status: number;
  body: string;
}

/** Starts a node:http server on 127.0.0.1 and a free port. */
export async function startLoopbackServer(
  handle: (request: IncomingMessage, response: ServerResponse) => Promise<void>,
): Promise<LoopbackServer> {
  const server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What Weblate would answer for `target` (path and query) if it served the tree in `outDir`. */
export async function answerFromTree(
  outDir: string,
  method: string,
  target: string,
): Promise<TreeAnswer> {
  if (method !== 'GET' && method !== 'HEAD')
    return { status: 405, body: `{"detail":"Method \\"${method}\\" not allowed."}\n` };
  const url = new URL(target, 'http://localhost');
  const segments = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (
    segments[0] !== 'api' ||
    segments.some((s) => s === '.' || s === '..' || s.includes('/') || s.includes('\0'))
  )
    return NOT_FOUND;
  const page = url.searchParams.get('page');
  if (page !== null && !/^[1-9]\d*$/.test(page))
    return { status: 404, body: '{"detail":"Invalid page."}\n' };
  if (page !== null && page !== '1') segments.push('~page', page);
  const body = await readFile(join(outDir, ...segments, 'index.json'), 'utf8').catch(() => null);
  return body === null ? NOT_FOUND : { status: 200, body };
}

// --- internal ---

const NOT_FOUND: TreeAnswer = { status: 404, body: '{"detail":"Not found."}\n' };
