/**
 * A thread that writes files with plain synchronous calls while the main
 * thread renders: batches of files go in, a count of bytes comes back. The
 * worker's source is a string so that it runs the same under tsx, vitest or
 * compiled JavaScript.
 */
import { Worker } from 'node:worker_threads';

export interface WriterThread {
  /** Queues a batch; resolves when the batch is on disk (or rejects with the write's error). */
  write(files: [path: string, data: string][]): Promise<void>;
  close(): Promise<void>;
}

export function startWriterThread(root: string): WriterThread {
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { root } });
  const pending = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let failure: Error | null = null;
  worker.on('message', (message: { id: number; error?: string }) => {
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
    write(files) {
      if (failure) return Promise.reject(failure);
      const id = nextId++;
      return new Promise<void>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, files });
      });
    },
    async close() {
      await worker.terminate();
    },
  };
}

// --- internal ---

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { mkdirSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');
parentPort.on('message', ({ id, files }) => {
  try {
    for (const [path, data] of files) {
      const file = join(workerData.root, path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, data);
    }
    parentPort.postMessage({ id });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) });
  }
});
`;
