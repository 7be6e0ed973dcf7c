/**
 * Calls to the object store, tried again with backoff: network failures and
 * 5xx answers after 0.2 s, 0.4 s, 0.8 s, …; a store that asks to slow down
 * (SlowDown, 429, 503) after four times as long. Every wait goes through the
 * injected `sleep`, so tests need not wait.
 */
import { backoffMs } from '../pull/waits.ts';
import { StoreError } from './store.ts';

export interface RetryPolicy {
  /** Tries after the first. */
  retries: number;
  /** First wait after a failure; doubled each time, jittered, up to `maxBackoffMs`. */
  backoffMs: number;
  maxBackoffMs: number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  /** Told about every wait. */
  onWait?: (ms: number, error: StoreError) => void;
}

export const DEFAULT_BACKOFF = { backoffMs: 200, maxBackoffMs: 20_000 };

/** Runs `call` until it succeeds, fails in a way trying again cannot mend, or the retries run out. */
export async function withRetries<T>(call: () => Promise<T>, policy: RetryPolicy): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof StoreError) || error.kind === 'fatal') throw error;
      if (attempt >= policy.retries) {
        // Its kind stays: a store down or throttled is what a later run may not meet.
        throw new StoreError(
          `${error.message} (${attempt + 1} ${attempt === 0 ? 'attempt' : 'attempts'})`,
          error.kind,
        );
      }
      const base = error.kind === 'throttled' ? 4 * policy.backoffMs : policy.backoffMs;
      const ms = backoffMs(attempt, base, policy.maxBackoffMs, policy.random);
      policy.onWait?.(ms, error);
      await policy.sleep(ms);
    }
  }
}
