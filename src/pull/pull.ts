/**
 * The pull orchestrator: check the output folder, open the resume file, walk
 * the API, map it to content, write the files, check them as the build would,
 * and delete the resume file. Expected failures (unreachable, not Weblate,
 * rate limited, content that fails the checks) come back in the report; only
 * bugs throw.
 */
import { openContent } from '../resolve/open.ts';
import type { ContentError } from '../errors.ts';
import { loadCatalog, type Catalog } from '../catalog/catalog.ts';
import { PullError } from './errors.ts';
import { createHttpClient, DEFAULT_HTTP_OPTIONS, type HttpClient, type HttpDeps, type HttpOptions, type Wait } from './http.ts';
import { mapInstance, type MappedContent } from './map.ts';
import { openState, STATE_FILE, type ResumeState } from './state.ts';
import { walkApi, type Fetcher, type WalkProgress } from './walk.ts';
import { checkOutputFolder, pulledMarker, writeContentFiles } from './write.ts';

export interface PullOptions {
  /** The API root, as normalizeApiUrl() gives it. */
  from: string;
  outDir: string;
  token?: string | undefined;
  /** Slugs of the projects to pull; empty for all. */
  projects?: readonly string[];
  http?: Partial<Pick<HttpOptions, 'concurrency' | 'retries' | 'backoffMs' | 'maxWaitMs' | 'timeoutMs'>>;
  onProgress?: (progress: PullProgress) => void;
  /** Things the user should know while the pull runs: waits, a resumed pull. */
  onNotice?: (text: string) => void;
}

export interface PullProgress extends WalkProgress {
  requests: number;
  resumed: number;
}

export interface PullDeps extends HttpDeps {
  catalog?: Catalog;
}

interface PullStats {
  requests: number;
  resumed: number;
  durationMs: number;
}

export type PullReport =
  | ({ ok: true; counts: MappedContent['counts']; files: number; removed: number; warnings: string[] } & PullStats)
  | ({ ok: false; message: string; errors: ContentError[]; warnings: string[] } & PullStats);

/** Real network, clock and timers. */
export function defaultPullDeps(): PullDeps {
  return {
    fetch: (url, init) => fetch(url, init),
    sleep: (ms, signal) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          signal.removeEventListener('abort', done);
          clearTimeout(timer);
          resolve();
        }
        signal.addEventListener('abort', done, { once: true });
      }),
    now: () => Date.now(),
    random: () => Math.random(),
  };
}

/** The API root URL with a trailing slash, or why it cannot be one. */
export function normalizeApiUrl(text: string): { ok: true; url: string } | { ok: false; message: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: `--from expects the URL of a Weblate API, such as https://weblate.example.org/api/ (got "${text}")` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, message: `--from expects an http(s) URL (got "${text}")` };
  if (url.search || url.hash) return { ok: false, message: `--from expects a URL without query or fragment (got "${text}")` };
  if (url.username || url.password)
    return { ok: false, message: '--from expects a URL without credentials; give an API key with --token or WEBLATE_TOKEN' };
  return { ok: true, url: url.href.endsWith('/') ? url.href : `${url.href}/` };
}

export async function pull(options: PullOptions, deps: PullDeps): Promise<PullReport> {
  const started = deps.now();
  const folder = await checkOutputFolder(options.outDir);
  if (!folder.ok) return failure(folder.message, { requests: 0, resumed: 0, durationMs: 0 });
  const state = await openState(options.outDir, options.from);
  if (state.notice) options.onNotice?.(state.notice);
  if (state.resumed > 0) options.onNotice?.(`Resuming: ${state.resumed} answers kept by the interrupted pull are read from ${STATE_FILE}.`);
  const client = createHttpClient(
    { ...DEFAULT_HTTP_OPTIONS, ...options.http, token: options.token, onWait: (wait) => options.onNotice?.(describeWait(wait)) },
    deps,
  );
  const progress: PullProgress = { requests: 0, resumed: 0, componentsDone: 0, componentsKnown: 0 };
  const report = (walk?: WalkProgress) => options.onProgress?.(Object.assign(progress, walk ?? {}, { requests: client.sent() }));
  const fetcher = resumableFetcher(
    client,
    state,
    () => report(),
    () => progress.resumed++,
  );
  const stats = () => ({ requests: client.sent(), resumed: progress.resumed, durationMs: deps.now() - started });
  try {
    const instance = await walkApi(fetcher.fetch, { from: options.from, projects: options.projects ?? [], onProgress: report });
    const mapped = mapInstance(instance, deps.catalog ?? loadCatalog());
    mapped.files[0]!.comment = pulledMarker(options.from);
    const written = await writeContentFiles(options.outDir, mapped.files);
    await state.remove();
    const checked = await openContent(options.outDir, { catalog: deps.catalog });
    if (!checked.ok) {
      const message = `The content pulled into ${options.outDir} does not pass the checks of the build:`;
      return { ok: false, message, errors: checked.errors, warnings: mapped.warnings, ...stats() };
    }
    return { ok: true, counts: mapped.counts, files: written.written, removed: written.removed, warnings: mapped.warnings, ...stats() };
  } catch (error) {
    await fetcher.stop();
    await state.close();
    if (!(error instanceof PullError)) throw error;
    if (error.options.resumable === false) {
      await state.remove();
      return failure(error.message, stats());
    }
    const kept = `What was fetched is kept in ${options.outDir}/${STATE_FILE}: run the same command again (later, if rate limited) to resume.`;
    return failure(`${error.message}\n${kept}`, stats());
  }
}

// --- internal ---

/** Answers kept by an interrupted run come from the resume file; new ones are fetched and kept. */
function resumableFetcher(client: HttpClient, state: ResumeState, onRequest: () => void, onResumed: () => void) {
  const pending = new Set<Promise<unknown>>();
  let stopped = false;
  const get = async (url: string) => {
    if (stopped) throw new PullError('The pull was stopped.');
    const kept = state.get(url);
    if (kept) {
      onResumed();
      return kept;
    }
    const answer = await client.getJson(url);
    onRequest();
    if (answer.status === 200 && answer.body !== undefined && !stopped) await state.keep(url, answer);
    return answer;
  };
  const fetch: Fetcher = (url) => {
    const job = get(url);
    pending.add(job);
    const forget = () => void pending.delete(job);
    job.then(forget, forget);
    return job;
  };
  return {
    fetch,
    async stop() {
      stopped = true;
      await client.stop();
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}

function describeWait(wait: Wait): string {
  const seconds = Math.ceil(wait.ms / 1000);
  const why =
    wait.reason === 'retry'
      ? `retrying after ${wait.detail}`
      : wait.reason === 'throttled'
        ? `throttled (${wait.detail})`
        : `rate limit used up (${wait.detail})`;
  return `Waiting ${seconds} s: ${why}: ${wait.url}`;
}

function failure(message: string, stats: PullStats): PullReport {
  return { ok: false, message, errors: [], warnings: [], ...stats };
}
