import { describe, expect, it } from 'vitest';
import { PullError } from '../../../src/pull/errors.ts';
import {
  createHttpClient,
  DEFAULT_HTTP_OPTIONS,
  type HttpOptions,
  type Wait,
} from '../../../src/pull/http.ts';

const URL_A = 'https://weblate.example.org/api/';

type Step = { status: number; body?: string; headers?: Record<string, string> } | Error;

/** A client over a fake fetch that answers `steps` in order, a fake clock, and sleeps that only advance it. */
function harness(steps: Step[], options: Partial<HttpOptions> = {}) {
  const requests: { url: string; headers: Record<string, string> }[] = [];
  const waits: Wait[] = [];
  let clock = 1_000_000;
  const client = createHttpClient(
    { ...DEFAULT_HTTP_OPTIONS, ...options, onWait: (wait) => waits.push(wait) },
    {
      fetch: async (url, init) => {
        requests.push({ url, headers: init.headers as Record<string, string> });
        const step = steps.shift();
        if (!step) throw new Error('no more steps');
        if (step instanceof Error) throw step;
        return new Response(step.body ?? '{}', { status: step.status, headers: step.headers });
      },
      sleep: async (ms) => void (clock += ms),
      now: () => clock,
      random: () => 0.5,
    },
  );
  return { client, requests, waits };
}

const networkError = (code: string) =>
  Object.assign(new TypeError('fetch failed'), { cause: { code } });

describe('the HTTP client', () => {
  it('answers with the status and the parsed JSON body', async () => {
    const { client } = harness([
      { status: 200, body: '{"projects":"x"}', headers: { 'Content-Type': 'application/json' } },
    ]);
    expect(await client.getJson(URL_A)).toEqual({
      status: 200,
      body: { projects: 'x' },
      contentType: 'application/json',
    });
  });

  it('gives a 404 and a body that is not JSON back as values', async () => {
    const { client } = harness([
      { status: 404, body: '{"detail":"Not found."}' },
      { status: 200, body: '<html>' },
    ]);
    expect((await client.getJson(URL_A)).status).toBe(404);
    expect((await client.getJson(URL_A)).body).toBeUndefined();
  });

  it('retries a 500 after a backoff and returns the answer that follows', async () => {
    const { client, waits, requests } = harness([
      { status: 500 },
      { status: 502 },
      { status: 200, body: '1' },
    ]);
    expect((await client.getJson(URL_A)).body).toBe(1);
    expect(requests).toHaveLength(3);
    expect(waits.map((w) => [w.reason, w.ms, w.detail])).toEqual([
      ['retry', 375, 'HTTP 500'],
      ['retry', 750, 'HTTP 502'],
    ]);
  });

  it('retries network errors, and gives up after the allowed retries naming the URL and the last failure', async () => {
    const { client, requests } = harness(
      [networkError('ECONNRESET'), networkError('ECONNREFUSED'), networkError('ECONNREFUSED')],
      {
        retries: 2,
      },
    );
    const error = await client.getJson(URL_A).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PullError);
    expect((error as Error).message).toBe(`${URL_A} failed 3 times (last: ECONNREFUSED).`);
    expect(requests).toHaveLength(3);
  });

  it('waits as long as Retry-After asks after a 429, without using up a retry', async () => {
    const { client, waits } = harness(
      [
        { status: 429, headers: { 'Retry-After': '2' } },
        { status: 200, body: '1' },
      ],
      { retries: 0 },
    );
    expect((await client.getJson(URL_A)).body).toBe(1);
    expect(waits).toEqual([
      { reason: 'throttled', ms: 2000, url: URL_A, detail: 'HTTP 429, Retry-After: 2' },
    ]);
  });

  it('stops when a 429 asks for a longer wait than allowed', async () => {
    const { client } = harness([{ status: 429, headers: { 'Retry-After': '86400' } }], {
      maxWaitMs: 600_000,
    });
    await expect(client.getJson(URL_A)).rejects.toThrow(
      /throttled \(HTTP 429\) for 86400 s, longer than the 600 s allowed by --max-wait/,
    );
  });

  it('pauses until the reset when the announced rate limit is spent, instead of earning a 429', async () => {
    const limit = (remaining: number) => ({
      'X-RateLimit-Limit': '100',
      'X-RateLimit-Remaining': String(remaining),
      'X-RateLimit-Reset': '30',
    });
    const { client, waits, requests } = harness([
      { status: 200, headers: limit(1) },
      { status: 200, headers: limit(0) },
      { status: 200, headers: limit(99) },
    ]);
    await client.getJson(URL_A);
    await client.getJson(URL_A);
    expect(waits).toEqual([]);
    await client.getJson(URL_A);
    expect(waits).toEqual([
      { reason: 'rate-limit', ms: 30_000, url: URL_A, detail: 'X-RateLimit-Remaining: 0' },
    ]);
    expect(requests).toHaveLength(3);
  });

  it('stops when the rate limit resets later than the longest wait allowed', async () => {
    const headers = { 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '86000' };
    const { client, requests } = harness([{ status: 200, headers }], { maxWaitMs: 60_000 });
    await client.getJson(URL_A);
    await expect(client.getJson(URL_A)).rejects.toThrow(
      /rate limit is used up \(X-RateLimit-Remaining: 0\) for another 86000 s, longer than the 60 s allowed by --max-wait\.$/,
    );
    expect(requests).toHaveLength(1);
  });

  it('sends the token as "Authorization: Token", and nothing without one', async () => {
    const withToken = harness([{ status: 200 }], { token: 'wlu_secret' });
    await withToken.client.getJson(URL_A);
    expect(withToken.requests[0]!.headers.Authorization).toBe('Token wlu_secret');
    const anonymous = harness([{ status: 200 }]);
    await anonymous.client.getJson(URL_A);
    expect(anonymous.requests[0]!.headers.Authorization).toBeUndefined();
  });

  it('explains a refused token', async () => {
    const { client } = harness([{ status: 401, body: '{"detail":"Invalid token."}' }], {
      token: 'wrong',
    });
    await expect(client.getJson(URL_A)).rejects.toThrow(
      `${URL_A} refused the token (HTTP 401: Invalid token.). Check the key given with --token or WEBLATE_TOKEN.`,
    );
  });

  it('keeps at most `concurrency` requests in flight', async () => {
    let active = 0;
    let most = 0;
    const client = createHttpClient(
      { ...DEFAULT_HTTP_OPTIONS, concurrency: 3 },
      {
        fetch: async () => {
          most = Math.max(most, ++active);
          await new Promise((resolve) => setTimeout(resolve, 1));
          active--;
          return new Response('1');
        },
        sleep: async () => undefined,
        now: () => 0,
        random: () => 0,
      },
    );
    await Promise.all(Array.from({ length: 12 }, (_, i) => client.getJson(`${URL_A}${i}/`)));
    expect(most).toBe(3);
    expect(client.sent()).toBe(12);
  });

  it('fails a request waiting to retry once stopped', async () => {
    let wake: () => void = () => undefined;
    const client = createHttpClient(
      { ...DEFAULT_HTTP_OPTIONS },
      {
        fetch: async () => new Response('', { status: 503 }),
        sleep: (_ms, signal) =>
          new Promise<void>((resolve) => {
            wake = resolve;
            signal.addEventListener('abort', () => resolve());
          }),
        now: () => 0,
        random: () => 0,
      },
    );
    const request = client.getJson(URL_A);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await client.stop();
    wake();
    await expect(request).rejects.toThrow('The pull was stopped.');
  });
});
