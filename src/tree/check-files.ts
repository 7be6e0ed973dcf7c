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
import { readFilesRecord, readFilesWindow, treePathOf, type GroupFiles } from './files-record.ts';
import { UsageError } from '../errors.ts';
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
  const cursor = readCursor(outDir);
  const window = options.all
    ? { groups: [...(readFilesRecord(outDir) ?? [])], next: null }
    : readFilesWindow(outDir, cursor.offset, options.window ?? FILES_A_BUILD, cursor.sets);
  if (!window) return check;
  const seen = new Set<string>();
  for (const [key, names] of window.groups) {
    // A group rendered again has a later line too: its files are checked once.
    if (seen.has(key) || !manifest.groups.has(key)) continue;
    seen.add(key);
    for (const name of names) {
      const path = join(outDir, treePathOf(key, name));
      const found = lstatSync(path, { throwIfNoEntry: false });
      if (found?.isFile()) continue;
      // A folder someone made there is theirs: the build does not delete it to write its file.
      if (found?.isDirectory())
        throw new UsageError(
          `${path} is a folder where the build writes a file: move it away, then build again`,
        );
      check.damaged.add(key);
      check.files++;
    }
  }
  if (check.damaged.size === 0) {
    if (window.next !== null) await writeCursor(outDir, { offset: window.next, sets: cursor.sets });
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
 * Files checked a build: about 40 ms of lstat calls (and a few to read their
 * part of the record), within a cold build's second. A tree of up to this
 * many files is checked whole every build; one of a million, over 100 builds.
 */
const FILES_A_BUILD = 10_000;

function cursorPath(outDir: string): string {
  return join(stateDir(outDir), 'files-checked');
}

/** Where the next window starts in the files record, and the sets of names met so far (their ids are hashes: never stale). */
interface Cursor {
  offset: number;
  sets: Map<string, GroupFiles>;
}

function readCursor(outDir: string): Cursor {
  try {
    const [offset, sets] = readFileSync(cursorPath(outDir), 'utf8').split('\n');
    const value = Number.parseInt(offset!, 10);
    const entries: unknown = JSON.parse(sets!);
    if (Number.isSafeInteger(value) && value >= 0 && isSetList(entries))
      return { offset: value, sets: new Map(entries) };
  } catch {
    // A cursor that cannot be read starts over: it only spreads the checks.
  }
  return { offset: 0, sets: new Map() };
}

async function writeCursor(outDir: string, cursor: Cursor): Promise<void> {
  await writeFile(cursorPath(outDir), `${cursor.offset}\n${JSON.stringify([...cursor.sets])}\n`);
}

function isSetList(value: unknown): value is [string, string[]][] {
  return (
    Array.isArray(value) &&
    value.every(
      (entry) =>
        Array.isArray(entry) &&
        typeof entry[0] === 'string' &&
        Array.isArray(entry[1]) &&
        entry[1].every((name: unknown) => typeof name === 'string'),
    )
  );
}
