/**
 * Issue 24: a pull at `--concurrency 8` printed Node's MaxListenersExceededWarning. Every request
 * in flight and every wait listens to the client's one stop signal (and lets go when it ends), so
 * more than ten at once is the normal case, not a leak.
 */
import { describe, expect, it } from 'vitest';
import { createHttpClient, DEFAULT_HTTP_OPTIONS } from '../../src/pull/http.ts';

const IN_FLIGHT = 16;

describe('the pull HTTP client with many requests in flight', () => {
  it('prints no MaxListenersExceededWarning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    const answers: (() => void)[] = [];
    const client = createHttpClient(
      { ...DEFAULT_HTTP_OPTIONS, concurrency: IN_FLIGHT },
      {
        fetch: () =>
          new Promise<Response>((resolve) =>
            answers.push(() => resolve(new Response('{}', { status: 200 }))),
          ),
        sleep: async () => {},
        now: () => 0,
        random: () => 0.5,
      },
    );
    try {
      const all = Array.from({ length: IN_FLIGHT }, (_, i) =>
        client.getJson(`http://127.0.0.1:9/api/${i}/`),
      );
      await waitFor(() => answers.length === IN_FLIGHT);
      // Node emits the warning on the next tick after the eleventh listener.
      await new Promise((resolve) => setImmediate(resolve));
      for (const answer of answers) answer();
      expect((await Promise.all(all)).map((a) => a.status)).toEqual(Array(IN_FLIGHT).fill(200));
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });
});

/** Yields to the event loop until `ready()` holds, at most 1,000 times. */
async function waitFor(ready: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !ready(); i++) await new Promise((resolve) => setImmediate(resolve));
  if (!ready()) throw new Error('the requests did not all start');
}
