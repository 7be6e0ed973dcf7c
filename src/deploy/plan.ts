/**
 * What a deploy does, decided before the first request: the files to upload
 * and the keys to delete, group by group. A group whose fingerprint is the
 * one recorded at the target is left alone; of a changed group, only files
 * whose MD5 differs from the recorded one go up; files and groups that left
 * the tree are deleted. A group's files are those its record names (a group
 * always holds the same files), or those found in its folder (a new group,
 * and the host group `/`, whose files follow the build's --host).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { internalError } from '../errors.ts';
import { contentTypeOf, isPublished } from '../hosts/published.ts';
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
}

/**
 * Compares the manifest's groups with the record. `forced` (no record, or
 * one made with other upload settings) uploads every file of every group.
 */
export function planDeploy(
  outDir: string,
  groups: ReadonlyMap<string, number>,
  record: DeployRecord,
  forced: boolean,
): DeployPlan {
  const plan: DeployPlan = { changed: [], removed: [], unchanged: 0 };
  for (const [key, fingerprint] of groups) {
    const recorded = record.groups.get(key);
    if (!forced && recorded?.fingerprint === fingerprint) {
      plan.unchanged++;
      continue;
    }
    const names =
      recorded && key !== '/' ? [...recorded.files.keys()] : filesOfGroup(outDir, key, groups);
    plan.changed.push(planGroup(outDir, key, fingerprint, names, recorded, forced));
  }
  for (const [key, recorded] of record.groups) {
    if (!groups.has(key))
      plan.removed.push({
        key,
        deletes: [...recorded.files.keys()].map((name) => pathOf(key, name)),
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
  groups: ReadonlyMap<string, number>,
  record: DeployRecord,
  listed: ReadonlyMap<string, string>,
  keyOf: (path: string) => string,
): DeployPlan {
  const plan: DeployPlan = { changed: [], removed: [], unchanged: 0 };
  for (const [key, fingerprint] of groups) {
    const group: GroupPlan = { key, fingerprint, files: new Map(), uploads: [], deletes: [] };
    for (const name of filesOfGroup(outDir, key, groups)) {
      const path = pathOf(key, name);
      const md5 = md5Of(join(outDir, path));
      if (md5 === null) continue;
      group.files.set(name, md5);
      const there = listed.get(keyOf(path));
      if (there === undefined || Buffer.from(there, 'hex').toString('base64') !== md5) {
        group.files.set(name, null);
        group.uploads.push(upload(path, key, name));
      }
    }
    const recorded = record.groups.get(key);
    for (const name of recorded?.files.keys() ?? [])
      if (!group.files.has(name)) group.deletes.push(pathOf(key, name));
    plan.changed.push(group);
  }
  for (const [key, recorded] of record.groups) {
    if (!groups.has(key))
      plan.removed.push({
        key,
        deletes: [...recorded.files.keys()].map((name) => pathOf(key, name)),
      });
  }
  return plan;
}

/** The MD5 of a file, base64; null when it is gone. */
function md5Of(file: string): string | null {
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  return md5OfBytes(data);
}

export function md5OfBytes(data: Buffer): string {
  return createHash('md5').update(data).digest('base64');
}

/** The path of a group's file relative to the tree's root. */
export function pathOf(key: string, name: string): string {
  return `${key.slice(1)}${name}`;
}

/** The recorded state of a group once its uploads are done. */
export function deployedGroup(group: GroupPlan): DeployedGroup {
  const files = new Map<string, string>();
  for (const [name, md5] of group.files) {
    if (md5 === null)
      internalError(`the MD5 of ${pathOf(group.key, name)} is not known after its upload`);
    files.set(name, md5);
  }
  return { fingerprint: group.fingerprint, files };
}

// --- internal ---

/** A changed group: its files whose MD5 differs from the recorded one go up (all of them when `forced`), those gone are deleted. */
function planGroup(
  outDir: string,
  key: string,
  fingerprint: number,
  names: readonly string[],
  recorded: DeployedGroup | undefined,
  forced: boolean,
): GroupPlan {
  const group: GroupPlan = { key, fingerprint, files: new Map(), uploads: [], deletes: [] };
  for (const name of names) {
    const path = pathOf(key, name);
    const before = forced ? undefined : recorded?.files.get(name);
    if (before === undefined) {
      if (!exists(join(outDir, path))) continue;
      group.files.set(name, null);
      group.uploads.push(upload(path, key, name));
      continue;
    }
    const md5 = md5Of(join(outDir, path));
    if (md5 === null) continue;
    // A file to upload has no MD5 at the target until its upload succeeds.
    group.files.set(name, md5 === before ? md5 : null);
    if (md5 !== before) group.uploads.push(upload(path, key, name));
  }
  for (const name of recorded?.files.keys() ?? [])
    if (!group.files.has(name)) group.deletes.push(pathOf(key, name));
  return group;
}

function upload(path: string, group: string, name: string): Upload {
  const contentType = contentTypeOf(path);
  if (contentType === null)
    internalError(
      `no Content-Type is known for ${path} (add its extension to src/hosts/published.ts)`,
    );
  return { path, group, name, contentType };
}

/**
 * The published files of a group, found in its folder: everything below it
 * but the folders of other groups (a component's folder holds its lists' pages).
 */
function filesOfGroup(outDir: string, key: string, groups: ReadonlyMap<string, number>): string[] {
  const names: string[] = [];
  const visit = (relative: string) => {
    const folder = join(outDir, key, relative);
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const name = `${relative}${entry.name}`;
      if (entry.isDirectory()) {
        if (!groups.has(`${key}${name}/`)) visit(`${name}/`);
      } else if (isPublished(pathOf(key, name))) {
        names.push(name);
      }
    }
  };
  visit('');
  return names;
}

function exists(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
