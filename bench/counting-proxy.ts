/**
 * A loopback proxy that forwards every request to a server unchanged (its headers too, so that a
 * request's signature still holds) and counts them by method: what a run asked of the local S3
 * server.
 */
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

interface CountingProxy {
  url: string;
  /** Requests forwarded so far, by method. */
  counts: Map<string, number>;
  close(): Promise<void>;
}

export async function startCountingProxy(upstream: string): Promise<CountingProxy> {
  const target = new URL(upstream);
  const counts = new Map<string, number>();
  const server = createServer((request, response) => {
    const method = request.method ?? 'GET';
    counts.set(method, (counts.get(method) ?? 0) + 1);
    const forwarded = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method,
        path: request.url,
        headers: request.headers,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on('error', () => response.destroy());
    request.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The requests counted, all methods together. */
export function totalRequests(counts: ReadonlyMap<string, number>): number {
  return [...counts.values()].reduce((sum, n) => sum + n, 0);
}
