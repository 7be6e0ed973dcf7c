/**
 * The HTTP client of a pull: GET with JSON, a bounded number of requests in
 * flight, retries with backoff for network errors and 5xx, 429 honoured with
 * Retry-After, and the X-RateLimit-* budget respected before it runs out.
 * Every wait is bounded and goes through the injected `sleep`, so tests run on
 * a fake clock. A hostile server gets nothing out of it: each request, body
 * included, ends at `timeoutMs` (a timer that owns the request's controller),
 * a body larger than `maxBodyBytes` is cut off, and a redirect is followed
 * only to a URL under `scope` (the API given with --from, where the key goes).
 */
import { setMaxListeners } from 'node:events';
import { PullError } from './errors.ts';
import { backoffMs, createRateBudget, readRateLimit, retryAfterMs } from './waits.ts';

export interface HttpDeps {
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  /** Waits `ms`; rejects when `signal` aborts (the pull stopped). */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  now: () => number;
  random: () => number;
}

export interface HttpOptions {
  /** Sent as `Authorization: Token <key>`. */
  token?: string | undefined;
  /** Requests in flight at once. */
  concurrency: number;
  /** Retries of a request after a network error or a 5xx. */
  retries: number;
  /** First backoff delay; it doubles per retry, with jitter, up to `maxBackoffMs`. */
  backoffMs: number;
  maxBackoffMs: number;
  /** The longest wait accepted for a 429 or a used-up rate limit; a longer one stops the pull (to be resumed). */
  maxWaitMs: number;
  /** Time allowed for one request, body included. */
  timeoutMs: number;
  /** The largest body taken; a larger one stops the pull. */
  maxBodyBytes: number;
  /** The most bytes of bodies taken in all, `bytesBefore` included; more stops the pull (--max-bytes). */
  maxTotalBytes: number;
  /** Bytes taken before this client began (answers read back from the resume file). */
  bytesBefore?: number;
  /** Redirects are followed only to URLs that start with this (the API root given with --from); undefined: none followed. */
  scope?: string | undefined;
  /** Told about every wait, to be shown to the user. */
  onWait?: (wait: Wait) => void;
}

export interface Wait {
  reason: 'retry' | 'throttled' | 'rate-limit';
  ms: number;
  url: string;
  /** What happened: `HTTP 503`, `connection reset`, `Retry-After: 60`. */
  detail: string;
}

/** A final answer: its status and its body parsed as JSON (undefined when the body is not JSON). */
export interface JsonAnswer {
  status: number;
  body: unknown;
  contentType: string;
  /** The server's Date header, when it sent one (the server's clock, for the changes since a pull). */
  date?: string | undefined;
}

export interface HttpClient {
  getJson(url: string): Promise<JsonAnswer>;
  /** Requests sent so far, retries included. */
  sent(): number;
  /** Makes waiting and later requests fail, and resolves once nothing is in flight. */
  stop(): Promise<void>;
}

export const DEFAULT_HTTP_OPTIONS: HttpOptions = {
  concurrency: 4,
  retries: 4,
  backoffMs: 500,
  maxBackoffMs: 30_000,
  maxWaitMs: 600_000,
  timeoutMs: 60_000,
  maxBodyBytes: 64 * 2 ** 20,
  maxTotalBytes: 4 * 2 ** 30,
};

/** Redirects followed for one request, at most. */
const MAX_REDIRECTS = 5;

/** Requests that keep answering 429 are given up after this many waits. */
const MAX_THROTTLED = 10;

