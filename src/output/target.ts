/**
 * Where built files go. The build writes through this interface only: a
 * folder on disk (written into a temporary sibling and swapped in at the end,
 * so a reader sees the old tree or the new one) or memory (tests).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { joinFileText, type FileText } from './serialize.ts';
import { BatchEncoder, startWriterThread, type WriterThread } from './writer-thread.ts';

export interface OutputTarget {
  /** Writes one file; `path` is relative to the output root and uses `/`. May return before the bytes are on disk. */
  write(path: string, data: FileText): Promise<void>;
  /** Waits for every write, then makes the whole tree visible at once. */
  commit(): Promise<void>;
  /** Drops everything written; the previous tree stays as it was. */
  abort(): Promise<void>;
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
      pending.set(path, joinFileText(data));
    },
    async commit() {
      files.clear();
      for (const [path, data] of pending) files.set(path, data);
      pending = new Map();
    },
    async abort() {
      pending = new Map();
    },
  };
}

export interface DirTargetOptions {
  /** Size of the buffer a batch of files is encoded into for the writer thread. */
  batchBytes?: number;
  /** Batches queued at once (bounds the memory held by pending writes). */
  batchesInFlight?: number;
}

/**
 * A folder on disk. Files go to `<outDir>.tmp-<id>` beside it, written by a
 * writer thread in batches while the caller renders; commit() renames the old
 * tree away and the new one into place, then removes the old one.
 */
export function dirTarget(outDir: string, options: DirTargetOptions = {}): OutputTarget {
  const id = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const staging = `${outDir}.tmp-${id}`;
  const encoder = new BatchEncoder(options.batchBytes ?? 1 << 21);
  const limit = options.batchesInFlight ?? 8;
  let writer: WriterThread | null = null;
  const inFlight = new Set<Promise<void>>();
  let failure: unknown = null;

  const flush = async () => {
    if (encoder.size === 0) return;
    writer ??= startWriterThread(staging);
    const job = writer.write(encoder.take()).then(
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
    await writer?.close();
    writer = null;
  };

  return {
    async write(path, data) {
      if (failure) throw failure;
      if (!encoder.add(path, data)) {
        await flush();
        encoder.add(path, data);
      }
    },
    async commit() {
      await mkdir(staging, { recursive: true });
      await drain();
      if (failure) throw failure;
      await swapIn(staging, outDir, id);
      await removeStale(outDir);
    },
    async abort() {
      encoder.take();
      await drain().catch(() => undefined);
      await rm(staging, { recursive: true, force: true });
    },
  };
}

// --- internal ---

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
    if (match && !isAlive(Number(match[1]))) await rm(join(parent, name), { recursive: true, force: true });
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
