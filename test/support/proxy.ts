/**
 * A loopback proxy for tests that must see what a server is asked: it logs
 * every request (method, path and query, status), forwards it to its
 * upstream (which a test may change, say to a server started again on
 * another port, while clients keep the proxy's URL), and can answer some
 * itself: an error in the XML of S3, or a dropped connection.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { startLoopbackServer } from './loopback-server.ts';

export interface LoggedRequest {
  method: string;
  /** Path and query: `/bucket/prefix/api/index.json`, `/api/projects/?page=2`. */
  url: string;
  status: number | 'dropped';
}

/** What the proxy answers itself instead of forwarding: an S3-style error, or a dropped connection. */
type Fault = { status: number; code: string } | 'drop';

export interface Proxy {
  url: string;
  /** Where requests go: `http://127.0.0.1:<port>`. */
  upstream: string;
  log: LoggedRequest[];
  /** Decides, request by request, whether to answer with a fault (null: forward). */
  fault: ((request: { method: string; url: string }) => Fault | null) | null;
  close(): Promise<void>;
}

export async function startProxy(upstream: string): Promise<Proxy> {
  const proxy: Omit<Proxy, 'url' | 'close'> = { upstream, log: [], fault: null };
  const server = await startLoopbackServer(async (request, response) => {
    const method = request.method ?? 'GET';
    const url = request.url ?? '/';
    const fault = proxy.fault?.({ method, url }) ?? null;
    if (fault === 'drop') {
      proxy.log.push({ method, url, status: 'dropped' });
      request.socket.destroy();
      return;
    }
    if (fault) {
      await drain(request);
      proxy.log.push({ method, url, status: fault.status });
      response.writeHead(fault.status, { 'Content-Type': 'application/xml' });
      response.end(
        `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${fault.code}</Code><Message>Injected by the test.</Message></Error>`,
      );
      return;
    }
    const target = new URL(proxy.upstream);
    const headers = { ...request.headers, host: target.host };
    const forwarded = httpRequest(
      { host: target.hostname, port: target.port, method, path: url, headers },
      (answer) => {
        proxy.log.push({ method, url, status: answer.statusCode ?? 0 });
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on('error', () => response.destroy());
    request.pipe(forwarded);
  });
  return Object.assign(proxy, server);
}

// --- internal ---

async function drain(request: IncomingMessage): Promise<void> {
  for await (const chunk of request) void chunk;
}
