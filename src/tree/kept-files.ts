/**
 * Files a user put in a built tree (a `CNAME`, a `robots.txt`): a whole new
 * tree replaces the folder, so these are found first (a walk, the rewrite
 * reads everything anyway) and carried into the new tree unchanged, each
 * named. A file is the build's when the files record lists it; for a tree
 * built before the record was kept, when it lies under a name the build may
 * write at the root.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { mkdir, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { TREE_ROOT_NAMES } from '../hosts/index.ts';
import type { OutputTarget } from '../output/target.ts';
import { readFilesRecord, type GroupFiles } from './files-record.ts';

/** What a user put in the tree: plain files (with their bytes) and links (with where they point). */
interface KeptFiles {
  files: Map<string, Buffer>;
  links: Map<string, string>;
}

/** The files and links in the tree at `outDir` that the build did not write. */
export function findKeptFiles(outDir: string): KeptFiles {
  const record = readFilesRecord(outDir);
  const isBuilds = record
    ? (path: string) => isRecorded(record, path)
    : (path: string) => TREE_ROOT_NAMES.has(path.split('/')[0]!);
  const kept: KeptFiles = { files: new Map(), links: new Map() };
  const folders = [''];
  while (folders.length > 0) {
    const folder = folders.pop()!;
    for (const entry of readdirSync(join(outDir, folder), { withFileTypes: true })) {
      const path = folder ? `${folder}/${entry.name}` : entry.name;
      if (entry.isDirectory()) folders.push(path);
      else if (isBuilds(path)) continue;
      else if (entry.isSymbolicLink()) kept.links.set(path, readlinkSync(join(outDir, path)));
      else if (entry.isFile()) kept.files.set(path, readFileSync(join(outDir, path)));
    }
  }
  return kept;
}

/**
 * A target that writes the kept files into the new tree just before it is
 * committed, except those the new tree writes itself (the build's now).
 */
export function keepingTarget(target: OutputTarget, kept: KeptFiles): OutputTarget {
  return {
    ...target,
    async write(path, data) {
      kept.files.delete(path);
      kept.links.delete(path);
      return target.write(path, data);
    },
    async commit() {
      for (const [path, bytes] of kept.files) await target.write(path, [bytes]);
      await target.commit();
    },
  };
}

/** Puts the kept links back once the new tree is in place (a target writes only files). */
export async function restoreKeptLinks(outDir: string, kept: KeptFiles): Promise<void> {
  for (const [path, to] of kept.links) {
    await mkdir(dirname(join(outDir, path)), { recursive: true });
    await symlink(to, join(outDir, path));
  }
}

/** The one line said of each kept file. */
export function keptNotice(path: string): string {
  return `Kept ${path}: not written by the build, so deploy will not publish it; move it to content/extra/${path}.`;
}

// --- internal ---

/** Whether a group of the record lists the file: a group's files lie in its folder or below. */
function isRecorded(record: ReadonlyMap<string, GroupFiles>, path: string): boolean {
  // An extra file is a group of its own, keyed by its path, holding one file of no further name.
  if (record.get(`/${path}`)?.includes('')) return true;
  for (let end = path.lastIndexOf('/'); ; end = path.lastIndexOf('/', end - 1)) {
    if (record.get(`/${path.slice(0, end + 1)}`)?.includes(path.slice(end + 1))) return true;
    if (end <= 0) return false;
  }
}
