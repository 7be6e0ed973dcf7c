/**
 * One refresh of a mirror. Into a folder a web server serves: an incremental
 * pull into the working folder's content and a build straight into the
 * served folder. Into a bucket: holding the lease on the state kept in the
 * store, the pulled content and the deploy record are read from that state
 * into a scratch folder, the pull refreshes the content, the groups that
 * changed are rendered and uploaded from memory (no tree on disk), and the
 * state is written back; the scratch folder goes at the end. Each step's
 * report comes back; a failure stops the refresh and says whether a later
 * one resumes it (`temporary`) or the content or settings are at fault.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDirectory, checkOutput, type BuildReport } from '../build.ts';
import { noFigures, type DeployReport } from '../deploy/deploy.ts';
import { publishInRun } from '../deploy/publish.ts';
import {
  parseStateLocation,
  withStoreState,
  type StateDeployReport,
  type StateLocation,
} from '../deploy/store-state.ts';
import type { ObjectStore } from '../deploy/store.ts';
import type { DeployTarget } from '../deploy/target.ts';
import type { ContentError } from '../errors.ts';
import type { HostOptions } from '../hosts/index.ts';
import { defaultPullDeps, pull, type PullOptions, type PullReport } from '../pull/pull.ts';
import { restampRecord } from '../pull/record.ts';
import type { ChangedPlace } from '../pull/refresh.ts';
import type { SettingsOverrides } from '../resolve/resolve.ts';
import { lockTree } from '../tree/lock.ts';
import { sleepUnlessAborted } from '../pull/waits.ts';

/** Where a mirror publishes: a bucket and prefix, or a folder a web server serves. */
export type MirrorTarget =
  | {
      kind: 's3';
      target: DeployTarget;
      /** Where the state the next run needs is kept: beside the prefix when absent. */
      state?: StateLocation;
    }
  | { kind: 'folder'; dir: string };

export interface MirrorOptions {
  from: string;
  token?: string | undefined;
  projects: readonly string[];
  /** Pull everything on a refresh no delivery asked for (pull --full). */
  full?: boolean;
  /**
   * For a folder, where the pulled content stays between runs; for a bucket,
   * where each run's scratch folder goes (the system's temporary folder when
   * absent).
   */
  work?: string | undefined;
  /** For a bucket: how long to wait for another run's lease, in milliseconds (0: stop at once). */
  waitMs?: number;
  target: MirrorTarget;
  settings?: SettingsOverrides;
  host?: HostOptions['host'] | null | undefined;
  http?: PullOptions['http'];
  deploy: { cacheControl: string | null; concurrency: number; retries: number };
  allowBaseUrl?: boolean;
  onNotice?: (text: string) => void;
  /** For a bucket, a long-running mirror's scratch folder, kept between its refreshes (keptScratch()). */
  keep?: KeptScratch | undefined;
}

/**
 * The scratch folder of a bucket's refresh, kept by a long-running mirror
 * for its next refresh while the state in the store is the one it wrote
 * there (its MD5): that refresh then neither reads the state nor restores it.
 */
interface KeptScratch {
  dir: string | null;
  md5: string | null;
  /** Whether the state it wrote says the target is in line with the build cache's model. */
  inLine: boolean;
}

export function keptScratch(): KeptScratch {
  return { dir: null, md5: null, inLine: false };
}

/** Removes a kept scratch folder (when the mirror stops). */
export async function dropScratch(kept: KeptScratch): Promise<void> {
  if (kept.dir !== null) await rm(kept.dir, { recursive: true, force: true });
  kept.dir = kept.md5 = null;
  kept.inLine = false;
}

export interface MirrorDeps {
  /** The bucket's store, made only when a deploy sends something. */
  store: () => ObjectStore;
  /** The store of the state's bucket. */
  stateStore: () => ObjectStore;
}

export type MirrorStepReport =
  | { step: 'pull'; report: Extract<PullReport, { ok: true }> }
  | { step: 'build'; report: BuildReport; tree: string }
  | { step: 'deploy'; report: Extract<DeployReport, { ok: true }> };

export type MirrorOutcome =
  { ok: true } | { ok: false; message: string; errors: ContentError[]; temporary: boolean };

/**
 * Where a refresh keeps the content it pulled, and the tree it builds or whose
 * state folder holds the deploy record (`<tree>.state/`), in `work` (a
 * bucket's scratch folder). The one place that decides it.
 */
export function mirrorPlaces(
  work: string,
  target: MirrorTarget,
): { content: string; tree: string } {
  return {
    content: join(work, 'content'),
    tree: target.kind === 'folder' ? target.dir : join(work, 'tree'),
  };
}

/** Pull (only `only`, when a delivery named what changed), build, deploy; each step told to `onStep`. */
export async function refreshMirror(
  options: MirrorOptions,
  deps: MirrorDeps,
  only: readonly ChangedPlace[] | undefined,
  onStep: (step: MirrorStepReport) => void,
): Promise<MirrorOutcome> {
  const { target } = options;
  if (target.kind === 's3') return refreshInStore(options, target, deps, only, onStep);
  if (options.work === undefined) throw new Error('Internal error: a folder mirror has no --work');
  const { content, tree } = mirrorPlaces(options.work, target);
  const pulled = await pullInto(options, content, only);
  if (!pulled.ok) return pulled;
  onStep({ step: 'pull', report: pulled });
  const built = await buildTree(options, content, tree);
  if (!built.ok) return built;
  onStep({ step: 'build', report: built.report, tree });
  return { ok: true };
}

