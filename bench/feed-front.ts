/**
 * A loopback front for an upstream (the sidecar) that has no changes of its
 * own to list: it forwards every request, counting them, except the changes
 * feed (any path ending `/api/changes/`), which it answers itself from the
 * entries a test appends, as Weblate does: newest first, `timestamp_after`
 * honoured, cut into pages with `?page=N` links on the front's own URL.
 */
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

interface FeedEntry {
  /** API links, as Weblate writes them (null for what has none). */
  component: string | null;
  translation: string | null;
  action: number;
  /** ISO 8601; now when appended without one. */
  timestamp: string;
}

export interface FeedFront {
  url: string;
  upstream: string;
  /** Path and query of every request, the feed's included. */
  log: string[];
  entries: FeedEntry[];
  /** Appends an entry stamped now. */
  record(entry: Omit<FeedEntry, 'timestamp'>): void;
  close(): Promise<void>;
}

/**
 * A front before an upstream's API whose feed already holds an old entry, as an
 * instance's does, and the API's URL through the front (which stays when the upstream restarts).
 */
export async function startFeedFrontOver(api: string): Promise<{ front: FeedFront; from: string }> {
  const front = await startFeedFront(new URL(api).origin);
  front.entries.push({
    component: `${api}components/project-00001/component-001/`,
    translation: null,
    action: 2,
    timestamp: '2020-01-01T00:00:00Z',
  });
  return { front, from: `${front.url}${new URL(api).pathname}` };
}

export async function startFeedFront(upstream: string, pageSize = 50): Promise<FeedFront> {
  const front: Omit<FeedFront, 'url' | 'close'> = {
    upstream,
    log: [],
    entries: [],
    record(entry) {
      front.entries.push({ ...entry, timestamp: new Date().toISOString() });
    },
  };
  let origin = '';
  const server = createServer((request, response) => {
    const url = request.url ?? '/';
    front.log.push(url);
    const address = new URL(url, 'http://front.test');
    if (address.pathname.endsWith('/api/changes/')) {
      const page = feedPage(front.entries, address, pageSize, `${origin}${address.pathname}`);
      response.writeHead(200, {
        'Content-Type': 'application/json',
        Date: new Date().toUTCString(),
      });
      response.end(JSON.stringify(page));
      return;
    }
    const target = new URL(front.upstream);
    const headers = { ...request.headers, host: target.host };
    const forwarded = httpRequest(
      { host: target.hostname, port: target.port, method: request.method, path: url, headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on('error', () => response.destroy());
    request.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return Object.assign(front, { url: origin, close });
}

// --- internal ---

function feedPage(entries: readonly FeedEntry[], address: URL, pageSize: number, base: string) {
  const after = address.searchParams.get('timestamp_after');
  const since = after === null ? Number.NEGATIVE_INFINITY : Date.parse(after);
  const listed = entries.filter((entry) => Date.parse(entry.timestamp) >= since).reverse();
  const page = Number(address.searchParams.get('page') ?? '1');
  const results = listed.slice((page - 1) * pageSize, page * pageSize);
  const link = (n: number) => {
    const next = new URL(base);
    if (after !== null) next.searchParams.set('timestamp_after', after);
    next.searchParams.set('page', String(n));
    return next.href;
  };
  return {
    count: listed.length,
    next: page * pageSize < listed.length ? link(page + 1) : null,
    previous: page > 1 ? link(page - 1) : null,
    results,
  };
}
