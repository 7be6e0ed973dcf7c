/**
 * Where built files go. The build writes through this interface only, both
 * ways it writes: a whole new tree (write every file, then commit, which makes
 * it visible at once) and an update in place of the tree already there
 * (replace the files whose bytes changed, remove the folders that are gone).
 * Two targets: a folder on disk (a new tree is written into a temporary
 * sibling and swapped in, so a reader sees the old tree or the new one; each
 * file replaced in place is renamed over the old one) and memory (tests).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, rmdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { internalError } from '../errors.ts';
import { writeFileAtomic } from './atomic.ts';
import { encodeFileText, joinFileText, type FileText } from './serialize.ts';
import { BatchEncoder, startWriterThreads, type WriterThread } from './writer-thread.ts';

export interface OutputTarget {
  /** A new tree: writes one file; `path` is relative to the output root and uses `/`. May return before the bytes are on disk. Resolves to the file's size in bytes. */
  write(path: string, data: FileText): Promise<number>;
  /** A new tree: waits for every write, then makes the whole tree visible at once. */
  commit(): Promise<void>;
  /** A new tree: drops everything written; the previous tree stays as it was. */
  abort(): Promise<void>;
  /** In place: replaces a file of the tree unless it holds exactly these bytes; true when it was written. */
  replace(path: string, data: FileText): Promise<boolean>;
  /** In place: removes a folder of the tree and all it holds, then its parents while they are empty (never the tree's root). */
  removeFolder(path: string): Promise<void>;
  /** In place: removes one file of the tree (an extra file), then its parents while they are empty. */
  removeFile(path: string): Promise<void>;
}

export interface MemoryTarget extends OutputTarget {
  /** Committed files by relative path (empty until commit). */
  readonly files: ReadonlyMap<string, string>;
}

export function memoryTarget(): MemoryTarget {
  let pending = new Map<string, string>();
  const files = new Map<string, string>();
  return {
    files,
    async write(path, data) {
      const text = joinFileText(data);
      pending.set(path, text);
      return Buffer.byteLength(text);
    },
    async commit() {
      files.clear();
      for (const [path, data] of pending) files.set(path, data);
      pending = new Map();
    },
    async abort() {
      pending = new Map();
    },
    async replace(path, data) {
      const text = joinFileText(data);
      if (files.get(path) === text) return false;
      files.set(path, text);
      return true;
    },
    async removeFolder(path) {
      const folder = folderPath(path);
      for (const file of [...files.keys()]) if (file.startsWith(folder)) files.delete(file);
    },
    async removeFile(path) {
      files.delete(path);
    },
  };
}

interface DirTargetOptions {
  /**
   * A folder on the same file system, outside the tree, where files replaced
   * in place are written before they are renamed over the old ones (crash
   * leftovers stay out of the tree). Beside each file when unset.
   */
  scratch?: string;
  /** Size of the buffer a batch of files is encoded into for the writer threads. */
  batchBytes?: number;
  /** Batches queued at once (bounds the memory held by pending writes). */
  batchesInFlight?: number;
  /** Threads writing the batches (by default two, or one on a single core). */
  writerThreads?: number;
}

/**
 * A folder on disk. A new tree goes to `<outDir>.tmp-<id>` beside it, written
 * by writer threads in batches while the caller renders; commit() renames the
 * old tree away and the new one into place, then removes the old one. In
 * place, a changed file is compared by size first, then as bytes, and
 * written in `scratch` then renamed over the old one.
 */
