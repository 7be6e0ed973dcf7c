/**
 * The orchestrator: content folder → model (resolve/open.ts) → tree
 * (tree/write.ts into a target, or tree/sync.ts into a folder, in place when
 * it can). User mistakes come back in the report; only bugs and I/O failures
 * throw.
 */
import { recordBuild, updateFromCache } from './cache/cold-build.ts';
import type { CacheKey } from './cache/cache-file.ts';
import { loadCatalog, type Catalog } from './catalog/catalog.ts';
import type { FileSignature } from './content/signatures.ts';
import { pinProblems } from './content/problems.ts';
import { internalError, type ContentError } from './errors.ts';
import { collectGarbage, withHeapNearLive } from './heap.ts';
import { hostProblem, type HostOptions } from './hosts/index.ts';
import type { Model } from './model/types.ts';
import { checkOutFolder, type OutFolderCheck } from './output/out-folder.ts';
import type { OutputTarget } from './output/target.ts';
import { readSiteSettings, readText } from './resolve/open.ts';
import type { SettingsOverrides } from './resolve/resolve.ts';
import { openTreeContent } from './tree/extra-groups.ts';
import { isRecordedTree, keepManifestIndex } from './tree/manifest.ts';
import { bringTreeInLine } from './tree/bring-in-line.ts';
import { createFingerprintCache } from './tree/fingerprints.ts';
import { settingsToBuildWith, type SettingsInEffect, type TreeSettings } from './tree/settings.ts';
import type { SyncedTree } from './tree/sync.ts';
import { writeTree } from './tree/write.ts';
import { pngsDrawn } from './status-site/png.ts';

interface BuildOptions {
  contentDir: string;
  /** Settings that win over site.yaml (command-line flags). */
  settings?: SettingsOverrides;
  /** Whose `_redirects` and `_headers` go at the root of the output (all hosts' files are under hosts/). */
  host?: HostOptions['host'];
  /** Called now and then with files written so far and the total. */
  onProgress?: (done: number, total: number) => void;
  /** Warnings are errors. */
  strict?: boolean | undefined;
}

export interface BuildReport {
  errors: ContentError[];
  /** What the content most likely left out by mistake (errors instead with `strict`). */
  warnings: ContentError[];
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
  /** A build into a folder: the settings it took and where each came from (null when site.yaml does not check out). */
  settings?: SettingsInEffect | null;
  /** In place: files found missing or replaced in the tree, and written again. */
  repaired?: number;
  /** A build into a folder: PNG widgets rendered (not taken from the tree's state folder or memory). */
  pngsDrawn?: number;
}

interface BuildDeps {
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
  const written = await writeTree(checked.model, deps.target, {
    onProgress: options.onProgress,
    hosts: { host: options.host },
  });
  return {
    ...written,
    errors: [],
    warnings: checked.warnings,
    translations: checked.model.translations.length,
    durationMs: clock() - started,
    mode: 'fresh',
  };
}

interface DirectoryBuildOptions extends Omit<BuildOptions, 'host'> {
  outDir: string;
  /** Whose `_redirects` and `_headers` go at the root; null: none; left out: the tree's. */
  host?: HostOptions['host'] | null;
  /** Write a whole new tree even when the one in place could be updated. */
  full?: boolean;
  /** Check every file of the tree, not only this build's share (tree/check-files.ts). */
  verify?: boolean | undefined;
  /** Told, before any file is written, when the tree was built with other settings and is rewritten whole. */
  onSettingsChange?: (change: string) => void;
  /** Told of each file a user put in a tree rewritten whole (kept, not published). */
  onNotice?: (message: string) => void;
}

/**
 * Builds into a folder. When the folder holds a tree this tool built with the
 * same settings (its manifest says so), only the groups whose inputs changed
 * are rendered and only files whose bytes changed are replaced, each
 * atomically; when its build cache also holds (cache/), only the content
 * files the cache cannot vouch for are read. Otherwise a whole new tree is
 * written beside it and swapped in.
 */
