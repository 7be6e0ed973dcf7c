/**
 * The pull orchestrator: check the output folder, open the resume file, walk
 * the API, map it to content, write the files, check them as the build would,
 * and delete the resume file. Expected failures (unreachable, not Weblate,
 * rate limited, content that fails the checks) come back in the report; only
 * bugs throw.
 */
import { readFile, rm, rmdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { checkFile, placeOf } from '../content/files.ts';
import { escapeControls, type ContentError } from '../errors.ts';
import { loadCatalog, type Catalog } from '../catalog/catalog.ts';
import { PullError } from './errors.ts';
import {
  createHttpClient,
  DEFAULT_HTTP_OPTIONS,
  type HttpClient,
  type HttpDeps,
  type HttpOptions,
  type JsonAnswer,
  type Wait,
} from './http.ts';
import { mapInstance, type MappedContent } from './map.ts';
import { openState, STATE_FILE, type ResumeState } from './state.ts';
import { readRecord, recordPull, RECORD_FILE } from './record.ts';
import { refreshApi, type ChangedPlace } from './refresh.ts';
import { DEFAULT_SWEEP_EVERY, nextSweepRecord, parseSweepEvery, type SweepEvery } from './sweep.ts';
import { walkApi, type Fetcher, type WalkProgress } from './walk.ts';
import { sleepUnlessAborted } from './waits.ts';
import { openStage } from './stage.ts';
import { checkInParts } from './check.ts';
import {
  checkOutputFolder,
  contentAfterWrite,
  contentOnDisk,
  pulledMarker,
  writeContentFiles,
  type WrittenContent,
} from './write.ts';

export interface PullOptions {
  /** The API root, as normalizeApiUrl() gives it. */
  from: string;
  outDir: string;
  token?: string | undefined;
  /** Slugs of the projects to pull; empty for all. */
  projects?: readonly string[];
  /** Read everything, even into an earlier pull whose record would let only what changed be read. */
  full?: boolean;
  /** Into an earlier pull, what is known to have changed (a webhook's delivery): only that is read again. */
  only?: readonly ChangedPlace[] | undefined;
  /** How often an incremental pull reads every project's statistics (`12` runs, `6h`); else as the record says, else every 6 hours. */
  sweepEvery?: string;
  http?: Partial<
    Pick<
      HttpOptions,
      'concurrency' | 'retries' | 'backoffMs' | 'maxWaitMs' | 'timeoutMs' | 'maxTotalBytes'
    >
  >;
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
  | ({
      ok: true;
      counts: MappedContent['counts'];
      /** Files written (new or changed text), and files already as the pull would write them. */
      files: number;
      unchanged: number;
      removed: number;
      /** Incremental: components kept from the earlier pull without being read again; null for a full pull. */
      kept: number | null;
      /** Whether every project's statistics were read (a full pull reads everything). */
      swept: boolean;
      warnings: string[];
    } & PullStats)
  | ({
      ok: false;
      message: string;
      errors: ContentError[];
      warnings: string[];
      /** A later run is expected to succeed (network, 5xx, rate limits): the exit code says so. */
      temporary: boolean;
    } & PullStats);

/** Real network, clock and timers. */
export function defaultPullDeps(): PullDeps {
  return {
    fetch: (url, init) => fetch(url, init),
    sleep: sleepUnlessAborted,
    now: () => Date.now(),
    random: () => Math.random(),
  };
}

/** The API root URL with a trailing slash, or why it cannot be one. */
export function normalizeApiUrl(
  text: string,
): { ok: true; url: string } | { ok: false; message: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return {
      ok: false,
      message: `--from expects the URL of a Weblate API, such as https://weblate.example.org/api/ (got "${text}")`,
    };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, message: `--from expects an http(s) URL (got "${text}")` };
  if (url.search || url.hash)
    return { ok: false, message: `--from expects a URL without query or fragment (got "${text}")` };
  if (url.username || url.password)
    return {
      ok: false,
      message:
        '--from expects a URL without credentials; give an API key with --token or WEBLATE_TOKEN',
    };
  return { ok: true, url: url.href.endsWith('/') ? url.href : `${url.href}/` };
}

export async function pull(options: PullOptions, deps: PullDeps): Promise<PullReport> {
  const started = deps.now();
  const folder = await checkOutputFolder(options.outDir);
  if (!folder.ok) return failure(folder.message, { requests: 0, resumed: 0, durationMs: 0 });
  const existed = await stat(options.outDir).then(
    () => true,
    () => false,
  );
  const staging = await openStage(options.outDir);
  if (!staging.ok) return failure(staging.message, { requests: 0, resumed: 0, durationMs: 0 });
  const { stage } = staging;
  const state = await openState(options.outDir, options.from, { full: options.full === true });
  // A re-run without --full resumes a --full pull as one.
  const full = options.full === true || state.full;
  // What the server sent reaches the terminal with its control characters escaped.
  const notify = (text: string) => options.onNotice?.(escapeControls(text));
  if (state.notice) notify(state.notice);
  if (state.resumed > 0)
    notify(
      `Resuming: ${state.resumed} answers kept by the interrupted pull are read from ${STATE_FILE}.`,
    );
  const client = createHttpClient(
    {
      ...DEFAULT_HTTP_OPTIONS,
      ...options.http,
      token: options.token,
      scope: options.from,
      bytesBefore: state.bytes,
      onWait: (wait) => notify(describeWait(wait)),
    },
    deps,
  );
  const progress: PullProgress = { requests: 0, resumed: 0, componentsDone: 0, componentsKnown: 0 };
  const report = (walk?: WalkProgress) =>
    options.onProgress?.(Object.assign(progress, walk ?? {}, { requests: client.sent() }));
  const fetcher = resumableFetcher(
    client,
    state,
    () => report(),
    () => progress.resumed++,
  );
  const stats = () => ({
    requests: client.sent(),
    resumed: progress.resumed,
    durationMs: deps.now() - started,
  });
  try {
    const selection = options.projects ?? [];
    const record = full ? null : await readRecord(options.outDir, options.from, selection);
    const walk = { from: options.from, projects: selection, onProgress: report };
    const every = options.sweepEvery ?? record?.sweep?.every ?? DEFAULT_SWEEP_EVERY;
    const { instance, swept, listed } = record
      ? await refreshApi(fetcher.fetch, {
          ...walk,
          outDir: options.outDir,
          record,
          only: options.only,
          sweepEvery: sweepSetting(every),
          onNotice: notify,
        })
      : {
          instance: await walkApi(fetcher.fetch, walk, (start) => stage.settle(start)),
          swept: true,
          listed: false,
        };
    const catalog = deps.catalog ?? loadCatalog();
    const mapped = mapInstance(instance, catalog);
    mapped.files[0]!.comment = pulledMarker(options.from);
    const failed = (errors: ContentError[]): PullReport => ({
      ok: false,
      message: `The content pulled into ${options.outDir} does not pass the checks of the build:`,
      errors,
      warnings: mapped.warnings.map(escapeControls),
      temporary: false,
      ...stats(),
    });
    // A full pull checks what it would write before writing: content that fails leaves the folder as it was.
    if (!record) {
      const after = await contentAfterWrite(options.outDir, mapped.files, mapped.kept, {
        paths: stage.records.keys(),
        read: (path) => stage.read(path),
      });
      const errors = checkInParts(options.outDir, after, catalog);
      if (errors.length > 0) {
        await stage.drop();
        await state.remove();
        return failed(errors);
      }
    }
    // The record describes the files: it goes before they change, and comes back once they are checked.
    await rm(join(options.outDir, RECORD_FILE), { force: true });
    const written = withPlaced(
      await writeContentFiles(options.outDir, mapped.files, mapped.kept),
      await stage.place(),
    );
    await state.remove();
    const errors = record ? await checkWritten(options.outDir, written, catalog) : [];
    if (errors.length > 0) return failed(errors);
    await recordPull(options.outDir, {
      from: options.from,
      selection,
      // Told what changed, the pull looked at nothing else: the next one reads the feed from the same date.
      instance: record && options.only ? { ...instance, date: record.date } : instance,
      mapped,
      previous: record,
      settled: stage.records,
      sweep: nextSweepRecord(every, record?.sweep, { swept, listed, now: instance.date }),
    });
    const files = {
      files: written.written.length,
      unchanged: written.unchanged,
      removed: written.removed,
    };
    const kept = record ? mapped.kept.length : null;
    return {
      ok: true,
      counts: mapped.counts,
      ...files,
      kept,
      swept,
      warnings: mapped.warnings.map(escapeControls),
      ...stats(),
    };
  } catch (error) {
    await fetcher.stop();
    await stage.drop();
    await state.close();
    if (!(error instanceof PullError)) throw error;
    if (error.options.resumable === false) {
      await state.remove();
      // A folder made for this pull goes too (rmdir: only while empty).
      if (!existed) await rmdir(options.outDir).catch(() => undefined);
      return failure(escapeControls(error.message), stats());
    }
    const again = options.full
      ? 'run the same command without --full (which starts over)'
      : 'run the same command again';
    const kept = `What was fetched is kept in ${options.outDir}/${STATE_FILE}: ${again} (later, if rate limited) to resume.`;
    return failure(`${escapeControls(error.message)}\n${kept}`, stats(), error.options.temporary);
  }
}

// --- internal ---

/** What writing did, with the staged component files moved into place. */
function withPlaced(
  written: WrittenContent,
  placed: { written: string[]; unchanged: number },
): WrittenContent {
  return {
    written: [...written.written, ...placed.written].sort(),
    unchanged: written.unchanged + placed.unchanged,
    removed: written.removed,
  };
}

/**
 * What an incremental pull wrote, checked as the build would check it: each
 * file it wrote on its own when it wrote only component files (the files it
 * kept passed before; the build checks the rest), else the whole content.
 */
async function checkWritten(
  outDir: string,
  written: WrittenContent,
  catalog: Catalog,
): Promise<ContentError[]> {
  const onlyComponents =
    written.removed === 0 &&
    written.written.every((path) => /^projects\/[^/]+\/components\//.test(path));
  if (!onlyComponents) return checkInParts(outDir, await contentOnDisk(outDir), catalog);
  const errors: ContentError[] = [];
  for (const path of written.written) {
    const place = placeOf(path);
    if (!('place' in place)) continue;
    const file = join(outDir, path);
    const checked = checkFile(file, place.place, await readFile(file, 'utf8'));
    if (!checked.ok) errors.push(...checked.errors);
  }
  return errors;
}

/**
 * Answers kept by an interrupted run come from the resume file; new ones are
 * fetched, and kept once the walk has read them without finding fault.
 */
function resumableFetcher(
  client: HttpClient,
  state: ResumeState,
  onRequest: () => void,
  onResumed: () => void,
) {
  const pending = new Set<Promise<unknown>>();
  let stopped = false;
  const get = async <T>(url: string, read: (answer: JsonAnswer) => T): Promise<T> => {
    if (stopped) throw new PullError('The pull was stopped.');
    const kept = readKept(state, url, read);
    if (kept) {
      onResumed();
      return kept.value;
    }
    const answer = await client.getJson(url);
    onRequest();
    const value = read(answer);
    if (answer.status === 200 && answer.body !== undefined && !stopped)
      await state.keep(url, answer);
    return value;
  };
  const fetch: Fetcher = (url, read) => {
    const job = get(url, read);
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

/**
 * The answer kept for `url`, read; none when there is none, or when the walk
 * refuses it (kept by an earlier version of the pull): the server is asked
 * again, and its answer, kept later in the file, replaces it.
 */
function readKept<T>(
  state: ResumeState,
  url: string,
  read: (answer: JsonAnswer) => T,
): { value: T } | null {
  const kept = state.get(url);
  if (!kept) return null;
  try {
    return { value: read(kept) };
  } catch (error) {
    if (error instanceof PullError) return null;
    throw error;
  }
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

/** The sweep setting; one the command did not check is a bug. */
function sweepSetting(text: string): SweepEvery {
  const every = parseSweepEvery(text);
  if (every === null) throw new Error(`Internal error: --sweep-every "${text}" was not checked`);
  return every;
}

function failure(message: string, stats: PullStats, temporary = false): PullReport {
  return { ok: false, message, errors: [], warnings: [], temporary, ...stats };
}
