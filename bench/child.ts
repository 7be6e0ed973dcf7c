/**
 * The benchmark's measured steps, each run in a process of its own so that
 * its peak memory is its own: `build`, `floor` (the raw-write floor: a plain
 * program writing the same bytes to the same paths) and `session` (edits
 * through a Session kept open, as the sidecar applies them). Each prints one
 * line of JSON.
 *
 *   node --import tsx bench/child.ts build CONTENT OUT [--full]
 *   node --import tsx bench/child.ts floor FROM TO [--consume]
 *   node --import tsx bench/child.ts floor-render CONTENT TO [--pages-off]
 *   node --import tsx bench/child.ts session CONTENT OUT EDITS.json
 *   node --import tsx bench/child.ts seed-deploy OUT BUCKET PREFIX ENDPOINT
 *   node --import tsx bench/child.ts seed-state OUT CONTENT BUCKET PREFIX ENDPOINT
 *   node --import tsx bench/child.ts store-publish CONTENT STORE-ADDRESS [--pages-off]
 */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { opendir, readFile, rmdir, unlink } from 'node:fs/promises';
import { tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { build, buildDirectory } from '../src/build.ts';
import type { OutputTarget } from '../src/output/target.ts';
import { encodeFileText } from '../src/output/serialize.ts';
import { runPool } from '../src/pool.ts';
import { Session, type ContentChange } from '../src/session/session.ts';
import { DEFAULT_CACHE_CONTROL, deploy, noFigures } from '../src/deploy/deploy.ts';
import { publishContent } from '../src/deploy/publish.ts';
import { s3Store } from '../src/deploy/s3.ts';
import { parseStateLocation, withStoreState } from '../src/deploy/store-state.ts';
import { connectMemoryStore } from './memory-store.ts';

const [step, ...args] = process.argv.slice(2);

/** The floor's batch: a quarter of the machine's memory (at least 256 MB). */
const BATCH_BYTES = Math.max(256 * 2 ** 20, totalmem() / 4);
/** Smaller when consuming: a batch is on disk twice (and takes twice its files in inodes) until its sources go. */
const CONSUME_BATCH_BYTES = 2 ** 30;
/** The batch of the floor fed by the renderer: the model is in memory beside it. */
const RENDERED_BATCH_BYTES = 256 * 2 ** 20;
/** Calls in flight at once when reading or deleting the floor's sources. */
const CALLS_AT_ONCE = 32;

const report = (result: object) => {
  process.stdout.write(
    `${JSON.stringify({ ...result, maxRssKiB: process.resourceUsage().maxRSS })}\n`,
  );
};

if (step === 'build') {
  const [contentDir, outDir, ...flags] = args as [string, string, ...string[]];
  const started = performance.now();
  const settings = flags.includes('--pages-off') ? { pages: false } : {};
  const built = await buildDirectory({
    contentDir,
    outDir,
    full: flags.includes('--full'),
    settings,
  });
  if (built.errors.length > 0) throw new Error(`the content has ${built.errors.length} errors`);
  // CPU beside wall time: a build slowed by the disk waits, or spends its time in the kernel.
  const { userCPUTime, systemCPUTime } = process.resourceUsage();
  report({
    ms: performance.now() - started,
    ...built,
    errors: undefined,
    userMs: userCPUTime / 1000,
    systemMs: systemCPUTime / 1000,
  });
} else if (step === 'floor') {
  const [from, to, flag] = args as [string, string, string?];
  report(await writeFloor(from, to, flag === '--consume'));
} else if (step === 'floor-render') {
  const [contentDir, to, flag] = args as [string, string, string?];
  report(await writeFloorFromRendering(contentDir, to, flag === '--pages-off'));
} else if (step === 'session') {
  const [contentDir, outDir, editsFile] = args as [string, string, string];
  const edits = JSON.parse(readFileSync(editsFile, 'utf8')) as {
    name: string;
    changes: ContentChange[];
  }[];
  let started = performance.now();
  const opened = await Session.open({ contentDir, outDir });
  if (!opened.ok) throw new Error('the content has errors');
  const openMs = performance.now() - started;
  const updates = [];
  for (const edit of edits) {
    started = performance.now();
    const result = await opened.session.update(edit.changes);
    if (!result.ok)
      throw new Error(`edit ${edit.name} was refused: ${JSON.stringify(result.errors)}`);
    updates.push({
      name: edit.name,
      ms: performance.now() - started,
      files: result.stats.filesWritten,
      groups: result.stats.groupsRendered,
    });
  }
  await opened.session.close();
  report({ openMs, updates });
} else if (step === 'seed-deploy') {
  const [outDir, bucket, prefix, endpoint] = args as [string, string, string, string];
  const started = performance.now();
  const seeded = await seedDeploy(outDir, { bucket, prefix, endpoint });
  report({ ms: performance.now() - started, ...seeded });
} else if (step === 'seed-state') {
  const [outDir, contentDir, bucket, prefix, endpoint] = args as [
    string,
    string,
    string,
    string,
    string,
  ];
  const started = performance.now();
  await seedState(outDir, contentDir, { bucket, prefix, endpoint });
  report({ ms: performance.now() - started });
} else if (step === 'store-publish') {
  const [contentDir, address, flag] = args as [string, string, string?];
  report(await storePublish(contentDir, address, flag === '--pages-off'));
} else {
  throw new Error(`unknown step ${step}`);
}

/**
 * One run of the store target in memory (issue 24): a publish of the content to a store in a
 * process of its own that keeps only each key's hash, size and MD5 (and the state's bytes), from
 * a new scratch folder. The bench runs the first publish and the refresh each in a process of its
 * own, as a runner that kept nothing runs them, so each peak RSS is that run's alone.
 */
async function storePublish(contentDir: string, address: string, pagesOff: boolean) {
  const store = await connectMemoryStore(address);
  const spoolDir = mkdtempSync(join(tmpdir(), 'bench-spool-'));
  let peakSpoolBytes = 0;
  const started = performance.now();
  const published = await publishContent(
    {
      contentDir,
      settings: pagesOff ? { pages: false } : {},
      target: { bucket: 'bench', prefix: 'store', endpoint: null },
      state: { bucket: 'bench', key: 'store/.weblate-snapshot/state' },
      waitMs: 0,
      cacheControl: DEFAULT_CACHE_CONTROL,
      concurrency: 64,
      retries: 0,
      allowBaseUrl: true,
      spoolDir,
      onUpload: (n) => {
        if (n % 1000 === 1) peakSpoolBytes = Math.max(peakSpoolBytes, folderBytes(spoolDir));
      },
    },
    {
      store: () => store,
      stateStore: () => store,
      sleep: async () => {},
      random: Math.random,
      now: Date.now,
    },
  );
  await store.disconnect();
  if (published.errors) throw new Error(`the content has ${published.errors.length} errors`);
  if (!published.ok) throw new Error(published.message);
  rmSync(spoolDir, { recursive: true, force: true });
  const { uploaded, deleted, bytes } = published;
  return {
    ms: performance.now() - started,
    uploaded,
    deleted,
    bytes,
    peakSpoolBytes,
    requests: store.requests,
    // Which process ran it: the first publish and the refresh are never the same.
    pid: process.pid,
  };
}

/** Bytes of the files under a folder (the spool holds a handful). */
function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  return total;
}

