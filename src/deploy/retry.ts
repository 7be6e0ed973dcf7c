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
  /** A wait, ended early when given a signal that aborts. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  /** Told about every wait. */
  onWait?: (ms: number, error: StoreError) => void;
  /** Once aborted, no call is tried again and a wait ends at once: the last failure stands. */
  signal?: AbortSignal | undefined;
}

export const DEFAULT_BACKOFF = { backoffMs: 200, maxBackoffMs: 20_000 };

/** Runs `call` until it succeeds, fails in a way trying again cannot mend, or the retries run out. */
export async function withRetries<T>(call: () => Promise<T>, policy: RetryPolicy): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof StoreError) || error.kind === 'fatal') throw error;
      if (attempt >= policy.retries || policy.signal?.aborted) throw lastFailure(error, attempt);
      const base = error.kind === 'throttled' ? 4 * policy.backoffMs : policy.backoffMs;
      const ms = backoffMs(attempt, base, policy.maxBackoffMs, policy.random);
      policy.onWait?.(ms, error);
      await waitUnlessAborted(policy.sleep(ms, policy.signal), policy.signal);
      if (policy.signal?.aborted) throw lastFailure(error, attempt);
    }
  }
}

/** The policy of a run that sends files: its retries and notices, the deps' waits, its signal. */
export function sendingPolicy(
  options: {
    retries: number;
    signal?: AbortSignal | undefined;
    onNotice?: ((text: string) => void) | undefined;
  },
  deps: {
    sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
    random: () => number;
    backoff?: { backoffMs: number; maxBackoffMs: number } | undefined;
  },
): RetryPolicy {
  return {
    retries: options.retries,
    ...(deps.backoff ?? DEFAULT_BACKOFF),
    sleep: deps.sleep,
    random: deps.random,
    onWait: (ms, error) =>
      options.onNotice?.(`Waiting ${(ms / 1000).toFixed(1)} s: ${error.message}`),
    signal: options.signal,
  };
}

// --- internal ---

/** The failure a caller sees: its kind stays, as a store down or throttled may not be met later. */
function lastFailure(error: StoreError, attempt: number): StoreError {
  return new StoreError(
    `${error.message} (${attempt + 1} ${attempt === 0 ? 'attempt' : 'attempts'})`,
    error.kind,
  );
}

/** `wait`, ended early when the signal aborts. */
function waitUnlessAborted(wait: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  return signal ? Promise.race([wait, whenAborted(signal)]) : wait;
}

/** One promise, and one listener, per signal: every upload in flight waits on the same one. */
const aborts = new WeakMap<AbortSignal, Promise<void>>();

function whenAborted(signal: AbortSignal): Promise<void> {
  let aborted = aborts.get(signal);
  if (!aborted) {
    aborted = new Promise<void>((done) =>
      signal.addEventListener('abort', () => done(), { once: true }),
    );
    aborts.set(signal, aborted);
  }
  return aborted;
}
