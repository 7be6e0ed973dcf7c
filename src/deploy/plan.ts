/**
 * What a deploy does, decided before the first request: the files to upload
 * and the keys to delete, group by group. A group whose fingerprint is the
 * one recorded at the target is left alone; of a changed group, only files
 * whose MD5 differs from the recorded one go up; files and groups that left
 * the tree are deleted. A group's files are those the build recorded it wrote
 * (tree/files-record.ts), never merely those found in its folder: a file
 * nobody declared there, or a symbolic link, is skipped and named, and a
 * recorded file that is gone (or is no longer a plain file) stops the deploy.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { internalError } from '../errors.ts';
import { NOT_FOUND_FILE } from '../hosts/common.ts';
import { contentTypeOf, isPublished } from '../hosts/published.ts';
import { isFileKey } from '../tree/extra-groups.ts';
import { treePathOf, type GroupFiles } from '../tree/files-record.ts';
import type { DeployedGroup, DeployRecord } from './record.ts';

export interface Upload {
  /** Relative to the tree's root, with `/`. */
  path: string;
  group: string;
  /** The name the group's record gives it (the path relative to the group's folder). */
  name: string;
  contentType: string;
}

export interface GroupPlan {
  key: string;
  fingerprint: number;
  /** The group's files as they will be at the target, with their MD5 where known already (null: known once uploaded). */
  files: Map<string, string | null>;
  uploads: Upload[];
  /** Paths (relative to the tree's root) of the group's files that left the tree. */
  deletes: string[];
}

export interface DeployPlan {
  /** Groups with something to do, or a fingerprint to record. */
  changed: GroupPlan[];
  /** Groups gone from the tree: their recorded files are deleted. */
  removed: { key: string; deletes: string[] }[];
  unchanged: number;
  /** Files the build recorded that are not plain files in the tree now (gone, or replaced by a link or a folder), and the groups they belong to. */
  missing: { path: string; group: string; found: string }[];
  /** Files found in the folders of changed groups that the build did not write: never published. */
  skipped: { path: string; found: string }[];
}

/** What the build wrote: the manifest's groups with their fingerprints, and each group's files. */
export interface TreeFiles {
  /** The groups to look at: every group of the manifest, or those changed since the last deploy. */
  groups: ReadonlyMap<string, number>;
  files: ReadonlyMap<string, GroupFiles>;
  /** Whether the manifest holds a group (`groups` may hold only some). */
  isGroup: (key: string) => boolean;
  /** Whether `groups` holds only the groups changed since the last deploy. */
  partial?: boolean;
}

/**
 * Compares the manifest's groups with the record. `forced` (no record, or
 * one made with other upload settings) uploads every file of every group.
 */
export function planDeploy(
  outDir: string,
  tree: TreeFiles,
  record: DeployRecord,
  forced: boolean,
): DeployPlan {
  const plan = emptyPlan();
  for (const [key, fingerprint] of tree.groups) {
    const recorded = record.groups.get(key);
    if (!forced && recorded?.fingerprint === fingerprint) {
      plan.unchanged++;
      continue;
    }
    const names = publishedNames(key, tree.files);
    plan.skipped.push(...undeclaredFiles(outDir, key, names, tree));
    plan.changed.push(planGroup(outDir, key, fingerprint, names, recorded, forced, plan));
  }
  for (const [key, recorded] of record.groups) {
    if (!tree.groups.has(key))
      plan.removed.push({
        key,
        deletes: [...recorded.files.keys()].map((name) => treePathOf(key, name)),
      });
  }
  return plan;
}

/**
 * For --verify: every group of the tree, its files found on disk and each
 * compared with what the bucket holds (`listed`: key → MD5 in hex); the
 * recorded files that left the tree are deleted as usual.
 */
export function planVerify(
  outDir: string,
  tree: TreeFiles,
  record: DeployRecord,
  listed: ReadonlyMap<string, string>,
  keyOf: (path: string) => string,
): DeployPlan {
  const plan = emptyPlan();
  const { groups } = tree;
  for (const [key, fingerprint] of groups) {
    const group: GroupPlan = { key, fingerprint, files: new Map(), uploads: [], deletes: [] };
    const names = publishedNames(key, tree.files);
    plan.skipped.push(...undeclaredFiles(outDir, key, names, tree));
    for (const name of names) {
      const path = treePathOf(key, name);
      const md5 = md5Of(outDir, path, key, plan);
      if (md5 === null) continue;
      group.files.set(name, md5);
      const there = listed.get(keyOf(path));
      if (there === undefined || Buffer.from(there, 'hex').toString('base64') !== md5) {
        group.files.set(name, null);
        group.uploads.push(upload(outDir, path, key, name));
      }
    }
    const recorded = record.groups.get(key);
    for (const name of recorded?.files.keys() ?? [])
      if (!group.files.has(name)) group.deletes.push(treePathOf(key, name));
    plan.changed.push(group);
  }
  for (const [key, recorded] of record.groups) {
    if (!groups.has(key))
      plan.removed.push({
        key,
        deletes: [...recorded.files.keys()].map((name) => treePathOf(key, name)),
      });
  }
  return plan;
}

/**
 * The bytes of a file of the tree, read without following a symbolic link
 * in its place; null when it is not a plain file (or is gone).
 */
