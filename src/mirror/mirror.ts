/**
 * One refresh of a mirror: an incremental pull into the working folder's
 * content, a build of its tree, and a deploy of that tree to a bucket (or a
 * build straight into the folder a web server serves). Each step's report
 * comes back; a failure stops the refresh and says whether a later one
 * resumes it (`temporary`) or the content or settings are at fault.
 */
import { join } from 'node:path';
import { buildDirectory, checkOutput, type BuildReport } from '../build.ts';
import { deploy, type DeployReport } from '../deploy/deploy.ts';
import type { ObjectStore } from '../deploy/store.ts';
import type { DeployTarget } from '../deploy/target.ts';
import type { ContentError } from '../errors.ts';
import type { HostOptions } from '../hosts/index.ts';
import { defaultPullDeps, pull, type PullOptions, type PullReport } from '../pull/pull.ts';
import type { ChangedPlace } from '../pull/refresh.ts';
import type { SettingsOverrides } from '../resolve/resolve.ts';
import { lockTree } from '../tree/lock.ts';

/** Where a mirror publishes: a bucket and prefix, or a folder a web server serves. */
export type MirrorTarget = { kind: 's3'; target: DeployTarget } | { kind: 'folder'; dir: string };

export interface MirrorOptions {
  from: string;
  token?: string | undefined;
  projects: readonly string[];
  /** Pull everything on a refresh no delivery asked for (pull --full). */
  full?: boolean;
  /** The working folder: the pulled content and, for a bucket, the tree and its records. */
  work: string;
  target: MirrorTarget;
  settings?: SettingsOverrides;
  host?: HostOptions['host'] | null | undefined;
  http?: PullOptions['http'];
  deploy: { cacheControl: string | null; concurrency: number; retries: number };
  allowBaseUrl?: boolean;
  onNotice?: (text: string) => void;
}

export interface MirrorDeps {
  /** The bucket's store, made only when a deploy sends something. */
  store: () => ObjectStore;
}

export type MirrorStepReport =
  | { step: 'pull'; report: Extract<PullReport, { ok: true }> }
  | { step: 'build'; report: BuildReport; tree: string }
  | { step: 'deploy'; report: Extract<DeployReport, { ok: true }>; tree: string };

export type MirrorOutcome =
  { ok: true } | { ok: false; message: string; errors: ContentError[]; temporary: boolean };

/**
 * Where a mirror keeps what the next refresh needs: the content it pulled, and
 * the tree it builds (beside it, `<tree>.state/`: manifest, build cache, deploy
 * records). The one place that decides it.
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
  const { content, tree } = mirrorPlaces(options.work, options.target);
  const pulled = await pull(
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
  if (!pulled.ok) return pulled;
  onStep({ step: 'pull', report: pulled });
  const built = await buildTree(options, content, tree);
  if (!built.ok) return built;
  onStep({ step: 'build', report: built.report, tree });
  if (options.target.kind === 'folder') return { ok: true };
  const deployed = await deploy(
    {
      outDir: tree,
      target: options.target.target,
      ...options.deploy,
      allowBaseUrl: options.allowBaseUrl,
      onNotice: options.onNotice,
    },
    {
      store: deps.store,
      sleep: (ms) => new Promise((done) => setTimeout(done, ms)),
      random: Math.random,
    },
  );
  if (!deployed.ok)
    return {
      ok: false,
      message: deployed.message,
      errors: [],
      temporary: deployed.temporary === true,
    };
  onStep({ step: 'deploy', report: deployed, tree });
  return { ok: true };
}

// --- internal ---

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
