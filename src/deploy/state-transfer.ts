/**
 * Moving the state's files to and from the store as parts (state-parts.ts):
 * written by streaming each file through the cutter, uploading, gzipped, only
 * the parts the store does not hold, then the root; read by fetching the
 * parts a few at a time, each checked against its name, into temporary files
 * renamed over the files only once every part has held.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { internalError } from '../errors.ts';
import { withRetries, type RetryPolicy } from './retry.ts';
import {
  encodeStateRoot,
  PartCutter,
  partKey,
  partsPrefix,
  sha256Of,
  type StateRoot,
} from './state-parts.ts';
import type { ObjectStore } from './store.ts';

/** What a run knows of the parts in the store: those a root it read names (null: unknown), those found damaged. */
export interface StateParts {
  held: Set<string> | null;
  damaged: Set<string>;
}

/** A file the state carries: its name in the state, and where it is on disk. */
export interface StateFile {
  name: string;
  path: string;
}

/**
 * Sends the parts of `files` the store lacks, then the root at `key` (put by
 * `putRoot`, which knows its metadata), then removes the parts no longer
 * named. The store holds the parts in `policy.held` (when null, a listing
 * says), less those found damaged.
 */
export async function writeStateParts(
  store: ObjectStore,
  key: string,
  state: { target: string; files: readonly StateFile[]; inLine?: boolean },
  policy: RetryPolicy & StateParts,
  putRoot: (root: Buffer) => Promise<void>,
): Promise<void> {
  const before = policy.held ?? (await listParts(store, key, policy));
  const held = new Set([...before].filter((sha256) => !policy.damaged.has(sha256)));
  const root: StateRoot = { target: state.target, files: [], parts: [] };
  const sending = new Bounded(SENDS_AT_ONCE);
  const take = (part: Buffer) => {
    const sha256 = sha256Of(part);
    root.parts.push({ sha256, size: part.length });
    if (held.has(sha256)) return Promise.resolve();
    held.add(sha256);
    return sending.add(async () => {
      const body = await gzipAsync(part);
      await withRetries(() => store.put(partKey(key, sha256), body, partMetadata(body)), policy);
    });
  };
  root.files = await cutFiles(state.files, take);
  if (state.inLine) root.inLine = true;
  await sending.drain();
  const body = encodeStateRoot(root);
  await putRoot(body);
  const named = new Set(root.parts.map((part) => part.sha256));
  await removeParts(
    store,
    key,
    [...before].filter((sha256) => !named.has(sha256)),
  );
}

/**
 * Fetches the parts of `root` and writes each file to where `placeOf` says
 * (null: not wanted here); null, or why the state cannot be trusted (then no
 * file was touched, and the part at fault is added to `damaged`).
 */
export async function readStateParts(
  store: ObjectStore,
  key: string,
  root: StateRoot,
  placeOf: (name: string) => string | null,
  policy: RetryPolicy & StateParts,
): Promise<string | null> {
  const sink = new FileSink(root.files, placeOf);
  // Only the parts in flight: one kept once written would keep the whole state in memory.
  const fetches = new Map<number, Promise<Buffer | string>>();
  const fetchPart = (index: number) => {
    const part = root.parts[index];
    if (part) fetches.set(index, fetchChecked(store, key, part, policy));
  };
  try {
    for (let index = 0; index < FETCHES_AT_ONCE; index++) fetchPart(index);
    for (let index = 0; index < root.parts.length; index++) {
      const bytes = await fetches.get(index)!;
      fetches.delete(index);
      fetchPart(index + FETCHES_AT_ONCE);
      if (typeof bytes === 'string') {
        policy.damaged.add(root.parts[index]!.sha256);
        return bytes;
      }
      await sink.write(bytes);
    }
    await sink.finish();
    policy.held = new Set(root.parts.map((part) => part.sha256));
    return null;
  } finally {
    // Settled before leaving, so no part is still arriving (nor failing unheard) after a refusal.
    await Promise.allSettled(fetches.values());
    await sink.discard();
  }
}

// --- internal ---

/** Parts sent or fetched at once: enough to keep the store and zlib's threads busy, few enough to hold. */
const SENDS_AT_ONCE = 4;
const FETCHES_AT_ONCE = 4;
/** The read size when streaming a file through the cutter. */
const BLOCK = 2 ** 20;
const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

function partMetadata(body: Buffer) {
  return {
    contentType: 'application/gzip',
    cacheControl: 'no-store',
    md5: createHash('md5').update(body).digest('base64'),
  };
}

/** Streams the files through the cutter, each part to `take` in turn; the files' names and sizes. */
async function cutFiles(
  files: readonly StateFile[],
  take: (part: Buffer) => Promise<void>,
): Promise<StateRoot['files']> {
  const cutter = new PartCutter();
  const sizes: StateRoot['files'] = [];
  for (const file of files) {
    let size = 0;
    const blocks = createReadStream(file.path, { highWaterMark: BLOCK });
    for await (const block of blocks as AsyncIterable<Buffer>) {
      size += block.length;
      for (const part of cutter.push(block)) await take(part);
    }
    sizes.push({ name: file.name, size });
  }
  const last = cutter.end();
  if (last) await take(last);
  return sizes;
}

