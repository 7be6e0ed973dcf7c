/**
 * Updating a built tree in place: only the groups whose fingerprint changed
 * are rendered again, only the files whose bytes changed are replaced (each
 * atomically, through the target), and the folders of groups that are gone
 * are removed. The manifest's journal is appended before a group is touched
 * (unknown) and after (its new fingerprint), so a crash never leaves it
 * vouching for files it did not see written.
 */
import { apiPath, folderOfPath } from '../api/urls.ts';
import type { OutputTarget } from '../output/target.ts';
import { isFileKey } from './extra-groups.ts';
import { namesInGroup, type GroupFiles } from './files-record.ts';
import type { FileGroup } from './groups.ts';
import type { GroupState, Journal, Manifest } from './manifest.ts';
import type { PatchedGroups } from './patched.ts';
import type { PngStore } from '../status-site/png.ts';

/** Where an update in place goes: the files through the target, the journal lines to the manifest, the rendered groups' file names to the files record. */
export interface TreeInPlace {
  target: OutputTarget;
  journal: Journal;
  recordFiles: (groups: Iterable<[key: string, names: GroupFiles]>) => Promise<void>;
  /** Where the PNG widgets' renderings are kept between processes. */
  pngs?: PngStore;
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
 * Brings the tree in line with `groups` (every group of the model), given the
 * manifest of what it holds. `manifest` is updated in memory too.
 */
export async function updateInPlace(
  tree: TreeInPlace,
  groups: Iterable<FileGroup>,
  manifest: Manifest,
): Promise<UpdateStats> {
  const seen = new Set<string>();
  const dirty: FileGroup[] = [];
  for (const group of groups) {
    seen.add(group.key);
    if (manifest.groups.get(group.key) !== group.fingerprint) dirty.push(group);
  }
  const removed = [...manifest.groups.keys()].filter((key) => !seen.has(key));
  return applyUpdate(tree, dirty, withoutLiveFolders(removed, seen), manifest);
}

/** The same after a patch: only the groups the patch may have changed are looked at. */
export async function updatePatched(
  tree: TreeInPlace,
  patched: PatchedGroups,
  manifest: Manifest,
): Promise<UpdateStats> {
  const dirty = patched.groups.filter(
    (group) => manifest.groups.get(group.key) !== group.fingerprint,
  );
  const removed = new Set(patched.removed.filter((key) => manifest.groups.has(key)));
  for (const list of patched.lists) {
    for (let page = list.pages + 1; manifest.groups.has(apiPath.page(list.path, page)); page++)
      removed.add(apiPath.page(list.path, page));
  }
  const live = new Set(patched.groups.map((group) => group.key));
  return applyUpdate(
    tree,
    dirty,
    withoutLiveFolders(
      [...withNestedGroups(removed, manifest)].filter((key) => !live.has(key)),
      live,
    ),
    manifest,
  );
}

// --- internal ---

/** Writes the changed files of the dirty groups and removes the folders of the gone ones, journaling both. */
async function applyUpdate(
  tree: TreeInPlace,
  dirty: FileGroup[],
  removed: string[],
  manifest: Manifest,
): Promise<UpdateStats> {
  if (dirty.length === 0 && removed.length === 0)
    return { groupsRendered: 0, filesWritten: 0, groupsRemoved: 0 };
  const unknown = [...dirty.map((group) => group.key), ...removed].map(
    (key): [string, GroupState] => [key, null],
  );
  let appended = await tree.journal(unknown);
  let filesWritten = 0;
  const rendered: [string, GroupFiles][] = [];
  for (const group of dirty) group.prepare?.();
  for (const group of dirty) {
    const paths: string[] = [];
    for (const file of group.render()) {
      if (await tree.target.replace(file.path, file.data)) filesWritten++;
      paths.push(file.path);
    }
    rendered.push([group.key, namesInGroup(group.key, paths)]);
  }
  // Recorded before the manifest vouches for the groups, so it never vouches for files the record lacks.
  await tree.recordFiles(rendered);
  // Lists are rewritten first, so a folder disappears only once nothing new points at it.
  for (const key of removed)
    if (isFileKey(key)) await tree.target.removeFile(key.slice(1));
    else await tree.target.removeFolder(folderOfPath(key));
  appended += await tree.journal([
    ...dirty.map((group): [string, GroupState] => [group.key, group.fingerprint]),
    ...removed.map((key): [string, 'removed'] => [key, 'removed']),
  ]);
  for (const group of dirty) manifest.groups.set(group.key, group.fingerprint);
  for (const key of removed) manifest.groups.delete(key);
  manifest.journalLines += appended;
  return { groupsRendered: dirty.length, filesWritten, groupsRemoved: removed.length };
}

/**
 * The removed keys whose folders hold no live group. A folder can change
 * hands (a category of the status site becomes a component of the same
 * slug, at the same web path): the new group rewrites it, and the old
 * group's folder must not be removed over it.
 */
function withoutLiveFolders(removed: readonly string[], live: ReadonlySet<string>): string[] {
  if (removed.length === 0) return [];
  const holding = new Set<string>();
  const gone = new Set(removed);
  for (const key of live) {
    for (
      let end = key.lastIndexOf('/', key.length - 2);
      end > 0;
      end = key.lastIndexOf('/', end - 1)
    ) {
      const folder = key.slice(0, end + 1);
      if (gone.has(folder)) holding.add(folder);
    }
  }
  return removed.filter((key) => !holding.has(key));
}

/** A group's folder holds the folders of the groups below it (a component's, the pages of its lists): they go with it. */
function withNestedGroups(gone: ReadonlySet<string>, manifest: Manifest): Set<string> {
  const all = new Set(gone);
  // An extra file's key is a path, not a folder: `/a` must not take `/api/` with it.
  const removed = new Set([...gone].filter((key) => !isFileKey(key)));
  if (removed.size === 0) return all;
  // A few removed folders (a sidecar write): compare each key with them, with no string made per key.
  if (removed.size <= 32) {
    const folders = [...removed];
    for (const key of manifest.groups.keys()) {
      for (const folder of folders) {
        if (key.length > folder.length && key.startsWith(folder)) {
          all.add(key);
          break;
        }
      }
    }
    return all;
  }
  for (const key of manifest.groups.keys()) {
    for (
      let end = key.lastIndexOf('/', key.length - 2);
      end > 0;
      end = key.lastIndexOf('/', end - 1)
    ) {
      if (removed.has(key.slice(0, end + 1))) {
        all.add(key);
        break;
      }
    }
  }
  return all;
}
