/**
 * The orchestrators: content folder → checked files → model → file groups →
 * files, each step a function of its own. User mistakes come back in the
 * report; only bugs and I/O failures throw.
 */
import { readFileSync } from 'node:fs';
import { loadContent } from './content/load.ts';
import { pinProblems, validateContent, type SiteOverrides } from './resolve/resolve.ts';
import type { ContentError } from './errors.ts';
import { hostProblem, TREE_ROOT_NAMES, type HostOptions } from './hosts/index.ts';
import { checkOutFolder, type OutFolderCheck } from './output/out-folder.ts';
import { loadCatalog, type Catalog } from './catalog/catalog.ts';
import type { Model } from './model/types.ts';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  invalidateManifest, isRecordedTree, journalIsLong, ManifestWriter, readManifest, recordTree, stateDir, treeIdentity, writeManifest, type Manifest,
} from './tree/manifest.ts';
import { dirTarget, type OutputTarget } from './output/target.ts';
import { updateInPlace, writeGroups, type WriteGroupsHooks, type WriteStats } from './tree/update.ts';
import { fileGroups, settingsFingerprint } from './tree/groups.ts';
import { countApiFiles } from './api/resources.ts';

export interface BuildOptions {
  contentDir: string;
  /** Settings that win over site.yaml (command-line flags). */
  site?: SiteOverrides;
  /** Whose `_redirects` and `_headers` go at the root of the output (all hosts' files are under hosts/). */
  host?: HostOptions['host'];
  /** Called now and then with files written so far and the total. */
  onProgress?: (done: number, total: number) => void;
}

export interface BuildReport {
  errors: ContentError[];
  /** Files written (in place: files whose bytes changed). */
  files: number;
  bytes: number;
  translations: number;
  durationMs: number;
  /** `fresh`: a whole new tree swapped in; `in-place`: only changed groups rewritten. */
  mode: 'fresh' | 'in-place';
  /** In place: groups rendered again, and groups removed. */
  groupsRendered?: number;
  groupsRemoved?: number;
}

export interface BuildDeps {
  target: OutputTarget;
  catalog?: Catalog;
  /** Milliseconds, for the report's duration only. */
  clock?: () => number;
}

/** Checks the content and, when it is valid, writes the whole tree to the target. */
export async function build(options: BuildOptions, deps: BuildDeps): Promise<BuildReport> {
  const clock = deps.clock ?? (() => performance.now());
  const started = clock();
  const checked = await checkBuild(options, deps.catalog);
  if (!checked.ok) {
    await deps.target.abort();
    return failedReport(checked.errors, clock() - started);
  }
  const written = await writeTree(checked.model, deps.target, { onProgress: options.onProgress, hosts: { host: options.host } });
  return { ...written, errors: [], translations: checked.model.translations.length, durationMs: clock() - started, mode: 'fresh' };
}

export interface DirectoryBuildOptions extends BuildOptions {
  outDir: string;
  /** Write a whole new tree even when the one in place could be updated. */
  full?: boolean;
}

/**
 * Builds into a folder. When the folder holds a tree this tool built with the
 * same settings (its manifest says so), only the groups whose inputs changed
 * are rendered and only files whose bytes changed are replaced, each
 * atomically. Otherwise a whole new tree is written beside it and swapped in.
 */
export async function buildDirectory(options: DirectoryBuildOptions, deps: Omit<BuildDeps, 'target'> = {}): Promise<BuildReport> {
  const clock = deps.clock ?? (() => performance.now());
  const started = clock();
  const checked = await checkBuild(options, deps.catalog);
  if (!checked.ok) return failedReport(checked.errors, clock() - started);
  const model = checked.model;
  const synced = await syncTree(options.outDir, model, { full: options.full, onProgress: options.onProgress, host: options.host });
  return { errors: [], translations: model.translations.length, durationMs: clock() - started, ...synced.report };
}

export interface SyncedTree {
  manifest: Manifest;
  report: Pick<BuildReport, 'files' | 'bytes' | 'mode' | 'groupsRendered' | 'groupsRemoved'>;
}

/**
 * Brings the tree at `outDir` in line with the model: in place when its
 * manifest describes this very folder built with the same settings, else a
 * whole new tree written beside it and swapped in. Either way the manifest
 * on disk describes the tree afterwards.
 */