export async function buildDirectory(
  options: DirectoryBuildOptions,
  deps: Omit<BuildDeps, 'target'> = {},
): Promise<BuildReport> {
  const clock = deps.clock ?? (() => performance.now());
  const started = clock();
  const drawnBefore = pngsDrawn();
  const catalog = deps.catalog ?? loadCatalog();
  // A flag holds for this build only: one left out takes site.yaml's value, not the tree's.
  const { kept, overrides, host, sources } = await settingsToBuildWith(options.outDir, options, {
    keepFlags: false,
  });
  const read = await readSiteSettings(options.contentDir, overrides);
  const settings = read && { ...read, sources };
  const key = cacheKey(options, overrides, host);
  const { contentDir, outDir, strict, verify } = options;
  const cached = options.full
    ? null
    : await updateFromCache({ contentDir, outDir, key, catalog, strict, verify });
  if (cached) {
    const { filesWritten: files, groupsRendered, groupsRemoved } = cached.stats;
    const counts = { files, bytes: 0, groupsRendered, groupsRemoved };
    const { translations, warnings } = cached;
    return {
      errors: [],
      warnings,
      translations,
      durationMs: clock() - started,
      ...counts,
      mode: 'in-place',
      settings,
      pngsDrawn: pngsDrawn() - drawnBefore,
    };
  }
  const written = await writeWholeTree(options, { kept, overrides, host, key, catalog, settings });
  if (!written.ok) return failedReport(written.errors, clock() - started);
  // The model is gone by now: the manifest's index, as large as a third of the model at a
  // million translations, is made without it (the two together passed 1 GiB), once it is
  // collected (the index is made outside the heap, which does not grow meanwhile).
  if (written.report.mode === 'fresh') {
    collectGarbage();
    await withHeapNearLive(() => keepManifestIndex(options.outDir));
  }
  const { report } = written;
  const counts =
    report.mode === 'fresh'
      ? { files: report.files, bytes: report.bytes }
      : { ...report, bytes: 0 };
  return {
    errors: [],
    warnings: written.warnings,
    translations: written.translations,
    durationMs: clock() - started,
    ...counts,
    mode: report.mode,
    settings,
    pngsDrawn: pngsDrawn() - drawnBefore,
  };
}

/**
 * Whether `outDir` may take the tree built from `contentDir` (output/out-folder.ts):
 * a one-line refusal, before any work, or ok.
 */
export function checkOutput(
  outDir: string,
  options: { contentDir?: string; force?: boolean | undefined },
): Promise<OutFolderCheck> {
  return checkOutFolder(outDir, { ...options, isRecordedTree });
}

// --- internal ---

interface WholeTreeInputs {
  kept: TreeSettings | null;
  overrides: SettingsOverrides;
  host: HostOptions['host'];
  key: CacheKey;
  catalog: Catalog;
  settings: SettingsInEffect | null;
}

/**
 * Reads the whole content, brings the tree in line with it and records the build cache. The
 * model lives only in here: what comes back holds none of it.
 */
async function writeWholeTree(
  options: DirectoryBuildOptions,
  inputs: WholeTreeInputs,
): Promise<
  | { ok: true; report: SyncedTree['report']; warnings: ContentError[]; translations: number }
  | { ok: false; errors: ContentError[] }
> {
  const { kept, overrides, host, key, catalog, settings } = inputs;
  const takenAt = Date.now();
  // Reading the content makes several times the model in garbage: collected as it goes, the
  // opening's peak at 200,000 translations went from 357 MiB to 279 MiB, for 6 s more CPU.
  const checked = await withHeapNearLive(() =>
    checkBuild({ ...options, settings: overrides, host }, catalog),
  );
  if (!checked.ok) return checked;
  // The fingerprints the write computes are those the build cache records: computed once.
  const fingerprints = createFingerprintCache();
  const synced = await bringTreeInLine(options.outDir, checked.model, {
    kept,
    overrides,
    siteYaml: settings?.siteYaml ?? null,
    onSettingsChange: options.onSettingsChange,
    full: options.full,
    onProgress: options.onProgress,
    host,
    verify: options.verify,
    onNotice: options.onNotice,
    fingerprints,
    deferIndex: true,
  });
  if (!('report' in synced)) internalError('a build never refuses a change of settings');
  const { model, signatures, warnings } = checked;
  await withHeapNearLive(() =>
    recordBuild({
      outDir: options.outDir,
      key,
      model,
      signatures,
      warnings,
      takenAt,
      fingerprints,
    }),
  );
  return { ok: true, report: synced.report, warnings, translations: model.translations.length };
}

type CheckResult =
  | { ok: true; model: Model; signatures: Map<string, FileSignature>; warnings: ContentError[] }
  | { ok: false; errors: ContentError[] };

/** What a build cache holds for: the content folder as given, and the settings the build takes (flags, or those kept beside the tree). */
function cacheKey(
  options: DirectoryBuildOptions,
  overrides: SettingsOverrides,
  host: HostOptions['host'],
): CacheKey {
  return {
    contentDir: options.contentDir,
    settings: JSON.stringify({
      site: overrides,
      host: host ?? null,
      strict: options.strict ?? false,
    }),
  };
}

/** The content, and whether the chosen host can serve the site as configured. */
async function checkBuild(
  options: BuildOptions,
  catalog: Catalog | undefined,
): Promise<CheckResult> {
  const opened = await openTreeContent(options.contentDir, {
    settings: options.settings,
    catalog,
    strict: options.strict,
  });
  if (!opened.ok) return opened;
  const message = hostProblem(opened.model.settings, { host: options.host });
  if (!message) return opened;
  const site = `${options.contentDir.replace(/\/+$/, '')}/site.yaml`;
  return {
    ok: false,
    errors: pinProblems([{ file: site, path: ['pagination'], message }], readText),
  };
}

function failedReport(errors: ContentError[], durationMs: number): BuildReport {
  return { errors, warnings: [], files: 0, bytes: 0, translations: 0, durationMs, mode: 'fresh' };
}
