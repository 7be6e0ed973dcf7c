/**
 * Where built files go. The build writes through this interface only: a
 * folder on disk (written into a temporary sibling and swapped in at the end,
 * so a reader sees the old tree or the new one) or memory (tests).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface OutputTarget {
  /** Writes one file; `path` is relative to the output root and uses `/`. May return before the bytes are on disk. */
  write(path: string, data: string): Promise<void>;
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
      pending.set(path, data);
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
  /** Writes in flight at once. */
  concurrency?: number;
}

/**
 * A folder on disk. Files go to `<outDir>.tmp-<id>` beside it; commit() renames
 * the old tree away and the new one into place, then removes the old one.
 */
export function dirTarget(outDir: string, options: DirTargetOptions = {}): OutputTarget {
  const id = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const staging = `${outDir}.tmp-${id}`;
  const created = new Set<string>();
  const inFlight = new Set<Promise<void>>();
  const limit = options.concurrency ?? 64;
  let failure: unknown = null;

  const writeOne = async (path: string, data: string) => {
    const file = join(staging, path);
    const dir = dirname(file);
    if (!created.has(dir)) {
      await mkdir(dir, { recursive: true });
      created.add(dir);
    }
    await writeFile(file, data);
  };

  return {
    async write(path, data) {
      if (failure) throw failure;
      if (inFlight.size >= limit) await Promise.race(inFlight);
      const job = writeOne(path, data).then(
        () => void inFlight.delete(job),
        (error: unknown) => {
          inFlight.delete(job);
          failure ??= error;
        },
      );
      inFlight.add(job);
    },
    async commit() {
      await Promise.all(inFlight);
      if (failure) throw failure;
      await mkdir(staging, { recursive: true });
      await swapIn(staging, outDir, id);
      await removeStale(outDir);
    },
    async abort() {
      await Promise.all(inFlight);
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
