/**
 * Writes pulled content: each file as YAML, atomically (a temporary file
 * renamed into place), and YAML files of an earlier pull that the new one no
 * longer has are removed. A folder that holds anything else is refused, so a
 * pull never overwrites hand-written content.
 */
import { readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, rmdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../output/atomic.ts';
import { runPool } from '../pool.ts';
import { stringify } from 'yaml';
import { listContentFiles } from '../content/walk.ts';
import { compareStrings, internalError } from '../errors.ts';
import { STATE_FILE } from './state.ts';
import type { ContentFiles } from './check.ts';
import { type ContentFile } from './content-file.ts';

/** The first line of a pulled site.yaml; it marks the folder as one a pull may update. */
export function pulledMarker(from: string): string {
  return `Pulled from ${from} by npm run pull; a new pull replaces these files.`;
}

type OutputCheck = { ok: true } | { ok: false; message: string };

/**
 * A pull may write into a missing or empty folder, an interrupted pull, or an
 * earlier pull; never one with a symbolic link inside, which it would write through.
 */
export async function checkOutputFolder(outDir: string): Promise<OutputCheck> {
  const info = await stat(outDir).catch(() => null);
  if (info === null) return { ok: true };
  if (!info.isDirectory()) return { ok: false, message: `${outDir} exists and is not a folder.` };
  const names = await readdir(outDir);
  const site = await readFile(join(outDir, 'site.yaml'), 'utf8').catch(() => '');
  if (names.length > 0 && !names.includes(STATE_FILE) && !site.startsWith('# Pulled from '))
    return {
      ok: false,
      message: `${outDir} is not empty and was not written by a pull; give a new or empty folder with --out.`,
    };
  const link = await findLink(outDir);
  if (link === null) return { ok: true };
  return {
    ok: false,
    message: `${link} is a symbolic link; a pull writes only real files and folders in --out and does not follow links. Remove it, or give another --out.`,
  };
}

/** The YAML text of a content file. */
export function renderContentFile(file: ContentFile): string {
  const comment = file.comment
    ? file.comment
        .split('\n')
        .map((line) => `# ${line}`.trimEnd())
        .join('\n') + '\n'
    : '';
  const body =
    Object.keys(file.value).length === 0
      ? '{}\n'
      : stringify(file.value, { lineWidth: 0, minContentWidth: 0 });
  return comment + body;
}

/** What writing a pull's files did: the paths written (text new or changed), how many were already so, how many stale files went. */
export interface WrittenContent {
  written: string[];
  unchanged: number;
  removed: number;
}

/**
 * Writes every file whose text differs from what is there (a file is never
 * rewritten with the same text, so its time stays and builds and later pulls
 * trust it), then removes the YAML files of an earlier pull that are neither
 * among them nor `kept` (files of components an incremental pull left as they were).
 */
export async function writeContentFiles(
  outDir: string,
  files: readonly ContentFile[],
  kept: readonly string[] = [],
): Promise<WrittenContent> {
  for (const file of [...files.map((f) => f.path), ...kept]) checkPlace(file);
  await mkdir(outDir, { recursive: true });
  const written: string[] = [];
  await runPool(files, 32, async (file) => {
    const target = join(outDir, file.path);
    const text = renderContentFile(file);
    if ((await readFile(target, 'utf8').catch(() => null)) === text) return;
    await writeFileAtomic(target, text);
    written.push(file.path);
  });
  const removed = await removeOthers(outDir, new Set([...files.map((file) => file.path), ...kept]));
  return { written: written.sort(), unchanged: files.length - written.length, removed };
}

/** The content files of `outDir` as they are, each read from the disk when asked for. */
export async function contentOnDisk(outDir: string): Promise<ContentFiles> {
  const listing = await listContentFiles(outDir);
  return {
    ...listing,
    paths: listing.files,
    read: (path) => readFileSync(join(outDir, path), 'utf8'),
  };
}

/**
 * The content files `outDir` would hold once `files` are written and the
 * `staged` ones moved in, every other file of the content layout not `kept`
 * removed (as writeContentFiles() and the stage do it), without writing anything.
 */
export async function contentAfterWrite(
  outDir: string,
  files: readonly ContentFile[],
  kept: readonly string[],
  staged: { paths: Iterable<string>; read: (path: string) => string },
): Promise<ContentFiles> {
  const { paths: onDisk, refused, read } = await contentOnDisk(outDir);
  const texts = new Map(files.map((file) => [file.path, renderContentFile(file)]));
  const fromStage = new Set(staged.paths);
  const keep = new Set(kept);
  const left = onDisk.filter((path) => !isContentPlace(path) || keep.has(path));
  const paths = new Set([...left, ...texts.keys(), ...fromStage]);
  return {
    paths: [...paths].sort(compareStrings),
    refused,
    read: (path) => (fromStage.has(path) ? staged.read(path) : (texts.get(path) ?? read(path))),
  };
}

/** Whether `path` (relative, with `/`) is a place of the content layout: no `..`, no dot file. */
export function isContentPlace(path: string): boolean {
  return CONTENT_PLACE.test(path);
}

// --- internal ---

/** The first symbolic link found under `dir` (folders searched in turn, links never followed), or null. */
async function findLink(dir: string): Promise<string | null> {
  const folders = [dir];
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isSymbolicLink()) return path;
      if (entry.isDirectory()) folders.push(path);
    }
  }
  return null;
}

const CONTENT_PLACE =
  /^(site\.yaml|languages\/[^/.][^/]*\.yaml|projects\/[^/.][^/]*\/(project\.yaml|(components|categories)\/[^/.][^/]*\.yaml))$/;

function checkPlace(path: string): void {
  if (!isContentPlace(path))
    internalError(`a pulled file would be written outside the content layout: ${path}`);
}

/** Removes content YAML files not in `keep` (left by an earlier pull), and folders left empty. */
async function removeOthers(outDir: string, keep: ReadonlySet<string>): Promise<number> {
  let removed = 0;
  const visit = async (relative: string): Promise<void> => {
    const entries = await readdir(join(outDir, relative), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        await visit(path);
        await rmdir(join(outDir, path)).catch(() => undefined); // only when empty
      } else if (CONTENT_PLACE.test(path) && !keep.has(path)) {
        await rm(join(outDir, path));
        removed++;
      }
    }
  };
  for (const folder of ['languages', 'projects']) await visit(folder);
  return removed;
}