export function readTreeFile(outDir: string, path: string): Buffer | null {
  let fd: number;
  try {
    fd = openSync(join(outDir, path), constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    if (['ENOENT', 'ELOOP', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? ''))
      return null;
    throw error;
  }
  try {
    return fstatSync(fd).isFile() ? readFileSync(fd) : null;
  } finally {
    closeSync(fd);
  }
}

export function md5OfBytes(data: Buffer): string {
  return createHash('md5').update(data).digest('base64');
}

/** The recorded state of a group once its uploads are done. */
export function deployedGroup(group: GroupPlan): DeployedGroup {
  const files = new Map<string, string>();
  for (const [name, md5] of group.files) {
    if (md5 === null)
      internalError(`the MD5 of ${treePathOf(group.key, name)} is not known after its upload`);
    files.set(name, md5);
  }
  return { fingerprint: group.fingerprint, files };
}

// --- internal ---

function emptyPlan(): DeployPlan {
  return { changed: [], removed: [], unchanged: 0, missing: [], skipped: [] };
}

/** The MD5 (base64) of a recorded file; null, and the file noted missing, when it is not a plain file. */
function md5Of(outDir: string, path: string, group: string, plan: DeployPlan): string | null {
  const data = readTreeFile(outDir, path);
  if (data === null) plan.missing.push({ path, group, found: describeEntry(join(outDir, path)) });
  return data && md5OfBytes(data);
}

/** The recorded files of a group that readers are served. */
function publishedNames(key: string, files: ReadonlyMap<string, GroupFiles>): readonly string[] {
  const names = files.get(key);
  if (!names)
    internalError(`the files record has no line for group ${key}, which the manifest holds`);
  return names.filter((name) => isPublished(treePathOf(key, name)));
}

/** A changed group: its files whose MD5 differs from the recorded one go up (all of them when `forced`), those gone are deleted. */
function planGroup(
  outDir: string,
  key: string,
  fingerprint: number,
  names: readonly string[],
  recorded: DeployedGroup | undefined,
  forced: boolean,
  plan: DeployPlan,
): GroupPlan {
  const group: GroupPlan = { key, fingerprint, files: new Map(), uploads: [], deletes: [] };
  for (const name of names) {
    const path = treePathOf(key, name);
    const before = forced ? undefined : recorded?.files.get(name);
    if (before === undefined) {
      const found = describeEntry(join(outDir, path));
      if (found !== 'a file') {
        plan.missing.push({ path, group: key, found });
        continue;
      }
      group.files.set(name, null);
      group.uploads.push(upload(outDir, path, key, name));
      continue;
    }
    const md5 = md5Of(outDir, path, key, plan);
    if (md5 === null) continue;
    // A file to upload has no MD5 at the target until its upload succeeds.
    group.files.set(name, md5 === before ? md5 : null);
    if (md5 !== before) group.uploads.push(upload(outDir, path, key, name));
  }
  for (const name of recorded?.files.keys() ?? [])
    if (!group.files.has(name)) group.deletes.push(treePathOf(key, name));
  return group;
}

function upload(outDir: string, path: string, group: string, name: string): Upload {
  // Only the root's 404 page is typed by what it holds (the status site's page or a JSON body).
  const data = path === NOT_FOUND_FILE ? (readTreeFile(outDir, path) ?? undefined) : undefined;
  return { path, group, name, contentType: contentTypeOf(path, data) };
}

/**
 * What a group's folder holds beside the files the build recorded (the
 * folders of other groups left out): a file a user put there, or a link.
 */
function undeclaredFiles(
  outDir: string,
  key: string,
  names: readonly string[],
  { isGroup, partial }: TreeFiles,
): { path: string; found: string }[] {
  // An extra file's group owns that file, not a folder.
  if (isFileKey(key)) return [];
  const declared = new Set(names);
  // Looking at what changed only, the folders that hold none of the group's files are left out:
  // the root's hold the whole status site. Every deploy that reads all groups looks in all.
  const holding = partial ? foldersOf(names) : null;
  const found: { path: string; found: string }[] = [];
  const visit = (relative: string) => {
    let entries;
    try {
      entries = readdirSync(join(outDir, key, relative), { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const name = `${relative}${entry.name}`;
      const path = treePathOf(key, name);
      if (entry.isDirectory()) {
        if (!isGroup(`${key}${name}/`) && (holding?.has(`${name}/`) ?? true)) visit(`${name}/`);
      } else if (!declared.has(name) && !isGroup(`/${path}`) && isPublished(path)) {
        found.push({ path, found: entry.isSymbolicLink() ? 'a symbolic link' : 'a file' });
      }
    }
  };
  visit('');
  return found;
}

/** The folders (relative to the group's, with a `/` after) that hold a file of `names`. */
function foldersOf(names: readonly string[]): Set<string> {
  const folders = new Set<string>();
  for (const name of names)
    for (let at = name.indexOf('/'); at >= 0; at = name.indexOf('/', at + 1))
      folders.add(name.slice(0, at + 1));
  return folders;
}

/** What is at a path, without following a link there. */
function describeEntry(file: string): string {
  const info = lstatSync(file, { throwIfNoEntry: false });
  if (!info) return 'nothing';
  if (info.isFile()) return 'a file';
  if (info.isSymbolicLink()) return 'a symbolic link';
  return info.isDirectory() ? 'a folder' : 'neither a file nor a folder';
}
