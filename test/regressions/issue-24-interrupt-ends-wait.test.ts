/**
 * Issue 24 (runs a scheduler may stop): an upload interrupted while it waited to be tried again
 * stopped trying, but the wait's timer ran on (up to 20 s), holding the process after Ctrl-C.
 * The real wait of deploy and mirror now ends with the run's signal; the lease's polling, which
 * gives no signal, still waits its whole time.
 */
import { expect, it } from 'vitest';
import { withRetries } from '../../src/deploy/retry.ts';
import { StoreError } from '../../src/deploy/store.ts';
import { sleepUnlessAborted } from '../../src/pull/waits.ts';

/** The timers this process holds (what keeps it alive). */
function timers(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
}

it('leaves no timer behind once the run is interrupted during a wait to retry', async () => {
  const before = timers();
  const stop = new AbortController();
  const tried = withRetries(() => Promise.reject(new StoreError('connection refused', 'retry')), {
    retries: 10,
    backoffMs: 60_000,
    maxBackoffMs: 60_000,
    sleep: sleepUnlessAborted,
    random: () => 1,
    onWait: () => stop.abort(),
    signal: stop.signal,
  });
  await expect(tried).rejects.toThrow(/connection refused \(1 attempt\)/);
  expect(timers()).toBe(before);
});

it('waits its whole time when given no signal (the lease is polled so)', async () => {
  const before = timers();
  let done = false;
  const waited = sleepUnlessAborted(50).then(() => (done = true));
  expect(timers()).toBe(before + 1);
  await new Promise((resolve) => setImmediate(resolve));
  expect(done).toBe(false);
  await waited;
  expect(timers()).toBe(before);
});