export async function syncTree(
  outDir: string,
  model: Model,
  options: {
    full?: boolean | undefined;
    onProgress?: ((done: number, total: number) => void) | undefined;
    /** Whose files take the root names; `kept`: whatever the tree was built with. */
    host?: HostOptions['host'] | 'kept';
    /** Keep the manifest of a whole new tree in memory too (for further updates in place). */
    keepManifest?: boolean;
  } = {},
): Promise<SyncedTree> {
  await rm(join(stateDir(outDir), 'tmp'), { recursive: true, force: true });
  const recorded = await readManifest(outDir);
  const hosts: HostOptions = { host: options.host === 'kept' ? recorded?.host : options.host };
  const manifest = options.full ? null : recorded;
  const settings = settingsFingerprint(model, hosts).toString(36);
  const tree = await treeIdentity(outDir);
  if (manifest && tree !== null && manifest.tree === `${tree}:${settings}`) {
    const stats = await updateInPlace(outDir, fileGroups(model, hosts), manifest);
    if (journalIsLong(manifest)) await writeManifest(outDir, manifest);
    return {
      manifest,
      report: { files: stats.filesWritten, bytes: 0, mode: 'in-place', groupsRendered: stats.groupsRendered, groupsRemoved: stats.groupsRemoved },
    };
  }
  await invalidateManifest(outDir);
  const writer = new ManifestWriter(outDir);
  const groups = new Map<string, number>();
  const onGroup = async (key: string, fingerprint: number) => {
    await writer.add(key, fingerprint);
    if (options.keepManifest) groups.set(key, fingerprint);
  };
  let written: { files: number; bytes: number };
  try {
    written = await writeTree(model, dirTarget(outDir), { onProgress: options.onProgress, hosts, onGroup });
    await writer.close();
  } catch (error) {
    await writer.abort();
    throw error;
  }
  const fresh: Manifest = { tree: `${await treeIdentity(outDir)}:${settings}`, host: hosts.host, groups, journalLines: groups.size };
  await recordTree(outDir, fresh.tree, fresh.host);
  return { manifest: fresh, report: { files: written.files, bytes: written.bytes, mode: 'fresh' } };
}

/**
 * Whether `outDir` may take the tree built from `contentDir` (output/out-folder.ts):
 * a one-line refusal, before any work, or ok.
 */
export function checkOutput(outDir: string, options: { contentDir?: string; force?: boolean | undefined }): Promise<OutFolderCheck> {
  return checkOutFolder(outDir, { ...options, treeNames: TREE_ROOT_NAMES, isRecordedTree });
}

export type CheckResult = { ok: true; model: Model } | { ok: false; errors: ContentError[] };

/** Loads and validates a content folder: the model, or every error in it. */
export async function checkContent(options: Pick<BuildOptions, 'contentDir' | 'site'>, catalog = loadCatalog()): Promise<CheckResult> {
  const loaded = await loadContent(options.contentDir);
  const validated = validateContent(loaded.content, options.site ?? {}, catalog, readText, options.contentDir);
  const errors = [...loaded.errors, ...(validated.ok ? [] : validated.errors)];
  if (errors.length > 0 || !validated.ok) return { ok: false, errors };
  return validated;
}

export interface WriteTreeOptions {
  onProgress?: ((done: number, total: number) => void) | undefined;
  hosts?: HostOptions;
  onGroup?: WriteGroupsHooks['onGroup'];
}

/** Writes every file of the model's tree to the target, then commits it. */
export async function writeTree(model: Model, target: OutputTarget, options: WriteTreeOptions = {}): Promise<WriteStats> {
  const total = countApiFiles(model);
  const { onProgress } = options;
  try {
    const written = await writeGroups(fileGroups(model, options.hosts), target, {
      onFile: (stats) => {
        if (onProgress && stats.files % 1000 === 0) onProgress(stats.files, total);
      },
      onGroup: options.onGroup,
    });
    await target.commit();
    onProgress?.(written.files, written.files);
    return written;
  } catch (error) {
    await target.abort().catch(() => undefined);
    throw error;
  }
}

// --- internal ---

/** The content check, and whether the chosen host can serve the site as configured. */
async function checkBuild(options: BuildOptions, catalog: Catalog | undefined): Promise<CheckResult> {
  const checked = await checkContent(options, catalog);
  if (!checked.ok) return checked;
  const message = hostProblem(checked.model.site, { host: options.host });
  if (!message) return checked;
  const site = `${options.contentDir.replace(/\/+$/, '')}/site.yaml`;
  return { ok: false, errors: pinProblems([{ file: site, path: ['pagination'], message }], readText) };
}

function failedReport(errors: ContentError[], durationMs: number): BuildReport {
  return { errors, files: 0, bytes: 0, translations: 0, durationMs, mode: 'fresh' };
}

function readText(file: string): string {
  return readFileSync(file, 'utf8');
}
