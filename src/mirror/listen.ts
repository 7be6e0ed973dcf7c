/**
 * The webhook listener: node:http on the bind address, each request's body
 * read (bounded), judged by delivery.ts and answered at once; an accepted
 * delivery is handed on after its answer is sent. The mirror's only socket code.
 */
import { createServer, type IncomingMessage } from 'node:http';
import { bindServer } from '../http/bind.ts';
import type { ChangedPlace } from '../pull/refresh.ts';
import type { DeliveryAnswer, DeliveryRequest } from './delivery.ts';

interface WebhookListener {
  url: string;
  close(): Promise<void>;
}

/** Listens on `bind:port`; `onAccepted` is called for each accepted delivery, after the 202. */
export async function listenForDeliveries(options: {
  bind: string;
  port: number;
  judge: (request: DeliveryRequest) => DeliveryAnswer;
  onAccepted: (places: ChangedPlace[] | undefined) => void;
}): Promise<{ ok: true; listener: WebhookListener } | { ok: false; message: string }> {
  const server = createServer((request, response) => {
    void readBody(request).then((body) => {
      const answer: DeliveryAnswer =
        body === null
          ? { status: 413, body: { detail: `A delivery is at most ${MAX_BODY} bytes.` } }
          : options.judge({
              method: request.method ?? '',
              path: new URL(request.url ?? '/', 'http://x').pathname,
              headers: headersOf(request),
              body,
            });
      const text = `${JSON.stringify(answer.body)}\n`;
      response.writeHead(answer.status, { 'Content-Type': 'application/json' });
      response.end(text, () => {
        if (answer.accepted) options.onAccepted(answer.accepted.places);
      });
    });
  });
  const bound = await bindServer(server, options.port, options.bind);
  if (!bound.ok) return bound;
  const host = options.bind.includes(':') ? `[${options.bind}]` : options.bind;
  return {
    ok: true,
    listener: {
      url: `http://${host}:${bound.port}/`,
      close: () =>
        new Promise((done) => {
          server.closeAllConnections();
          server.close(() => done());
        }),
    },
  };
}

// --- internal ---

/** Weblate's payloads are a change's texts: a megabyte is far more than any. */
const MAX_BODY = 1024 * 1024;

/** The body as text; null when it is larger than MAX_BODY (the rest is drained). */
async function readBody(request: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  try {
    for await (const chunk of request as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes <= MAX_BODY) chunks.push(chunk);
    }
  } catch {
    return null;
  }
  return bytes > MAX_BODY ? null : Buffer.concat(chunks).toString('utf8');
}

function headersOf(request: IncomingMessage): Record<string, string | undefined> {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(request.headers))
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  return headers;
}
