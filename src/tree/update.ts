/**
 * Writing a tree of file groups to disk: fresh (through an OutputTarget,
 * swapped in whole) or in place, rewriting only the groups whose fingerprint
 * changed and only the files whose bytes changed, each replaced atomically.
 */
import { readFile, rm, rmdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { FileGroup, PatchedGroups } from './groups.ts';
import { apiPath } from '../api/urls.ts';
import { writeFileAtomic } from '../output/atomic.ts';
import { fileTextBytes, joinFileText, type FileText } from '../output/serialize.ts';
import { appendManifest, stateDir, type GroupState, type Manifest } from './manifest.ts';
import type { OutputTarget } from '../output/target.ts';

export interface WriteStats {
  files: number;
  bytes: number;
}

export interface WriteGroupsHooks {
  /** After each file. */
  onFile?: ((stats: WriteStats) => void) | undefined;
  /** After each group, with the fingerprint its files were rendered from. */
  onGroup?: ((key: string, fingerprint: number) => Promise<void> | void) | undefined;
}

/** Renders every group into the target. */
export async function writeGroups(groups: Iterable<FileGroup>, target: OutputTarget, hooks: WriteGroupsHooks = {}): Promise<WriteStats> {
  const stats: WriteStats = { files: 0, bytes: 0 };
  for (const group of groups) {
    for (const file of group.render()) {
      await target.write(file.path, file.data);
      stats.files++;
      stats.bytes += fileTextBytes(file.data);
      hooks.onFile?.(stats);
    }
    await hooks.onGroup?.(group.key, group.fingerprint);
  }
  return stats;
}

export interface UpdateStats {
  /** Groups whose fingerprint changed (rendered again). */
  groupsRendered: number;
  /** Files whose bytes changed (rewritten). */
  filesWritten: number;
  /** Groups that are gone (their folders removed). */
  groupsRemoved: number;
}

/**
 * Brings the tree at `outDir` in line with `groups` (every group of the
 * model), given the manifest of what it holds: groups whose fingerprint
 * changed are rendered again, groups that are gone are removed. The
 * manifest's journal is appended before and after, and `manifest.groups` is
 * updated in memory.
 */
export async function updateInPlace(outDir: string, groups: Iterable<FileGroup>, manifest: Manifest): Promise<UpdateStats> {
  const seen = new Set<string>();
  const dirty: FileGroup[] = [];
  for (const group of groups) {
    seen.add(group.key);
    if (manifest.groups.get(group.key) !== group.fingerprint) dirty.push(group);
  }
  const removed = [...manifest.groups.keys()].filter((key) => !seen.has(key));
  return applyUpdate(outDir, dirty, removed, manifest);
}

/** The same after a patch: only the groups the patch may have changed are looked at. */
export async function updatePatched(outDir: string, patched: PatchedGroups, manifest: Manifest): Promise<UpdateStats> {
  const dirty = patched.groups.filter((group) => manifest.groups.get(group.key) !== group.fingerprint);
  const removed = new Set(patched.removed.filter((key) => manifest.groups.has(key)));
  for (const list of patched.lists) {
    for (let page = list.pages + 1; manifest.groups.has(apiPath.page(list.path, page)); page++) removed.add(apiPath.page(list.path, page));
  }
  // A component's folder holds the pages of its lists: those groups go with it.
  const folders = [...removed].filter((key) => key.startsWith('/api/components/'));
  if (folders.length > 0) {
    for (const key of manifest.groups.keys()) if (folders.some((folder) => key.startsWith(folder))) removed.add(key);
  }
  return applyUpdate(outDir, dirty, [...removed], manifest);
}

/** Writes the changed files of the dirty groups and removes the folders of the gone ones, journaling both. */
async function applyUpdate(outDir: string, dirty: FileGroup[], removed: string[], manifest: Manifest): Promise<UpdateStats> {
  if (dirty.length === 0 && removed.length === 0) return { groupsRendered: 0, filesWritten: 0, groupsRemoved: 0 };
  const scratch = join(stateDir(outDir), 'tmp');
  let appended = await appendManifest(outDir, [...dirty.map((g) => [g.key, null] as [string, null]), ...removed.map((k) => [k, null] as [string, null])]);
  let filesWritten = 0;
  for (const group of dirty) {
    for (const file of group.render()) {
      if (await replaceIfChanged(join(outDir, file.path), file.data, scratch)) filesWritten++;
    }
  }
  // Lists are rewritten first, so a folder disappears only once nothing new points at it.
  for (const key of removed) await removeGroupFolder(outDir, key);
  const journal: [string, GroupState | 'removed'][] = [
    ...dirty.map((g) => [g.key, g.fingerprint] as [string, number]),
    ...removed.map((key) => [key, 'removed'] as [string, 'removed']),
  ];
  appended += await appendManifest(outDir, journal);
  for (const group of dirty) manifest.groups.set(group.key, group.fingerprint);
  for (const key of removed) manifest.groups.delete(key);
  manifest.journalLines += appended;
  return { groupsRendered: dirty.length, filesWritten, groupsRemoved: removed.length };
}

/**
 * Writes `data` to `file` unless it already holds exactly those bytes
 * (compared by size first, then as bytes): written in `scratch` (a folder on
 * the same file system, so crash leftovers stay out of the tree), then
 * renamed over the file.
 */
export async function replaceIfChanged(file: string, data: FileText, scratch: string): Promise<boolean> {
  const bytes = Buffer.from(joinFileText(data));
  const size = await stat(file).then((info) => info.size, () => -1);
  if (size === bytes.length) {
    const current = await readFile(file).catch(() => null);
    if (current && current.equals(bytes)) return false;
  }
  await writeFileAtomic(file, bytes, { scratch });
  return true;
}

// --- internal ---

/** Removes a group's folder, then its parents while they are empty (up to `api/`). */
async function removeGroupFolder(outDir: string, key: string): Promise<void> {
  const folder = join(outDir, key);
  await rm(folder, { recursive: true, force: true });
  let parent = dirname(folder);
  const stop = join(outDir, 'api');
  while (parent.startsWith(stop) && parent !== stop) {
    try {
      await rmdir(parent);
    } catch {
      return; // not empty, or already gone
    }
    parent = dirname(parent);
  }
}
