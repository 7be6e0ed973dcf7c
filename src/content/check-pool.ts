/**
 * Checks many content files on every core. Parsing and checking YAML is the
 * costliest step of loading a large instance and each file is checked on its
 * own, so a content folder of thousands of files is shared out in chunks
 * between the main thread and a worker thread per other core
 * (check-thread.ts). A small folder is checked inline: starting a thread
 * costs more than it saves. The results are the same either way, in the
 * jobs' order.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { createIntern } from '../model/intern.ts';
import { threadFlags } from '../threads.ts';
import { checkAndHash, shareCheckedTexts, type CheckedText, type FilePlace } from './files.ts';

export interface CheckJob {
  /** The path to read, as messages show it. */
  file: string;
  place: FilePlace;
}

export interface CheckOptions {
  /** Worker threads beside the main thread; 0 checks inline. By default: one per other core when there are enough files. */
  threads?: number;
  /** Whether the main thread checks files too (by default it does; false leaves them all to the threads). */
  mainThread?: boolean;
  /** The module a thread runs (check-thread.ts by default; a test points it elsewhere to see threads fail). */
  threadEntry?: URL;
}

/** What the main thread sends a checking thread, and what it answers. */
export interface CheckChunk {
  id: number;
  jobs: CheckJob[];
}

export type CheckChunkResult = { id: number; results: CheckedText[] } | { id: number; failure: string };

interface CheckedFiles {
  /** In the jobs' order. */
  results: CheckedText[];
  /** How many of the files were checked in threads (the rest inline). */
  inThreads: number;
}

/** Reads and checks every job's file. A file that cannot be read throws. */
export async function checkFiles(jobs: readonly CheckJob[], options: CheckOptions = {}): Promise<CheckedFiles> {
  const threads = options.threads ?? defaultThreads(jobs.length);
  const chunks: CheckChunk[] = [];
  for (let start = 0; start < jobs.length; start += CHUNK_SIZE) {
    chunks.push({ id: chunks.length, jobs: jobs.slice(start, start + CHUNK_SIZE) });
  }
  const dispatch = new ChunkDispatch(chunks, Math.max(threads, 0), options.threadEntry ?? defaultThreadEntry());
  if (threads <= 0 || (options.mainThread ?? true)) void dispatch.checkOnMainThread();
  const results = await dispatch.done;
  return { results, inThreads: jobs.length - dispatch.checkedOnMainThread };
}

/** Below this many files the content is checked inline. */
const MIN_FILES_FOR_THREADS = 1000;

// --- internal ---

const CHUNK_SIZE = 32;
/** Chunks a thread holds at once, so it never waits for the next. */
const CHUNKS_IN_FLIGHT = 2;
const MAX_THREADS = 7;

function defaultThreads(files: number): number {
  return files < MIN_FILES_FOR_THREADS ? 0 : Math.min(availableParallelism() - 1, MAX_THREADS);
}

/**
 * Hands chunks out as they are asked for, to the threads and to the main
 * thread; `done` gives every result in the jobs' order. A thread that fails
 * to start or dies gives its chunks back to the others; when none is left,
 * the main thread takes over, so a missing loader slows the check down but
 * never breaks it.
 */
class ChunkDispatch {
  readonly done: Promise<CheckedText[]>;
  /** Files checked on the main thread so far. */
  checkedOnMainThread = 0;
  /** Chunks not yet handed out, the next one last. */
  private readonly waiting: CheckChunk[];
  private remaining: number;
  private readonly results: CheckedText[] = [];
  /** The texts that checked files repeat, kept once as each chunk comes in (not once all are in). */
  private readonly intern = createIntern();
  /** Each live thread, with the ids of the chunks it holds. */
  private readonly threads = new Map<Worker, Set<number>>();
  private onMainThread = false;
  private settle!: (error?: Error) => void;

  constructor(private readonly chunks: CheckChunk[], threads: number, entry: URL) {
    this.waiting = [...chunks].reverse();
    this.remaining = chunks.length;
    this.done = new Promise((resolve, reject) => {
      this.settle = (error) => {
        this.settle = () => undefined;
        this.waiting.length = 0;
        for (const worker of this.threads.keys()) {
          // A thread ends a moment later, and until then its listeners would hold every result.
          worker.removeAllListeners();
          worker.on('error', ignoreError);
          void worker.terminate();
        }
        this.threads.clear();
        if (error) reject(error);
        else resolve(this.results);
      };
    });
    if (chunks.length === 0) this.settle();
    const loader = threads > 0 && entry.pathname.endsWith('.ts') ? tsxLoader() : null;
    for (let i = 0; i < threads && chunks.length > 0; i++) this.start(entry, loader);
  }