export function dirTarget(outDir: string, options: DirTargetOptions = {}): OutputTarget {
  const id = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const staging = `${outDir}.tmp-${id}`;
  const limit = options.batchesInFlight ?? 8;
  const encoder = new BatchEncoder(options.batchBytes ?? 1 << 21, limit);
  let writers: WriterThread | null = null;
  const inFlight = new Set<Promise<void>>();
  let failure: unknown = null;

  const flush = async () => {
    if (encoder.size === 0) return;
    writers ??= startWriterThreads(staging, options.writerThreads, (buffer) =>
      encoder.recycle(buffer),
    );
    const job = writers.write(encoder.take()).then(
      () => void inFlight.delete(job),
      (error: unknown) => {
        inFlight.delete(job);
        failure ??= error;
      },
    );
    inFlight.add(job);
    if (inFlight.size >= limit) await Promise.race(inFlight);
  };
  const drain = async () => {
    await flush();
    await Promise.all(inFlight);
    await writers?.close();
    writers = null;
  };

  return {
    async write(path, data) {
      if (failure) throw asError(failure);
      const size = encoder.add(path, data);
      if (size >= 0) return size;
      await flush();
      return encoder.add(path, data);
    },
    async commit() {
      await mkdir(staging, { recursive: true });
      await drain();
      if (failure) throw asError(failure);
      await swapIn(staging, outDir, id);
      await removeStale(outDir);
    },
    async abort() {
      encoder.take();
      await drain().catch(() => undefined);
      await rm(staging, { recursive: true, force: true });
    },
    replace: (path, data) => replaceIfChanged(join(outDir, path), data, options.scratch),
    removeFolder: (path) => removeFolderAndEmptyParents(join(outDir, folderPath(path)), outDir),
    removeFile: (path) => removeFolderAndEmptyParents(join(outDir, filePath(path)), outDir),
  };
}

// --- internal ---

function asError(failure: unknown): Error {
  return failure instanceof Error ? failure : new Error(String(failure));
}

async function replaceIfChanged(
  file: string,
  data: FileText,
  scratch: string | undefined,
): Promise<boolean> {
  const bytes = encodeFileText(data);
  const size = await stat(file).then(
    (info) => info.size,
    () => -1,
  );
  if (size === bytes.length) {
    const current = await readFile(file).catch(() => null);
    if (current && current.equals(bytes)) return false;
  }
  await writeFileAtomic(file, bytes, scratch ? { scratch } : {});
  return true;
}

/** A folder of the tree as `a/b/`; never the root of the tree itself. */
function folderPath(path: string): string {
  const folder = path.replace(/^\/+/, '').replace(/\/*$/, '/');
  if (folder === '/' || folder.split('/').some((part) => part === '..' || part === '.'))
    internalError(`cannot remove the folder "${path}" of a tree`);
  return folder;
}

/** A file of the tree, checked like a folder: never outside it. */
function filePath(path: string): string {
  return folderPath(path).slice(0, -1);
}

async function removeFolderAndEmptyParents(folder: string, stop: string): Promise<void> {
  await rm(folder, { recursive: true, force: true });
  let parent = dirname(folder);
  while (parent.startsWith(stop) && parent !== stop) {
    try {
      await rmdir(parent);
    } catch {
      return; // not empty, or already gone
    }
    parent = dirname(parent);
  }
}

async function swapIn(staging: string, outDir: string, id: string): Promise<void> {
  const old = `${outDir}.old-${id}`;
  const existing = await stat(outDir).catch(() => null);
  if (existing && !existing.isDirectory()) throw new Error(`${outDir} exists and is not a folder`);
  if (!existing) {
    await mkdir(dirname(outDir), { recursive: true });
    await rename(staging, outDir);
    return;
  }
  await rename(outDir, old);
  try {
    await rename(staging, outDir);
  } catch (error) {
    await rename(old, outDir);
    throw error;
  }
  await rm(old, { recursive: true, force: true });
}

/** Removes temporary siblings left by builds that were killed (their process is gone). */
async function removeStale(outDir: string): Promise<void> {
  const parent = dirname(outDir);
  const prefix = basename(outDir);
  const names = await readdir(parent).catch(() => [] as string[]);
  for (const name of names) {
    const match = new RegExp(`^${escapeRegExp(prefix)}\\.(?:tmp|old)-(\\d+)-[0-9a-f]+$`).exec(name);
    if (match && !isAlive(Number(match[1])))
      await rm(join(parent, name), { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