/**
 * The mirror refresh's starting point: the record of a deploy of the whole
 * tree to the target, made without sending it (a store that takes every
 * object and keeps none). Sending 567,000 objects to the local S3 server
 * would take most of an hour and gives the refresh nothing: it is timed on
 * what changed since.
 */
async function seedDeploy(
  outDir: string,
  target: { bucket: string; prefix: string; endpoint: string },
) {
  const report = await deploy(
    { outDir, target, cacheControl: DEFAULT_CACHE_CONTROL, concurrency: 64, retries: 0 },
    {
      store: () => ({
        put: async () => undefined,
        putIfAbsent: async () => true,
        get: async () => null,
        remove: async () => [],
        list: async () => ({ objects: [], next: null }),
        close: () => undefined,
      }),
      sleep: async () => undefined,
      random: Math.random,
    },
  );
  if (!report.ok) throw new Error(report.message);
  return { files: report.uploaded, bytes: report.bytes };
}

/**
 * The state `mirror --to s3://` keeps in the bucket, put there as a mirror
 * run that published the seeded tree would have left it: the deploy record
 * (seedDeploy's) and the pulled content, at the default key, written by the
 * tool's own state writer (a root and its parts) around a run that sends
 * nothing.
 */
async function seedState(
  outDir: string,
  contentDir: string,
  target: { bucket: string; prefix: string; endpoint: string },
): Promise<void> {
  const state = parseStateLocation('default', target);
  if (!state.ok) throw new Error(state.message);
  const store = () =>
    s3Store({ bucket: state.value.bucket, endpoint: target.endpoint, region: null });
  let saved = false;
  const report = await withStoreState(
    {
      state: state.value,
      waitMs: 0,
      target,
      outDir,
      retries: 0,
      carried: contentDir,
      onSaved: () => (saved = true),
    },
    { store, stateStore: store, sleep: async () => undefined, random: Math.random, now: Date.now },
    // The record is seedDeploy's, already in the state folder: the run has nothing to send.
    async () => ({ ...noFigures(), ok: true, message: '' }),
  );
  if (!report.ok) throw new Error(report.message);
  if (!saved) throw new Error(`no deploy record in ${outDir}'s state folder`);
}

/**
 * Reads the tree into memory and writes it to the same paths under `to`
 * with plain synchronous calls; only the writing is timed. A tree larger
 * than a quarter of the machine's memory is read and written in batches of
 * that size (a pause between two timed batches lets the disk catch up, which
 * flatters the floor a little). With `consume`, batches are of 1 GiB and
 * each source file, and each folder it leaves empty, is deleted once copied,
 * so that two trees of a very large instance never need the disk's space or
 * inodes at once. The untimed reading and deleting run many calls at once
 * (the parent raises the thread pool for this step): one at a time, they took
 * hours on a tree of millions of files.
 */