  /**
   * The main thread's share: it takes chunks like the threads do, from the
   * start (a thread takes a moment to load the checking modules). Beside
   * threads it reads with plain synchronous calls (cheapest; other reads
   * overlap in the threads) and yields after each chunk so that their answers
   * come in; alone, it reads a chunk's files concurrently so that reads overlap
   * on a cold disk. A read failure ends the check through `done`.
   */
  async checkOnMainThread(): Promise<void> {
    if (this.onMainThread) return;
    this.onMainThread = true;
    try {
      while (this.waiting.length > 0) {
        const chunk = this.waiting.pop()!;
        const beside = this.threads.size > 0;
        const texts = beside
          ? chunk.jobs.map((job) => readFileSync(job.file, 'utf8'))
          : await Promise.all(chunk.jobs.map((job) => readFile(job.file, 'utf8')));
        this.checkedOnMainThread += chunk.jobs.length;
        this.store(
          chunk.id,
          chunk.jobs.map((job, i) => checkAndHash(job.file, job.place, texts[i]!)),
        );
        if (beside) await new Promise(setImmediate);
      }
    } catch (error) {
      this.settle(error as Error);
    } finally {
      this.onMainThread = false;
    }
  }

  private start(entry: URL, loader: string | null): void {
    const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { entry: entry.href, loader }, execArgv: threadFlags() });
    this.threads.set(worker, new Set());
    worker.on('message', (message: 'ready' | CheckChunkResult) => this.receive(worker, message));
    worker.on('error', () => this.lose(worker));
    worker.on('exit', () => this.lose(worker));
  }

  /** A thread is ready, or answers a chunk: either way it can take more. */
  private receive(worker: Worker, message: 'ready' | CheckChunkResult): void {
    if (message !== 'ready') {
      if ('failure' in message) return this.settle(new Error(message.failure));
      this.threads.get(worker)?.delete(message.id);
      this.store(message.id, message.results);
    }
    this.feed(worker);
  }

  private store(id: number, results: CheckedText[]): void {
    const start = id * CHUNK_SIZE;
    results.forEach((result, offset) => {
      shareCheckedTexts(result, this.intern);
      this.results[start + offset] = result;
    });
    if (--this.remaining === 0) this.settle();
  }

  private feed(worker: Worker): void {
    const held = this.threads.get(worker);
    while (held && held.size < CHUNKS_IN_FLIGHT && this.waiting.length > 0) {
      const chunk = this.waiting.pop()!;
      held.add(chunk.id);
      worker.postMessage(chunk);
    }
  }

  /** A thread that failed or ended: its chunks go back to the others, or to the main thread when none is left. */
  private lose(worker: Worker): void {
    const held = this.threads.get(worker);
    if (!held) return;
    this.threads.delete(worker);
    for (const id of held) this.waiting.push(this.chunks[id]!);
    for (const other of this.threads.keys()) this.feed(other);
    if (this.threads.size === 0) void this.checkOnMainThread();
  }
}

/** For a thread ended on purpose; made out here so that it holds no dispatch alive. */
function ignoreError(): void {}

/** check-thread.ts, or its compiled JavaScript beside this file. */
function defaultThreadEntry(): URL {
  return new URL(`./check-thread${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);
}

/** The ES module build of tsx's API (its CommonJS build cannot register the loader in a thread). */
function tsxLoader(): string {
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const exports = (JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> }).exports;
  return pathToFileURL(join(dirname(manifest), exports['./esm/api']!.import.default)).href;
}

/**
 * The thread's source is a string so that it runs the same under tsx, vitest
 * or compiled JavaScript: a TypeScript entry (check-thread.ts) is loaded
 * through tsx's API, which is there whenever this file runs as TypeScript.
 */
const THREAD_SOURCE = `
const { workerData } = require('node:worker_threads');
const { entry, loader } = workerData;
if (loader) import(loader).then(({ tsImport }) => tsImport(entry, entry));
else import(entry);
`;