// --- internal ---

type Failure = Extract<MirrorOutcome, { ok: false }>;

function pullInto(
  options: MirrorOptions,
  content: string,
  only: readonly ChangedPlace[] | undefined,
): Promise<PullReport> {
  return pull(
    {
      from: options.from,
      outDir: content,
      token: options.token,
      projects: options.projects,
      full: options.full === true && only === undefined,
      only,
      http: options.http,
      onNotice: options.onNotice,
    },
    defaultPullDeps(),
  );
}

/**
 * A refresh of a bucket with nothing kept locally: the lease taken, the
 * content and deploy record read from the state into a scratch folder, the
 * pull, the publish, the state written back, the scratch folder removed.
 */
async function refreshInStore(
  options: MirrorOptions,
  target: Extract<MirrorTarget, { kind: 's3' }>,
  deps: MirrorDeps,
  only: readonly ChangedPlace[] | undefined,
  onStep: (step: MirrorStepReport) => void,
): Promise<MirrorOutcome> {
  const { keep } = options;
  const scratch = keep?.dir ?? (await newScratch(options.work));
  const { content, tree } = mirrorPlaces(scratch, target);
  // Set by onSaved(), which TypeScript cannot see run: typed by hand.
  let saved = null as { md5: string; inLine: boolean } | null;
  let failure: Failure | null = null;
  const stop = (outcome: Failure): StateDeployReport => {
    failure = outcome;
    return { ...noFigures(), ok: false, message: outcome.message, stateUnchanged: true };
  };
  const state = {
    state: target.state ?? defaultState(target.target),
    waitMs: options.waitMs ?? 0,
    target: target.target,
    outDir: tree,
    retries: options.deploy.retries,
    carried: content,
    cache: true,
    onNotice: options.onNotice,
    kept: keep?.md5
      ? { md5: keep.md5, inLine: keep.inLine, discard: () => emptyFolder(scratch) }
      : undefined,
    onSaved: (md5: string, inLine: boolean) => (saved = { md5, inLine }),
  };
  const storeDeps = {
    ...deps,
    sleep: sleepUnlessAborted,
    random: Math.random,
    now: Date.now,
  };
  try {
    const report = await withStoreState(state, storeDeps, async (restored) => {
      // The content came back from a checked state: its files are the ones the pull record describes.
      if (restored.distrust === null) await restampRecord(content);
      const pulled = await pullInto(options, content, only);
      if (!pulled.ok) return stop(pulled);
      onStep({ step: 'pull', report: pulled });
      const published = await publishInRun(
        {
          ...state,
          ...options.deploy,
          contentDir: content,
          settings: options.settings,
          host: options.host ?? undefined,
          allowBaseUrl: options.allowBaseUrl,
        },
        storeDeps,
        tree,
        restored,
      );
      if (published.errors)
        return stop({
          ok: false,
          message: 'The pulled content does not build:',
          errors: published.errors,
          temporary: false,
        });
      return published;
    });
    if (failure) return failure;
    if (!report.ok)
      return {
        ok: false,
        message: report.message,
        errors: [],
        temporary: report.busy === true || report.temporary === true,
      };
    onStep({ step: 'deploy', report });
    return { ok: true };
  } finally {
    // Kept only as the state just written holds it; otherwise the next refresh starts afresh.
    if (keep && saved !== null) Object.assign(keep, { dir: scratch, ...saved });
    else {
      await rm(scratch, { recursive: true, force: true });
      if (keep) Object.assign(keep, keptScratch());
    }
  }
}

async function newScratch(work: string | undefined): Promise<string> {
  if (work !== undefined) await mkdir(work, { recursive: true });
  return mkdtemp(join(work ?? tmpdir(), 'weblate-mirror-'));
}

async function emptyFolder(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir);
}

/** The tree brought in line with the content, as `build` does, holding the tree's lock. */
async function buildTree(
  options: MirrorOptions,
  content: string,
  tree: string,
): Promise<{ ok: true; report: BuildReport } | Extract<MirrorOutcome, { ok: false }>> {
  const refused = (message: string) => ({
    ok: false as const,
    message,
    errors: [],
    temporary: false,
  });
  const output = await checkOutput(tree, { contentDir: content });
  if (!output.ok) return refused(output.message);
  const locked = await lockTree(tree, 'a build');
  if (!locked.ok) return refused(locked.message);
  const report = await buildDirectory({
    contentDir: content,
    outDir: tree,
    settings: options.settings,
    host: options.host,
    onNotice: options.onNotice,
  }).finally(() => locked.lock.release());
  if (report.errors.length > 0)
    return {
      ok: false,
      message: 'The pulled content does not build:',
      errors: report.errors,
      temporary: false,
    };
  return { ok: true, report };
}

function defaultState(target: DeployTarget): StateLocation {
  const parsed = parseStateLocation('default', target);
  if (!parsed.ok) throw new Error(`Internal error: ${parsed.message}`);
  return parsed.value;
}
