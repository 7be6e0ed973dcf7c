/**
 * Issue 24 (runs a scheduler may stop): an upload interrupted while it waited to be tried again
 * stopped trying, but the wait's timer ran on (up to 20 s), holding the process after Ctrl-C.
 * The real wait of deploy and mirror now ends with the run's signal; the lease's polling, which
 * gives no signal, still waits its whole time.
 */
import { createHook } from 'node:async_hooks';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { withRetries } from '../../src/deploy/retry.ts';
import { StoreError } from '../../src/deploy/store.ts';
import { sleepUnlessAborted } from '../../src/pull/waits.ts';

/**
 * The timers made during the test that still run (what would keep the process alive). Only the
 * test's own: the worker is shared with other files, whose timers may end meanwhile.
 */
const made = new Set<number>();
const watch = createHook({
  init: (id, type) => void (type === 'Timeout' && made.add(id)),
  destroy: (id) => void made.delete(id),
});
beforeEach(() => {
  made.clear();
  watch.enable();
});
afterEach(() => {
  watch.disable();
});

/** The count once the ends of timers, which Node reports a turn of the loop later, are in. */
async function timers(): Promise<number> {
  for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
  return made.size;
}

it('leaves no timer behind once the run is interrupted during a wait to retry', async () => {
  const before = await timers();
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
  expect(await timers()).toBe(before);
});

it('waits its whole time when given no signal (the lease is polled so)', async () => {
  const before = await timers();
  let done = false;
  const waited = sleepUnlessAborted(50).then(() => (done = true));
  expect(await timers()).toBe(before + 1);
  expect(done).toBe(false);
  await waited;
  expect(await timers()).toBe(before);
});
