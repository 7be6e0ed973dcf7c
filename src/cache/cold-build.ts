/**
 * A build through the cache beside the tree (cache-file.ts): only the content files the cache
 * cannot vouch for are read, and when only component files changed the cached model is patched and
 * applied as a session's would be (tree/apply-patch.ts). Anything else is left to the full build.
 */
import { readFile } from 'node:fs/promises';
import { runPool } from '../pool.ts';
import { join, relative } from 'node:path';
import type { Catalog } from '../catalog/catalog.ts';
import { checkFile, placeOf } from '../content/files.ts';
import { loadExtraFiles, statContentFiles } from '../content/load.ts';
import { compareStrings, type ContentError } from '../errors.ts';
import { hashBytes, hashText, type FileSignature } from '../content/signatures.ts';
import type { Model } from '../model/types.ts';
import { patchComponents, type ComponentPatch, type PatchScope } from '../resolve/patch.ts';
import { checkTreeFiles } from '../tree/check-files.ts';
import { hasFilesRecord } from '../tree/files-record.ts';
import { manifestStamp, readManifest } from '../tree/manifest.ts';
import { createContext } from '../tree/groups.ts';
import { applyPatch } from '../tree/apply-patch.ts';
import { treeInPlace } from '../tree/sync.ts';
import type { UpdateStats } from '../tree/update.ts';
import type { FingerprintCache } from '../tree/fingerprints.ts';
import {
  appendBuildCache,
  hasBuildCache,
  readBuildCache,
  removeBuildCache,
  setWarnings,
  writeBuildCache,
  type BuildCache,
  type CacheKey,
  type FileChange,
  type TimedSignature,
} from './cache-file.ts';
import { decodeModel, encodeModel } from './model-codec.ts';

interface ColdBuildOptions {
  contentDir: string;
  outDir: string;
  key: CacheKey;
  catalog: Catalog;
  /** Warnings are errors: a changed file with any is left to the full build, which reports them. */
  strict?: boolean | undefined;
  /** Check every file the tree's record lists, not only this build's window of them. */
  verify?: boolean | undefined;
}

interface CachedUpdate {
  translations: number;
  stats: UpdateStats;
  warnings: ContentError[];
}

/** Brings the tree in line with the content through its cache; null when the cache cannot vouch for what it needs. */
export async function updateFromCache(options: ColdBuildOptions): Promise<CachedUpdate | null> {
  const { contentDir, outDir } = options;
  const takenAt = Date.now();
  // The listing's system calls and the cache's read overlap.
  const [cache, listing] = await Promise.all([
    readBuildCache(outDir, options.key),
    statContentFiles(contentDir),
  ]);
  if (!cache || cache.stamp !== (await manifestStamp(outDir))) return null;
  // A tree built before its files were recorded is written whole once, by the full build.
  if (!hasFilesRecord(outDir)) return null;
  const changes = await compareContent(contentDir, listing, cache, takenAt);
  if (!changes) return null;
  const manifest = await readManifest(outDir);
  if (!manifest) return null;
  // Damaged groups are marked unknown, and the full build's update in place writes them again (and says so).
  const check = await checkTreeFiles(outDir, manifest, { all: options.verify });
  if (check.damaged.size > 0) return null;
  const edited = new Map(
    changes
      .filter((c) => c.text !== undefined || !c.signature)
      .map((c) => [c.path, c.text ?? null]),
  );
  const unchanged = { groupsRendered: 0, filesWritten: 0, groupsRemoved: 0 };
  if (edited.size === 0) {
    if (changes.length > 0)
      await appendBuildCache(outDir, changes, cache.stamp, cache.translations);
    return {
      translations: cache.translations,
      stats: unchanged,
      warnings: allWarnings(cache.warnings),
    };
  }
  const last = replayed(cache, options);
  const patched = last && patch(last.model, edited, options);
  if (!last || !patched || (options.strict && patched.warnings.size > 0)) return null;
  const { stats } = await applyPatch(
    outDir,
    treeInPlace(outDir),
    manifest,
    { before: last.model, after: patched.model, scope: patched.scope },
    { fingerprints: last.fingerprints },
  );
  for (const change of changes) {
    if (!edited.has(change.path)) continue;
    change.warnings = patched.warnings.get(change.path) ?? [];
    setWarnings(cache.warnings, join(contentDir, change.path), change.warnings);
  }
  const translations = patched.model.translations.length;
  if (cache.batches < MAX_BATCHES && cache.replay.size + edited.size <= MAX_REPLAYED) {
    await appendBuildCache(outDir, changes, (await manifestStamp(outDir))!, translations);
  } else {
    const signatures = signaturesAfter(cache, changes);
    const warnings = allWarnings(cache.warnings);
    await recordBuild({
      outDir,
      key: options.key,
      model: patched.model,
      signatures,
      warnings,
      takenAt,
      fingerprints: last.fingerprints,
    });
  }
  return { translations, stats, warnings: allWarnings(cache.warnings) };
}

