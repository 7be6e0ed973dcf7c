/**
 * Threads that write files with plain synchronous calls while the main
 * thread renders. The main thread encodes a batch of files into one buffer
 * and hands the buffer over (transferred, not copied) with the paths and
 * where each file ends; a thread answers when the batch is on disk. The
 * worker's source is a string so that it runs the same under tsx, vitest or
 * compiled JavaScript.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { threadFlags } from '../threads.ts';
import type { FileText } from './serialize.ts';

export interface WriterThread {
  /** Queues a batch; resolves when the batch is on disk (or rejects with the write's error). */
  write(batch: EncodedBatch): Promise<void>;
  close(): Promise<void>;
}

/** Files encoded back to back: file i is `bytes[ends[i-1] ?? 0 .. ends[i]]`. */
interface EncodedBatch {
  paths: string[];
  ends: Uint32Array;
  bytes: Uint8Array;
}

/** Collects files into one buffer until it is full. */
export class BatchEncoder {
  private buffer: Buffer;
  private used = 0;
  private paths: string[] = [];
  private ends: number[] = [];
  /** Buffers of batches on disk, handed back to be filled again (recycle). */
  private readonly spare: Buffer[] = [];

  /** `mostSpare`: buffers kept for refilling, at most (as many as batches may be queued at once). */
  constructor(
    private readonly capacity: number,
    private readonly mostSpare = 0,
  ) {
    this.buffer = Buffer.allocUnsafeSlow(capacity);
  }

  get size(): number {
    return this.paths.length;
  }

  /**
   * Adds a file and returns its size in bytes; -1 when it does not fit (flush first; a file
   * larger than the capacity gets a batch of its own).
   */
  add(path: string, data: FileText): number {
    const worst = mostBytes(data);
    if (this.used + worst > this.buffer.length) {
      if (this.paths.length > 0) return -1;
      this.buffer = Buffer.allocUnsafeSlow(Math.max(this.capacity, worst));
    }
    const start = this.used;
    if (typeof data === 'string') this.used += this.buffer.write(data, this.used);
    else for (const part of data) this.used += this.addPart(part);
    this.paths.push(path);
    this.ends.push(this.used);
    return this.used - start;
  }

  /** A string is encoded; bytes are copied as they are. */
  private addPart(part: string | Uint8Array): number {
    if (typeof part === 'string') return this.buffer.write(part, this.used);
    this.buffer.set(part, this.used);
    return part.byteLength;
  }

  /** The batch so far, and a fresh buffer for the next one. */
  take(): EncodedBatch {
    const batch = {
      paths: this.paths,
      ends: Uint32Array.from(this.ends),
      bytes: new Uint8Array(this.buffer.buffer, 0, this.used),
    };
    this.buffer = this.spare.pop() ?? Buffer.allocUnsafeSlow(this.capacity);
    this.used = 0;
    this.paths = [];
    this.ends = [];
    return batch;
  }

  /**
   * Takes back the buffer of a batch that is on disk, to fill again. Each new buffer was
   * garbage once written, freed only when a collection came round: with millions of files the
   * writer threads and the main thread held some hundred megabytes of written batches.
   */
  recycle(buffer: ArrayBuffer): void {
    if (buffer.byteLength === this.capacity && this.spare.length < this.mostSpare)
      this.spare.push(Buffer.from(buffer));
  }
}

/**
 * Writer threads behind one WriterThread: each batch goes to the thread with
 * the fewest batches pending. Creating a file is mostly the kernel's work
 * (mkdir, open, write), and one thread doing it alone kept one core busy
 * while the main thread left the other half idle; two threads share that
 * work out over both cores. Batches are independent (a thread makes any
 * folder it needs), so their order does not matter.
 */
export function startWriterThreads(
  root: string,
  count = defaultWriterThreads(),
  /** Given each batch's buffer back once it is on disk. */
  recycle: (buffer: ArrayBuffer) => void = () => undefined,
): WriterThread {
  const threads = Array.from({ length: count }, () => ({
    thread: startWriterThread(root, recycle),
    pending: 0,
  }));
  return {
    async write(batch) {
      const least = threads.reduce((a, b) => (b.pending < a.pending ? b : a));
      least.pending++;
      try {
        await least.thread.write(batch);
      } finally {
        least.pending--;
      }
    },
    async close() {
      await Promise.all(threads.map(({ thread }) => thread.close()));
    },
  };
}

// --- internal ---

/** Two writer threads when there are two cores or more (measured on two; more were not tried), else one. */
function defaultWriterThreads(): number {
  return Math.min(2, availableParallelism());
}

function startWriterThread(root: string, recycle: (buffer: ArrayBuffer) => void): WriterThread {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { root },
    execArgv: threadFlags(),
  });
  const pending = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let failure: Error | null = null;
  worker.on('message', (message: { id: number; error?: string; bytes: Uint8Array }) => {
    recycle(message.bytes.buffer as ArrayBuffer);
    const waiter = pending.get(message.id);
    pending.delete(message.id);
    if (message.error) waiter?.reject((failure = new Error(message.error)));
    else waiter?.resolve();
  });
  worker.on('error', (error) => {
    failure = error;
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
  });
  return {
    write(batch) {
      if (failure) return Promise.reject(failure);
      const id = nextId++;
      return new Promise<void>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, ...batch }, [
          batch.bytes.buffer as ArrayBuffer,
          batch.ends.buffer as ArrayBuffer,
        ]);
      });
    },
    async close() {
      await worker.terminate();
    },
  };
}

/** At most how many bytes a file's text takes: UTF-8 takes at most 3 bytes per UTF-16 code unit. */
function mostBytes(text: FileText): number {
  if (typeof text === 'string') return text.length * 3;
  let bytes = 0;
  for (const part of text) bytes += typeof part === 'string' ? part.length * 3 : part.byteLength;
  return bytes;
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { mkdirSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');
// Most files sit in a folder of their own whose parent exists: one plain mkdir.
function makeFolder(dir) {
  try {
    mkdirSync(dir);
  } catch (error) {
    if (error.code === 'ENOENT') mkdirSync(dir, { recursive: true });
    else if (error.code !== 'EEXIST') throw error;
  }
}
parentPort.on('message', ({ id, paths, ends, bytes }) => {
  try {
    let start = 0;
    for (let i = 0; i < paths.length; i++) {
      const file = join(workerData.root, paths[i]);
      makeFolder(dirname(file));
      writeFileSync(file, bytes.subarray(start, ends[i]));
      start = ends[i];
    }
    parentPort.postMessage({ id, bytes }, [bytes.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error), bytes }, [bytes.buffer]);
  }
});
`;
