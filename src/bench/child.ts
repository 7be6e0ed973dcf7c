/**
 * The benchmark's measured steps, each run in a process of its own so that
 * its peak memory is its own: `build`, `floor` (the raw-write floor: a plain
 * program writing the same bytes to the same paths) and `snapshot` (edits
 * through a Snapshot kept open, as the sidecar applies them). Each prints one
 * line of JSON.
 *
 *   node --import tsx src/bench/child.ts build CONTENT OUT [--full]
 *   node --import tsx src/bench/child.ts floor FROM TO [--consume]
 *   node --import tsx src/bench/child.ts snapshot CONTENT OUT EDITS.json
 */
import { mkdirSync, readFileSync, rmdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import fg from 'fast-glob';
import { buildDirectory } from '../build.ts';
import { Snapshot, type ContentChange } from '../snapshot.ts';

const [step, ...args] = process.argv.slice(2);

/** The floor's batch: a quarter of the machine's memory (at least 256 MB). */
const BATCH_BYTES = Math.max(256 * 2 ** 20, totalmem() / 4);
/** Smaller when consuming: a batch is on disk twice (and takes twice its files in inodes) until its sources go. */
const CONSUME_BATCH_BYTES = 2 ** 30;

const report = (result: object) => {
  process.stdout.write(`${JSON.stringify({ ...result, maxRssKiB: process.resourceUsage().maxRSS })}\n`);
};

if (step === 'build') {
  const [contentDir, outDir, flag] = args as [string, string, string?];
  const started = performance.now();
  const built = await buildDirectory({ contentDir, outDir, full: flag === '--full' });
  if (built.errors.length > 0) throw new Error(`the content has ${built.errors.length} errors`);
  report({ ms: performance.now() - started, ...built, errors: undefined });
} else if (step === 'floor') {
  const [from, to, flag] = args as [string, string, string?];
  report(await writeFloor(from, to, flag === '--consume'));
} else if (step === 'snapshot') {
  const [contentDir, outDir, editsFile] = args as [string, string, string];
  const edits = JSON.parse(readFileSync(editsFile, 'utf8')) as { name: string; changes: ContentChange[] }[];
  let started = performance.now();
  const opened = await Snapshot.open({ contentDir, outDir });
  if (!opened.ok) throw new Error('the content has errors');
  const openMs = performance.now() - started;
  const updates = [];
  for (const edit of edits) {
    started = performance.now();
    const result = await opened.snapshot.update(edit.changes);
    if (!result.ok) throw new Error(`edit ${edit.name} was refused: ${JSON.stringify(result.errors)}`);
    updates.push({ name: edit.name, ms: performance.now() - started, files: result.stats.filesWritten, groups: result.stats.groupsRendered });
  }
  await opened.snapshot.close();
  report({ openMs, updates });
} else {
  throw new Error(`unknown step ${step}`);
}

/**
 * Reads the tree into memory and writes it to the same paths under `to`
 * with plain synchronous calls; only the writing is timed. A tree larger
 * than a quarter of the machine's memory is read and written in batches of
 * that size (a pause between two timed batches lets the disk catch up, which
 * flatters the floor a little). With `consume`, batches are of 1 GiB and
 * each source file, and each folder it leaves empty, is deleted once copied
 * (untimed), so that two trees of a very large instance never need the
 * disk's space or inodes at once.
 */
async function writeFloor(from: string, to: string, consume: boolean) {
  rmSync(to, { recursive: true, force: true });
  const files = await fg('**/*', { cwd: from, onlyFiles: true, dot: true });
  let writeMs = 0;
  let bytes = 0;
  let next = 0;
  while (next < files.length) {
    const batch: [string, Buffer][] = [];
    let size = 0;
    while (next < files.length && size < (consume ? CONSUME_BATCH_BYTES : BATCH_BYTES)) {
      const data = readFileSync(join(from, files[next]!));
      batch.push([files[next]!, data]);
      size += data.length;
      next++;
    }
    const started = performance.now();
    for (const [path, data] of batch) {
      const file = join(to, path);
      makeFolder(dirname(file));
      writeFileSync(file, data);
      bytes += data.length;
    }
    writeMs += performance.now() - started;
    if (consume) for (const [path] of batch) removeWithEmptyFolders(from, path);
  }
  return { writeMs, files: files.length, bytes };
}

/** Deletes a copied source file and every folder above it that is left empty (their inodes count too). */
function removeWithEmptyFolders(root: string, path: string): void {
  unlinkSync(join(root, path));
  for (let dir = dirname(path); dir !== '.'; dir = dirname(dir)) {
    try {
      rmdirSync(join(root, dir));
    } catch {
      return;
    }
  }
}

function makeFolder(dir: string): void {
  try {
    mkdirSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') mkdirSync(dir, { recursive: true });
    else if (code !== 'EEXIST') throw error;
  }
}