/** The parts the store holds under the state's prefix, by their SHA-256. */
export async function listParts(
  store: ObjectStore,
  key: string,
  policy: RetryPolicy,
): Promise<Set<string>> {
  const prefix = partsPrefix(key);
  const held = new Set<string>();
  let token: string | null = null;
  do {
    const page = await withRetries(() => store.list(prefix, token), policy);
    for (const object of page.objects) held.add(object.key.slice(prefix.length));
    token = page.next;
  } while (token !== null);
  return held;
}

/** Removes parts no root names (a failure only leaves them for the next run to remove). */
async function removeParts(store: ObjectStore, key: string, sha256s: string[]): Promise<void> {
  for (let at = 0; at < sha256s.length; at += 1000) {
    const keys = sha256s.slice(at, at + 1000).map((sha256) => partKey(key, sha256));
    await store.remove(keys).catch(() => undefined);
  }
}

/** A part's bytes once they match its name and size, or why not. */
async function fetchChecked(
  store: ObjectStore,
  key: string,
  part: { sha256: string; size: number },
  policy: RetryPolicy,
): Promise<Buffer | string> {
  const body = await withRetries(() => store.get(partKey(key, part.sha256)), policy);
  if (body === null) return `its part ${part.sha256} is missing`;
  let bytes: Buffer;
  try {
    bytes = await gunzipAsync(body);
  } catch (error) {
    return `its part ${part.sha256} is not gzip data (${(error as Error).message})`;
  }
  if (bytes.length !== part.size || sha256Of(bytes) !== part.sha256)
    return `its part ${part.sha256} does not match its SHA-256`;
  return bytes;
}

/** Runs tasks with at most `limit` at once; `add` waits for a free place. */
class Bounded {
  private readonly running = new Set<Promise<void>>();
  private failure: Error | null = null;

  constructor(private readonly limit: number) {}

  async add(task: () => Promise<void>): Promise<void> {
    while (this.running.size >= this.limit) await Promise.race(this.running);
    this.rethrow();
    const run: Promise<void> = task()
      .catch((error: unknown) => void (this.failure ??= asError(error)))
      .finally(() => this.running.delete(run));
    this.running.add(run);
  }

  async drain(): Promise<void> {
    await Promise.all(this.running);
    this.rethrow();
  }

  private rethrow(): void {
    if (this.failure !== null) throw this.failure;
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** The files of a state, written from its bytes in order, each to a temporary file until all are in. */
class FileSink {
  private index = 0;
  private left: number;
  private handle: FileHandle | null = null;
  private readonly written: { temporary: string; path: string }[] = [];

  constructor(
    private readonly files: readonly { name: string; size: number }[],
    private readonly placeOf: (name: string) => string | null,
  ) {
    this.left = files[0]?.size ?? 0;
  }

  async write(bytes: Buffer): Promise<void> {
    let at = 0;
    while (at < bytes.length) {
      await this.skipEnded();
      if (this.index >= this.files.length) internalError('state parts longer than its files');
      const piece = bytes.subarray(at, at + this.left);
      if (this.index === this.written.length) await this.open();
      if (this.handle) await this.handle.write(piece);
      this.left -= piece.length;
      at += piece.length;
    }
  }

  /** Renames every file into place (empty files included). */
  async finish(): Promise<void> {
    await this.skipEnded();
    await this.closeHandle();
    for (const { temporary, path } of this.written.splice(0))
      if (temporary) await rename(temporary, path);
  }

  /** Removes the temporary files left (none after finish). */
  async discard(): Promise<void> {
    await this.closeHandle();
    for (const { temporary } of this.written.splice(0))
      if (temporary) await rm(temporary, { force: true });
  }

  /** Moves past the files whose bytes are all written, opening each (so an empty file is written too). */
  private async skipEnded(): Promise<void> {
    while (this.left === 0 && this.index < this.files.length) {
      if (this.index === this.written.length) await this.open();
      await this.closeHandle();
      this.index++;
      this.left = this.files[this.index]?.size ?? 0;
    }
  }

  private async open(): Promise<void> {
    const path = this.placeOf(this.files[this.index]!.name);
    if (path === null) {
      this.written.push({ temporary: '', path: '' });
      return;
    }
    await mkdir(dirname(path), { recursive: true });
    const temporary = join(
      dirname(path),
      `.${basename(path)}.tmp-${randomBytes(6).toString('hex')}`,
    );
    this.written.push({ temporary, path });
    this.handle = await open(temporary, 'w');
  }

  private async closeHandle(): Promise<void> {
    await this.handle?.close();
    this.handle = null;
  }
}
