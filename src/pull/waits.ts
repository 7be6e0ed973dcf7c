/**
 * How long to wait, and when: exponential backoff with jitter for transient
 * failures, Retry-After of a 429, and the rate-limit budget announced by
 * Weblate's X-RateLimit-* headers. Pure arithmetic, the clock passed in;
 * and the one real wait, which an abort ends.
 */

/** Waits `ms`, or less once `signal` aborts: an interrupted run is not held until the timer runs out. */
export function sleepUnlessAborted(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', done);
      clearTimeout(timer);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** The delay before retry number `attempt` (0-based): doubling from `baseMs` up to `maxMs`, then jittered to 50–100 %. */
export function backoffMs(
  attempt: number,
  baseMs: number,
  maxMs: number,
  random: () => number,
): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** attempt);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Retry-After as milliseconds from `now`: delay-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now: number): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/GMT$/.test(text)) return null; // HTTP dates are in GMT: "Thu, 02 May 2024 10:00:30 GMT"
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

interface RateLimitHeaders {
  /** Requests left in the window, this one counted. */
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

/** Weblate's X-RateLimit-Remaining and X-RateLimit-Reset, when both are present and numeric. */
export function readRateLimit(headers: {
  get(name: string): string | null;
}): RateLimitHeaders | null {
  const remaining = headers.get('x-ratelimit-remaining');
  const reset = headers.get('x-ratelimit-reset');
  if (
    remaining === null ||
    reset === null ||
    !/^\s*-?\d+\s*$/.test(remaining) ||
    !/^\s*\d+\s*$/.test(reset)
  )
    return null;
  return { remaining: Number(remaining), resetSeconds: Number(reset) };
}

/**
 * What is left of the server's request budget, as last announced, minus what
 * was sent since. When nothing is left, the next request waits for the reset
 * instead of earning a 429.
 */
interface RateBudget {
  /** Milliseconds to wait before the next request may go; 0 when the budget allows it. */
  waitMs(now: number): number;
  /** One request is going out. */
  spend(): void;
  /** A response announced the budget; `othersInFlight` requests were sent before it and are not counted in it yet. */
  observe(limit: RateLimitHeaders | null, now: number, othersInFlight: number): void;
  /** The window has reset: the budget is unknown until the next response. */
  reset(): void;
}

export function createRateBudget(): RateBudget {
  let remaining: number | null = null;
  let resetAt = 0;
  return {
    waitMs: (now) => (remaining === null || remaining > 0 ? 0 : Math.max(0, resetAt - now)),
    spend: () => {
      if (remaining !== null) remaining--;
    },
    observe: (limit, now, othersInFlight) => {
      if (!limit) return;
      const estimate = limit.remaining - othersInFlight;
      // Answers may arrive out of order: within a window the estimate only goes down.
      remaining = remaining === null || now >= resetAt ? estimate : Math.min(remaining, estimate);
      resetAt = now + limit.resetSeconds * 1000;
    },
    reset: () => {
      remaining = null;
    },
  };
}