interface Recorded {
  outDir: string;
  key: CacheKey;
  model: Model;
  signatures: ReadonlyMap<string, FileSignature>;
  /** Every warning the build reported. */
  warnings: readonly ContentError[];
  /** When the listing of the content began. */
  takenAt: number;
  /** The fingerprints the tree or the store was rendered with: recorded, not computed again. */
  fingerprints: FingerprintCache;
  /** What the cache is kept in step with, when not the tree's manifest (STORE_STAMP). */
  stamp?: string;
}

/** After a build that read the whole content: the cache written whole (or removed, for a model the format cannot carry). */
export async function recordBuild(recorded: Recorded): Promise<void> {
  const stamp = recorded.stamp ?? (await manifestStamp(recorded.outDir));
  const { fingerprints, aggregates } = createContext(recorded.model, recorded.fingerprints);
  const model = encodeModel(recorded.model, fingerprints, aggregates);
  if (stamp === null || model === null) return removeBuildCache(recorded.outDir);
  const { key, takenAt, signatures } = recorded;
  const warnings = new Map<string, ContentError[]>();
  for (const warning of recorded.warnings)
    warnings.set(warning.file, [...(warnings.get(warning.file) ?? []), warning]);
  await writeBuildCache(recorded.outDir, {
    key,
    stamp,
    takenAt,
    signatures,
    translations: recorded.model.translations.length,
    warnings,
    model,
  });
}

/**
 * The stamp of a cache with no tree beside it (one carried in a store's
 * state): it holds for the model alone, which the deploy record then compares
 * with what the target holds.
 */
export const STORE_STAMP = 'no tree';

/** A model read through a cache carried in a store's state, and what to record of it after. */
interface CachedModel {
  model: Model;
  /** Versions already known of the model's objects. */
  fingerprints: FingerprintCache;
  /** Every warning, with its file in `contentDir`. */
  warnings: ContentError[];
  /** The content files whose text changed, read and checked again. */
  parsed: number;
  cache: BuildCache;
  changes: FileChange[];
  /** The cache's model before the changed files were patched in, and what the patch touched. */
  patch: { before: Model; scope: PatchScope };
}

type ModelOptions = Omit<ColdBuildOptions, 'verify'>;

/**
 * The model of the content through a cache carried away from its tree (in a
 * store's state, to a fresh checkout whose files all have new times): every
 * file is read and its hash compared, and only the component files whose text
 * changed are checked and patched in. The cache's key names no content folder
 * (its warnings name files relative to it). `untrusted` when a cache is there
 * but damaged or written for other settings or code; null when there is none
 * or the content changed in a way only a full open handles.
 */
