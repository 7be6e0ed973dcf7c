/**
 * Writing a tree of file groups to disk: fresh (through an OutputTarget,
 * swapped in whole) or in place, rewriting only the groups whose fingerprint
 * changed and only the files whose bytes changed, each replaced atomically.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { FileGroup } from '../resources/groups.ts';
import { appendManifest, stateDir, type GroupState, type Manifest } from './manifest.ts';
import type { OutputTarget } from './target.ts';

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
      stats.bytes += Buffer.byteLength(file.data);
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
 * Brings the tree at `outDir` in line with `groups`, given the manifest of
 * what it holds. The manifest's journal is appended before and after, and
 * `manifest.groups` is updated in memory.
 */
export async function updateInPlace(outDir: string, groups: Iterable<FileGroup>, manifest: Manifest): Promise<UpdateStats> {
  const scratch = join(stateDir(outDir), 'tmp');
  const seen = new Set<string>();
  const dirty: FileGroup[] = [];
  for (const group of groups) {
    seen.add(group.key);
    if (manifest.groups.get(group.key) !== group.fingerprint) dirty.push(group);
  }
  const removed = [...manifest.groups.keys()].filter((key) => !seen.has(key));
  if (dirty.length === 0 && removed.length === 0) return { groupsRendered: 0, filesWritten: 0, groupsRemoved: 0 };

  await appendManifest(outDir, [...dirty.map((g) => [g.key, null] as [string, null]), ...removed.map((k) => [k, null] as [string, null])]);
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
  await appendManifest(outDir, journal);
  for (const group of dirty) manifest.groups.set(group.key, group.fingerprint);
  for (const key of removed) manifest.groups.delete(key);
  return { groupsRendered: dirty.length, filesWritten, groupsRemoved: removed.length };
}

/**
 * Writes `data` to `file` unless it already holds exactly that: written in
 * `scratch` (a folder on the same file system, so crash leftovers stay out
 * of the tree), then renamed over the file.
 */
export async function replaceIfChanged(file: string, data: string, scratch: string): Promise<boolean> {
  const current = await readFile(file, 'utf8').catch(() => null);
  if (current === data) return false;
  await mkdir(dirname(file), { recursive: true });
  await mkdir(scratch, { recursive: true });
  const temporary = join(scratch, randomBytes(8).toString('hex'));
  try {
    await writeFile(temporary, data);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
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