export function createHttpClient(options: HttpOptions, deps: HttpDeps): HttpClient {
  const stopper = new AbortController();
  // Each request in flight and each wait listens to this one signal and lets go when it ends;
  // more than ten at once is normal here, so Node's leak warning would only alarm the user.
  setMaxListeners(0, stopper.signal);
  const slots = createSlots(options.concurrency);
  const budget = createRateBudget();
  const pending = new Set<Promise<unknown>>();
  const taken = { bytes: options.bytesBefore ?? 0 };
  let sent = 0;
  let inFlight = 0;

  const pause = async (wait: Wait) => {
    options.onWait?.(wait);
    await deps.sleep(wait.ms, stopper.signal);
    if (stopper.signal.aborted) throw stoppedError();
  };

  const waitForBudget = async (url: string) => {
    const ms = budget.waitMs(deps.now());
    if (ms === 0) return;
    if (ms > options.maxWaitMs) throw rateLimitUsedUp(ms, options.maxWaitMs);
    await pause({ reason: 'rate-limit', ms, url, detail: 'X-RateLimit-Remaining: 0' });
    budget.reset();
  };

  const attempt = async (url: string): Promise<Attempt> => {
    await waitForBudget(url);
    if (stopper.signal.aborted) throw stoppedError();
    budget.spend();
    sent++;
    const request = requestController(stopper.signal, options.timeoutMs);
    try {
      inFlight++;
      let response: Response;
      try {
        response = await deps.fetch(url, {
          headers: requestHeaders(options.token),
          redirect: 'manual',
          signal: request.signal,
        });
      } catch (error) {
        if (stopper.signal.aborted) throw stoppedError();
        return { kind: 'transient', detail: describeNetworkError(error) };
      } finally {
        inFlight--;
      }
      budget.observe(readRateLimit(response.headers), deps.now(), inFlight);
      return await readResponse(url, response, options, taken, deps.now(), stopper.signal);
    } finally {
      request.done();
    }
  };

  const getJson = async (first: string): Promise<JsonAnswer> => {
    let url = first;
    let failures = 0;
    let throttled = 0;
    let redirects = 0;
    for (;;) {
      const outcome = await slots.run(() => attempt(url));
      if (outcome.kind === 'answer') return outcome.answer;
      if (outcome.kind === 'redirect') {
        if (options.scope === undefined || !outcome.location.startsWith(options.scope))
          throw new PullError(
            `${url} redirects to ${outcome.location}, outside ${options.scope ?? 'the URL asked for'}; the pull does not follow it (the key is sent only there).`,
            { resumable: false },
          );
        if (++redirects > MAX_REDIRECTS)
          throw new PullError(`${first} redirects more than ${MAX_REDIRECTS} times.`, {
            resumable: false,
          });
        url = outcome.location;
        continue;
      }
      if (outcome.kind === 'throttled') {
        const ms =
          outcome.waitMs ??
          backoffMs(throttled, options.backoffMs, options.maxBackoffMs, deps.random);
        if (ms > options.maxWaitMs) throw throttledTooLong(url, ms, options.maxWaitMs);
        if (++throttled > MAX_THROTTLED)
          throw new PullError(
            `${url} kept answering HTTP 429 (throttled) after ${MAX_THROTTLED} waits.`,
            { temporary: true },
          );
        await pause({ reason: 'throttled', ms, url, detail: outcome.detail });
        continue;
      }
      if (failures >= options.retries) {
        const tries = failures + 1;
        throw new PullError(
          `${url} failed ${tries === 1 ? 'once' : `${tries} times`} (last: ${outcome.detail}).`,
          { temporary: true },
        );
      }
      await pause({
        reason: 'retry',
        ms: backoffMs(failures, options.backoffMs, options.maxBackoffMs, deps.random),
        url,
        detail: outcome.detail,
      });
      failures++;
    }
  };

  return {
    getJson(url) {
      const job = getJson(url);
      pending.add(job);
      const forget = () => void pending.delete(job);
      job.then(forget, forget);
      return job;
    },
    sent: () => sent,
    async stop() {
      stopper.abort();
      await Promise.allSettled([...pending]);
    },
  };
}

// --- internal ---

type Attempt =
  | { kind: 'answer'; answer: JsonAnswer }
  | { kind: 'transient'; detail: string }
  | { kind: 'throttled'; waitMs: number | null; detail: string }
  /** `location` resolved against the URL asked for (so `..` and `%2e%2e` are resolved before it is checked). */
  | { kind: 'redirect'; location: string };

async function readResponse(
  url: string,
  response: Response,
  options: HttpOptions,
  taken: { bytes: number },
  now: number,
  stop: AbortSignal,
): Promise<Attempt> {
  if (response.status === 429) {
    await response.body?.cancel().catch(() => undefined);
    const header = response.headers.get('retry-after');
    const waitMs = retryAfterMs(header, now) ?? resetMs(response.headers);
    return {
      kind: 'throttled',
      waitMs,
      detail: header === null ? 'HTTP 429' : `HTTP 429, Retry-After: ${header}`,
    };
  }
  const location = REDIRECTS.has(response.status) ? response.headers.get('location') : null;
  if (location !== null) {
    await response.body?.cancel().catch(() => undefined);
    const target = URL.parse(location, url);
    if (target === null)
      throw new PullError(`${url} redirects to ${location}, which is not a URL.`, {
        resumable: false,
      });
    return { kind: 'redirect', location: target.href };
  }
  let text: string;
  try {
    text = await readBody(url, response, options, taken);
  } catch (error) {
    if (error instanceof PullError) throw error;
    if (stop.aborted) throw stoppedError();
    return { kind: 'transient', detail: describeNetworkError(error) };
  }
  if (response.status >= 500) return { kind: 'transient', detail: `HTTP ${response.status}` };
  if (nestingDepth(text) > MAX_JSON_DEPTH)
    throw new PullError(
      `${url} answered with JSON nested more than ${MAX_JSON_DEPTH} levels deep; no answer of a Weblate API is, so the pull stops.`,
    );
  const body = parseJson(text);
  if (response.status === 401) throw refusedCredentials(url, options.token, body);
  const answer: JsonAnswer = {
    status: response.status,
    body,
    contentType: response.headers.get('content-type') ?? '',
  };
  const date = response.headers.get('date');
  if (date) answer.date = date;
  return { kind: 'answer', answer };
}

function requestHeaders(token: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'User-Agent': 'weblate-snapshot-pull',
  };
  if (token) headers.Authorization = `Token ${token}`;
  return headers;
}

const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/**
 * A request's own controller, aborted by its timer or by a stop. The timer
 * holds the controller: a timeout signal merged with AbortSignal.any can be
 * garbage-collected while the body still drips in, and then it never fires.
 */
