/**
 * Whether a built tree still holds the files its record lists: a file
 * deleted or replaced by hand would otherwise never be written again, since
 * the manifest still vouches for its group. Checking is an lstat a file; a
 * small tree is checked whole every build, a large one a window of files at
 * a time, continuing where the last build stopped (a byte offset into the
 * files record, kept in the state folder), so a build stays fast and every
 * file is still seen in turn.
 */
import { lstatSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readFilesRecord, readFilesWindow, treePathOf } from './files-record.ts';
import { appendManifest, type Manifest } from './manifest.ts';
import { stateDir } from './state-folder.ts';

interface CheckOptions {
  /** Check every file at once (`build --verify`). */
  all?: boolean | undefined;
  /** Files checked a build when not all are (tests take a small one). */
  window?: number;
}

interface FilesCheck {
  /** Groups holding a file that is missing or no longer a plain file. */
  damaged: Set<string>;
  /** How many such files. */
  files: number;
}

/**
 * Checks the files of the tree's groups (all, or the next window), and marks
 * the groups with a damaged file unknown in the manifest, on disk and in
 * `manifest`, so the update renders them again. The cursor moves on only past
 * a window found whole: the build that repairs it checks the same files.
 */
export async function checkTreeFiles(
  outDir: string,
  manifest: Manifest,
  options: CheckOptions = {},
): Promise<FilesCheck> {
  const check: FilesCheck = { damaged: new Set(), files: 0 };
  const window = options.all
    ? { groups: [...(readFilesRecord(outDir) ?? [])], next: null }
    : readFilesWindow(outDir, readCursor(outDir), options.window ?? FILES_A_BUILD);
  if (!window) return check;
  const seen = new Set<string>();
  for (const [key, names] of window.groups) {
    // A group rendered again has a later line too: its files are checked once.
    if (seen.has(key) || !manifest.groups.has(key)) continue;
    seen.add(key);
    for (const name of names) {
      const found = lstatSync(join(outDir, treePathOf(key, name)), { throwIfNoEntry: false });
      if (found?.isFile()) continue;
      check.damaged.add(key);
      check.files++;
    }
  }
  if (check.damaged.size === 0) {
    if (window.next !== null) await writeFile(cursorPath(outDir), `${window.next}\n`);
    return check;
  }
  await appendManifest(
    outDir,
    [...check.damaged].map((key): [string, null] => [key, null]),
  );
  for (const key of check.damaged) manifest.groups.set(key, null);
  return check;
}

// --- internal ---

/**
 * Files checked a build: about 40 ms of lstat calls, beside some 30 ms to read
 * a million files' record, within a cold build's second. A tree of up to this
 * many files is checked whole every build; one of a million, over 100 builds.
 */
const FILES_A_BUILD = 10_000;

function cursorPath(outDir: string): string {
  return join(stateDir(outDir), 'files-checked');
}

function readCursor(outDir: string): number {
  try {
    const value = Number.parseInt(readFileSync(cursorPath(outDir), 'utf8'), 10);
    return Number.isSafeInteger(value) && value >= 0 ? value : 0;
  } catch {
    return 0;
  }
}