export async function modelFromCache(
  options: ModelOptions,
): Promise<CachedModel | 'untrusted' | null> {
  const { contentDir, outDir } = options;
  const takenAt = Date.now();
  const [cache, listing] = await Promise.all([
    readBuildCache(outDir, options.key),
    statContentFiles(contentDir),
  ]);
  if (!cache) return hasBuildCache(outDir) ? 'untrusted' : null;
  if (cache.stamp !== STORE_STAMP) return 'untrusted';
  const changes = await compareContent(contentDir, listing, cache, takenAt, { byHash: true });
  const last = changes && replayed(cache, options);
  if (!changes || !last) return null;
  const edited = new Map(changes.map((c) => [c.path, c.text ?? null]));
  const patched =
    edited.size === 0
      ? { ...last, scope: emptyScope(), warnings: new Map<string, ContentError[]>() }
      : patch(last.model, edited, options);
  if (!patched || (options.strict && patched.warnings.size > 0)) return null;
  const extras = await loadExtraFiles(contentDir);
  if (extras.errors.length > 0) return null;
  for (const change of changes) {
    const found = patched.warnings.get(change.path) ?? [];
    const kept = found.map((w) => ({ ...w, file: relative(contentDir, w.file) }));
    change.warnings = kept;
    setWarnings(cache.warnings, change.path, kept);
  }
  const model =
    extras.extras.length > 0 ? { ...patched.model, extras: extras.extras } : patched.model;
  const warnings = allWarnings(cache.warnings).map((w) => ({
    ...w,
    file: join(contentDir, w.file),
  }));
  const { fingerprints } = last;
  const done = { before: last.model, scope: patched.scope };
  return { model, fingerprints, warnings, parsed: edited.size, cache, changes, patch: done };
}

/** After a publish through modelFromCache(): the changes journaled, or the cache written whole once the journal is long. */
export async function recordCachedModel(
  outDir: string,
  key: CacheKey,
  cached: CachedModel,
): Promise<void> {
  const { cache, changes, model } = cached;
  if (changes.length === 0) return;
  const translations = model.translations.length;
  if (cache.batches < MAX_BATCHES && cache.replay.size + changes.length <= MAX_REPLAYED)
    return appendBuildCache(outDir, changes, STORE_STAMP, translations);
  await recordBuild({
    outDir,
    key,
    model,
    signatures: signaturesAfter(cache, changes),
    warnings: allWarnings(cache.warnings),
    takenAt: Date.now(),
    fingerprints: cached.fingerprints,
    stamp: STORE_STAMP,
  });
}

// --- internal ---

/** Batches appended before the cache is written whole again. */
const MAX_BATCHES = 32;
/** Content files read at once when compared with the cache. */
const READS_AT_ONCE = 16;
/** Component files replayed on the cached model before it is written whole again. */
const MAX_REPLAYED = 256;
/**
 * A file modified this close to the listing that took its signature may have
 * changed again within the same tick of the file system's clock: its size and
 * time alone do not vouch for it.
 */
const RACY_MS = 2000;

type ContentListing = Awaited<ReturnType<typeof statContentFiles>>;

/**
 * The content files (as listed) that differ from the cache's signatures (with the text
 * of those whose text changed), and those whose signature alone was renewed;
 * null when a file is not at a content file's place.
 */
async function compareContent(
  contentDir: string,
  listing: ContentListing,
  cache: BuildCache,
  takenAt: number,
  options: { byHash?: boolean } = {},
): Promise<FileChange[] | null> {
  if (listing.refused.length > 0) return null;
  const seen = new Set<string>();
  const toRead: { file: ContentListing['files'][number]; extra: boolean }[] = [];
  for (const file of listing.files) {
    const place = placeOf(file.relativePath);
    if ('ignored' in place) continue;
    if ('error' in place) return null;
    seen.add(file.relativePath);
    const known = cache.signatures.get(file.relativePath);
    const sameStat =
      known !== undefined && known.size === file.size && known.mtimeMs === file.mtimeMs;
    if (sameStat && file.mtimeMs < known.takenAt - RACY_MS && !options.byHash) continue;
    toRead.push({ file, extra: 'extra' in place });
  }
  // Read a few at a time (a fresh checkout reads them all), the changes kept in the listing's order.
  const found: (FileChange | null)[] = [];
  await runPool([...toRead.keys()], READS_AT_ONCE, async (at) => {
    const { file, extra } = toRead[at]!;
    const bytes = await readFile(join(contentDir, file.relativePath));
    found[at] = compareFile(file, bytes, extra, cache.signatures.get(file.relativePath), {
      takenAt,
      byHash: options.byHash === true,
    });
  });
  const changes = found.filter((change) => change != null);
  for (const path of cache.signatures.keys())
    if (!seen.has(path)) changes.push({ path, signature: null });
  return changes;
}

