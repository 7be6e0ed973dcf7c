/**
 * The body of a checking thread (check-pool.ts): reads and checks the content
 * files it is sent, a chunk at a time, and answers with their results. The
 * results cross the thread boundary as structured clones, so a component
 * arrives in its prepared form, never as parsed YAML.
 */
import { readFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import type { CheckChunk, CheckChunkResult } from './check-pool.ts';
import { checkAndHash } from './files.ts';

const port = parentPort;
if (!port) throw new Error('Internal error: check-thread.ts runs only as a worker thread');

port.on('message', (chunk: CheckChunk) => {
  let answer: CheckChunkResult;
  try {
    answer = { id: chunk.id, results: chunk.jobs.map((job) => checkAndHash(job.file, job.place, readFileSync(job.file, 'utf8'))) };
  } catch (error) {
    // A file that cannot be read is an I/O failure: the main thread throws it as the inline check would.
    answer = { id: chunk.id, failure: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(answer);
});
port.postMessage('ready');