function requestController(
  stop: AbortSignal,
  timeoutMs: number,
): { signal: AbortSignal; done: () => void } {
  const controller = new AbortController();
  const onStop = () => controller.abort(stop.reason);
  stop.addEventListener('abort', onStop, { once: true });
  const timer = setTimeout(
    () =>
      controller.abort(new DOMException(`no whole answer within ${timeoutMs} ms`, 'TimeoutError')),
    timeoutMs,
  );
  return {
    signal: controller.signal,
    done() {
      clearTimeout(timer);
      stop.removeEventListener('abort', onStop);
    },
  };
}

/**
 * The body as text, refused once it grows past `maxBodyBytes` (announced or
 * sent), or once the bytes taken in all pass `maxTotalBytes`.
 */
async function readBody(
  url: string,
  response: Response,
  options: HttpOptions,
  taken: { bytes: number },
): Promise<string> {
  const maxBytes = options.maxBodyBytes;
  const tooLarge = () =>
    new PullError(
      `${url} answered with more than ${formatBytes(maxBytes)}; no answer of a Weblate API is that large, so the pull stops.`,
    );
  const announced = Number(response.headers.get('content-length'));
  if (announced > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!response.body) return '';
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    taken.bytes += value.byteLength;
    const error =
      bytes > maxBytes
        ? tooLarge()
        : taken.bytes > options.maxTotalBytes
          ? tooMuchInAll(options.maxTotalBytes)
          : null;
    if (error) {
      await reader.cancel().catch(() => undefined);
      throw error;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function tooMuchInAll(maxBytes: number): PullError {
  return new PullError(
    `The pull stopped after reading ${formatBytes(maxBytes)} from the server (answers kept by an interrupted pull included), ` +
      'all that --max-bytes allows; give a larger --max-bytes to read more.',
  );
}

function formatBytes(bytes: number): string {
  const units = [
    ['GiB', 2 ** 30],
    ['MiB', 2 ** 20],
    ['KiB', 2 ** 10],
  ] as const;
  for (const [unit, size] of units)
    if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`;
  return `${bytes} bytes`;
}

function resetMs(headers: Headers): number | null {
  const limit = readRateLimit(headers);
  return limit ? limit.resetSeconds * 1000 : null;
}

/**
 * Weblate's bodies nest about five levels deep. A deeper body is refused
 * before it is parsed: writing it back (JSON.stringify, YAML) recurses once
 * per level and would run out of stack.
 */
const MAX_JSON_DEPTH = 64;

/** The deepest nesting of arrays and objects in a JSON text (brackets inside strings skipped), in one pass. */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '[' || char === '{') deepest = Math.max(deepest, ++depth);
    else if (char === ']' || char === '}') depth--;
  }
  return deepest;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A short reason for a failed connection: `ECONNREFUSED`, `timed out`, `other side closed`. */
function describeNetworkError(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'timed out';
  if (error instanceof Error && error.name === 'AbortError') return 'cancelled';
  const cause =
    error instanceof Error
      ? (error.cause as { code?: string; message?: string } | undefined)
      : undefined;
  if (cause?.code) return cause.code;
  if (cause?.message) return cause.message;
  return error instanceof Error ? error.message : String(error);
}

function refusedCredentials(url: string, token: string | undefined, body: unknown): PullError {
  const detail =
    typeof body === 'object' && body !== null && 'detail' in body ? `: ${String(body.detail)}` : '';
  return new PullError(
    token
      ? `${url} refused the token (HTTP 401${detail}). Check the key given with --token or WEBLATE_TOKEN.`
      : `${url} asks for authentication (HTTP 401${detail}). Give an API key with --token or WEBLATE_TOKEN.`,
  );
}

function throttledTooLong(url: string, ms: number, maxMs: number): PullError {
  return new PullError(
    `${url} is throttled (HTTP 429) for ${seconds(ms)}, longer than the ${seconds(maxMs)} allowed by --max-wait.`,
    { temporary: true },
  );
}

function rateLimitUsedUp(ms: number, maxMs: number): PullError {
  return new PullError(
    `The server's rate limit is used up (X-RateLimit-Remaining: 0) for another ${seconds(ms)}, ` +
      `longer than the ${seconds(maxMs)} allowed by --max-wait.`,
    { temporary: true },
  );
}

function stoppedError(): PullError {
  return new PullError('The pull was stopped.');
}

function seconds(ms: number): string {
  return `${Math.ceil(ms / 1000)} s`;
}

/** At most `limit` jobs at once; the others wait in order. */
export function createSlots(limit: number) {
  let active = 0;
  const queue: (() => void)[] = [];
  // A freed slot passes straight to the next waiter, so no newcomer can slip in between.
  const release = () => {
    const next = queue.shift();
    if (next) next();
    else active--;
  };
  return {
    async run<T>(job: () => Promise<T>): Promise<T> {
      if (active >= limit) await new Promise<void>((resolve) => queue.push(resolve));
      else active++;
      try {
        return await job();
      } finally {
        release();
      }
    },
  };
}