/** A content file read again against its signature in the cache: its change, or null when none is kept. */
function compareFile(
  file: ContentListing['files'][number],
  bytes: Buffer,
  extra: boolean,
  known: TimedSignature | undefined,
  options: { takenAt: number; byHash: boolean },
): FileChange | null {
  const { takenAt, byHash } = options;
  const text = bytes.toString('utf8');
  // An extra file's bytes need not be text; patch() leaves its change to the full build.
  const hash = extra ? hashBytes(bytes) : hashText(text);
  const signature: TimedSignature = { size: file.size, mtimeMs: file.mtimeMs, hash, takenAt };
  if (known?.hash !== signature.hash) return { path: file.relativePath, signature, text };
  // The same text: its new signature is kept when it lets the next build trust the file without
  // reading it (never by hash alone: a fresh checkout's times say nothing).
  const sameStat = known.size === file.size && known.mtimeMs === file.mtimeMs;
  if (!byHash && (!sameStat || file.mtimeMs < takenAt - RACY_MS))
    return { path: file.relativePath, signature };
  return null;
}

/**
 * The model the tree shows, and the versions known of its objects: the
 * cached model, with the component files changed by later builds replayed.
 */
function replayed(
  cache: BuildCache,
  options: ColdBuildOptions,
): { model: Model; fingerprints: FingerprintCache } | null {
  let decoded: { model: Model; fingerprints: FingerprintCache };
  try {
    // Each part is read from the file as it is decoded, and let go once its translations stand.
    decoded = decodeModel(cache.model);
  } catch {
    return null;
  }
  if (cache.replay.size === 0) return decoded;
  const model = patch(decoded.model, cache.replay, options)?.model;
  return model ? { model, fingerprints: decoded.fingerprints } : null;
}

/**
 * The model patched for new texts of component files (null: removed); null
 * when one is not a component file, fails its checks, or the patch asks for
 * a full check.
 */
function patch(
  model: Model,
  texts: ReadonlyMap<string, string | null>,
  options: ColdBuildOptions,
): { model: Model; scope: PatchScope; warnings: Map<string, ContentError[]> } | null {
  const patches: ComponentPatch[] = [];
  const warnings = new Map<string, ContentError[]>();
  for (const [path, text] of texts) {
    const place = placeOf(path);
    if (!('place' in place) || place.place.kind !== 'component') return null;
    const { project, component } = place.place;
    const checked =
      text === null ? null : checkFile(join(options.contentDir, path), place.place, text);
    if (checked && !checked.ok) return null;
    if (checked?.warnings?.length) warnings.set(path, checked.warnings);
    patches.push({ project, component, checked: checked ? checked.checked : null });
  }
  const result = patchComponents(model, patches, options.catalog, () => '');
  return result.ok === true ? { ...result, warnings } : null;
}

function emptyScope(): PatchScope {
  return { components: [], replaced: [], projects: new Set(), languages: new Set() };
}

/** Every warning, in the order a full build reports them (by file, then as each file gave them). */
function allWarnings(warnings: ReadonlyMap<string, ContentError[]>): ContentError[] {
  return [...warnings].sort(([a], [b]) => compareStrings(a, b)).flatMap(([, found]) => found);
}

function signaturesAfter(
  cache: BuildCache,
  changes: readonly FileChange[],
): Map<string, FileSignature> {
  const signatures = new Map<string, FileSignature>(cache.signatures);
  for (const change of changes) {
    if (change.signature) signatures.set(change.path, change.signature);
    else signatures.delete(change.path);
  }
  return signatures;
}