async function writeFloor(from: string, to: string, consume: boolean) {
  rmSync(to, { recursive: true, force: true });
  const paths = filesUnder(from);
  let writeMs = 0;
  let bytes = 0;
  let files = 0;
  let userMs = 0;
  let systemMs = 0;
  for (;;) {
    const batch = await readBatch(from, paths, consume ? CONSUME_BATCH_BYTES : BATCH_BYTES);
    if (batch.length === 0) break;
    const started = performance.now();
    // The loop is synchronous, so the process's CPU over it is the writing's alone.
    const cpu = process.cpuUsage();
    bytes += writeFiles(to, batch);
    writeMs += performance.now() - started;
    const used = process.cpuUsage(cpu);
    userMs += used.user / 1000;
    systemMs += used.system / 1000;
    files += batch.length;
    if (consume)
      await runPool(batch, CALLS_AT_ONCE, ([path]) => removeWithEmptyFolders(from, path));
  }
  return { writeMs, files, bytes, userMs, systemMs };
}

/**
 * The floor without a tree to read back: the build's renderer hands each file's bytes to a
 * target that gathers them into batches, and each batch is written to the same paths under `to`
 * with the plain synchronous calls of writeFloor; only that writing is timed, and its CPU is the
 * main thread's alone (the PNG thread draws beside it). For a disk that holds the tree only once:
 * reading ten million small files back from a cold disk took hours here, where writing them takes
 * minutes. The rendering between two batches lets the disk catch up, as writeFloor's reading
 * does, which flatters the floor a little.
 */
async function writeFloorFromRendering(contentDir: string, to: string, pagesOff: boolean) {
  rmSync(to, { recursive: true, force: true });
  const figures = { writeMs: 0, files: 0, bytes: 0, userMs: 0, systemMs: 0 };
  let batch: [string, Buffer][] = [];
  let batchBytes = 0;
  const writeBatch = () => {
    const cpu = threadCpu();
    const started = performance.now();
    writeFiles(to, batch);
    figures.writeMs += performance.now() - started;
    const used = threadCpu();
    figures.userMs += used.userMs - cpu.userMs;
    figures.systemMs += used.systemMs - cpu.systemMs;
    figures.files += batch.length;
    figures.bytes += batchBytes;
    batch = [];
    batchBytes = 0;
  };
  const notInPlace = async () => {
    throw new Error('the floor writes a new tree only');
  };
  const target: OutputTarget = {
    async write(path, data) {
      const bytes = encodeFileText(data);
      batch.push([path, bytes]);
      batchBytes += bytes.length;
      if (batchBytes >= RENDERED_BATCH_BYTES) writeBatch();
      return bytes.length;
    },
    async commit() {
      writeBatch();
    },
    async abort() {},
    replace: notInPlace,
    removeFolder: notInPlace,
    removeFile: notInPlace,
  };
  const built = await build({ contentDir, settings: pagesOff ? { pages: false } : {} }, { target });
  if (built.errors.length > 0) throw new Error(`the content has ${built.errors.length} errors`);
  return figures;
}

/** The calling thread's user and system CPU (Linux's per-thread clock ticks), else the process's. */
function threadCpu(): { userMs: number; systemMs: number } {
  try {
    // The fields after the command's closing parenthesis; utime and stime are the 12th and 13th.
    const stat = readFileSync('/proc/thread-self/stat', 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { userMs: Number(fields[11]) * 10, systemMs: Number(fields[12]) * 10 };
  } catch {
    const { user, system } = process.cpuUsage();
    return { userMs: user / 1000, systemMs: system / 1000 };
  }
}

/** Every file under `root` (relative paths), listed one folder at a time rather than all at once. */
async function* filesUnder(root: string, dir = ''): AsyncGenerator<string> {
  for await (const entry of await opendir(join(root, dir))) {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) yield* filesUnder(root, path);
    else yield path;
  }
}

/** The next files of `paths`, read until they hold `limit` bytes or the paths run out. */
async function readBatch(
  root: string,
  paths: AsyncGenerator<string>,
  limit: number,
): Promise<[string, Buffer][]> {
  const batch: [string, Buffer][] = [];
  let size = 0;
  const reader = async () => {
    while (size < limit) {
      const next = await paths.next();
      if (next.done) return;
      const data = await readFile(join(root, next.value));
      batch.push([next.value, data]);
      size += data.length;
    }
  };
  await Promise.all(Array.from({ length: CALLS_AT_ONCE }, reader));
  return batch;
}

/** Deletes a copied source file and every folder above it that is left empty (their inodes count too). */
async function removeWithEmptyFolders(root: string, path: string): Promise<void> {
  await unlink(join(root, path));
  for (let dir = dirname(path); dir !== '.'; dir = dirname(dir)) {
    try {
      await rmdir(join(root, dir));
    } catch {
      return;
    }
  }
}

/** The floor's timed writing: each file at its path under `to`, with plain synchronous calls; the bytes written. */
function writeFiles(to: string, batch: readonly [string, Buffer][]): number {
  let bytes = 0;
  for (const [path, data] of batch) {
    const file = join(to, path);
    makeFolder(dirname(file));
    writeFileSync(file, data);
    bytes += data.length;
  }
  return bytes;
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
