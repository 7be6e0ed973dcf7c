/**
 * SVG drawings rasterised to PNG in worker threads, so the renderings run on
 * another core while the main thread renders and writes the rest of a tree.
 * resvg 2.6 leaks each rendering's pixmap (thx/resvg-js#216) and a gc() does
 * not return it, but ending the thread does: a worker takes drawings until it
 * has drawn a budget of pixels, then a fresh one takes over once the old one
 * has answered and ended. One worker lives at a time (each holds an isolate,
 * the fonts and its pixmaps), and an idle one is ended, so a long session
 * holds none of their memory.
 *
 * Answers come back on a port the main thread owns, so it can take them as
 * events while it awaits writes, or block for one it needs now: the worker
 * bumps a shared counter after each answer, which the main thread waits on.
 */
import {
  MessageChannel,
  receiveMessageOnPort,
  Worker,
  type MessagePort,
} from 'node:worker_threads';
import { threadFlags } from '../threads.ts';

interface RasteriserOptions {
  /** The resolved path of `@resvg/resvg-js`, which the worker requires. */
  resvgPath: string;
  /** The font files every drawing is rendered with (no system font is read). */
  fontFiles: string[];
  /** Pixels a worker draws before a fresh one takes over. */
  pixelBudget?: number;
}

/** Renders drawings to PNG bytes: now (blocking until the bytes are in) or ahead of need. */
export class Rasteriser {
  /** Workers started so far: each holds the pixmaps of what it drew until it ends. */
  workersStarted = 0;
  /** The most workers alive at once. */
  peakWorkers = 0;
  private readonly counter = new Int32Array(new SharedArrayBuffer(4));
  private readonly slots: Slot[] = [];
  /** Drawings asked for and not yet sent to a worker; the first is needed soonest. */
  private readonly queue: string[] = [];
  /** Drawings queued or sent whose answer is not in. */
  private readonly inFlight = new Set<string>();
  private readonly sent = new Map<number, { svg: string; slot: Slot }>();
  /** Drawings rendered ahead of need and not yet taken, and their bytes. */
  private readonly ahead = new Map<string, Uint8Array>();
  private aheadBytes = 0;
  /** Drawings already taken, kept so two projects at the same figures share one rendering. */
  private readonly cache = new Map<string, Uint8Array>();
  private cacheBytes = 0;
  private readonly failures = new Map<string, string>();
  private readonly sources: Iterator<string>[] = [];
  private nextId = 0;
  private sentCount = 0;
  private idle: NodeJS.Timeout | null = null;

  constructor(private readonly options: RasteriserOptions) {}

  /** The PNG bytes of a drawing, at its own width and height. */
  render(svg: string): Uint8Array {
    const known = this.take(svg);
    if (known) return known;
    this.throwIfFailed(svg);
    // Bytes ahead that fill the allowance while another drawing is needed were skipped over.
    if (this.aheadBytes >= AHEAD_BYTES) this.dropAhead(AHEAD_BYTES / 2);
    // Needed now: to the front of the queue (a drawing already sent is only waited for).
    const queued = this.queue.indexOf(svg);
    if (queued >= 0) this.queue.splice(queued, 1);
    if (queued >= 0 || !this.inFlight.has(svg)) this.queue.unshift(svg);
    this.inFlight.add(svg);
    this.pump();
    return this.waitFor(svg);
  }

  /**
   * Starts rendering drawings in the background, a bounded number ahead of
   * those taken, after those asked for before; or, `instead`, in place of
   * them (a whole new tree supersedes what an earlier one left untaken).
   */
  prefetch(drawings: Iterable<string>, instead = false): void {
    if (instead) {
      this.sources.length = 0;
      this.dropAhead(0);
    }
    this.sources.push(drawings[Symbol.iterator]());
    this.pump();
  }

  /** Drawings sent to a worker so far: those rendered, not taken from memory. */
  get drawn(): number {
    return this.sentCount;
  }

  /** Ends every worker now (they end on their own when idle). */
  close(): void {
    for (const slot of [...this.slots]) this.end(slot);
  }

  /**
   * Ends every worker and forgets every rendering held or asked for, so that a run that is over
   * (a publish going on to write its record and cache) holds none of their bytes.
   */
  release(): void {
    this.close();
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    this.sources.length = 0;
    this.queue.length = 0;
    this.inFlight.clear();
    this.sent.clear();
    this.failures.clear();
    this.ahead.clear();
    this.aheadBytes = 0;
    this.cache.clear();
    this.cacheBytes = 0;
  }

  // --- internal ---

  private take(svg: string): Uint8Array | undefined {
    const cached = this.cache.get(svg);
    if (cached) {
      // Last to be forgotten: a drawing many projects share (a badge at 100%) stays.
      this.cache.delete(svg);
      this.cache.set(svg, cached);
      return cached;
    }
    const png = this.ahead.get(svg);
    if (!png) return undefined;
    this.ahead.delete(svg);
    this.aheadBytes -= png.byteLength;
    this.remember(svg, png);
    this.pump();
    return png;
  }

  /** Forgets the oldest drawings rendered ahead until their bytes are down to `bytes`. */
  private dropAhead(bytes: number): void {
    for (const [svg, png] of this.ahead) {
      if (this.aheadBytes <= bytes) break;
      this.ahead.delete(svg);
      this.aheadBytes -= png.byteLength;
    }
  }

  /** Keeps the bytes by drawing; the least recently taken go first once the cache is full. */
  private remember(svg: string, png: Uint8Array): void {
    this.cache.set(svg, png);
    this.cacheBytes += png.byteLength;
    for (const [old, bytes] of this.cache) {
      if (this.cacheBytes <= CACHE_BYTES) break;
      this.cache.delete(old);
      this.cacheBytes -= bytes.byteLength;
    }
  }

  /** Blocks until the drawing's answer is in, taking every answer that arrives meanwhile. */
  private waitFor(svg: string): Uint8Array {
    for (;;) {
      const seen = Atomics.load(this.counter, 0);
      for (const slot of [...this.slots]) this.receive(slot);
      const png = this.take(svg);
      if (png) return png;
      this.throwIfFailed(svg);
      if (!this.inFlight.has(svg)) throw new Error('Internal error: a drawing was never sent');
      if (Atomics.wait(this.counter, 0, seen, ANSWER_WAIT_MS) === 'timed-out')
        throw new Error(
          `Internal error: no PNG rendering answered in ${ANSWER_WAIT_MS / 1000} s ` +
            `(${this.sent.size} sent, ${this.slots.length} workers)`,
        );
    }
  }

  /** A drawing the worker could not render (asked for ahead, or now) is a bug of its drawing. */
  private throwIfFailed(svg: string): void {
    const failure = this.failures.get(svg);
    if (failure === undefined) return;
    this.failures.delete(svg);
    throw new Error(`Internal error: resvg could not render a drawing: ${failure}`);
  }

  /** Takes the answers waiting on a worker's port, until it has none or has ended. */
  private receive(slot: Slot): void {
    while (this.slots.includes(slot)) {
      const got = receiveMessageOnPort(slot.port);
      if (!got) return;
      this.accept(got.message as Answer);
    }
  }

  private accept(answer: Answer): void {
    const request = this.sent.get(answer.id);
    if (!request) return;
    this.sent.delete(answer.id);
    this.inFlight.delete(request.svg);
    request.slot.outstanding--;
    if (answer.png) {
      this.ahead.set(request.svg, answer.png);
      this.aheadBytes += answer.png.byteLength;
    } else this.failures.set(request.svg, answer.error ?? 'no answer');
    if (request.slot.retired && request.slot.outstanding === 0) this.end(request.slot);
    this.pump();
  }

  /** Tops the queue up from the prefetched drawings and sends what a worker can take. */
  private pump(): void {
    this.topUp();
    while (this.queue.length > 0) {
      const slot = this.slotToSend();
      if (!slot) break;
      this.send(slot, this.queue.shift()!);
    }
    this.watchIdle();
  }

  /** Asks for the next prefetched drawings while few are in flight and the bytes ahead are few. */
  private topUp(): void {
    while (
      this.sources.length > 0 &&
      this.inFlight.size < AHEAD_IN_FLIGHT &&
      this.aheadBytes < AHEAD_BYTES
    ) {
      const next = this.sources[0]!.next();
      if (next.done) this.sources.shift();
      else if (!this.inFlight.has(next.value) && !this.cache.has(next.value)) {
        if (this.ahead.has(next.value)) continue;
        this.inFlight.add(next.value);
        this.queue.push(next.value);
      }
    }
  }

  /**
   * The worker to send to: the live one while under its budget, else a fresh
   * one once the retired one has answered and ended (its pixmaps go with it).
   * Starting the next one early would overlap start-ups, but held two workers'
   * memory at once, some 35 MB more at the peak of a publish.
   */
  private slotToSend(): Slot | null {
    const budget = this.options.pixelBudget ?? PIXEL_BUDGET;
    for (const slot of [...this.slots]) {
      if (slot.retired) continue;
      if (slot.pixels < budget) return slot;
      slot.retired = true;
      if (slot.outstanding === 0) this.end(slot);
    }
    if (this.slots.length > 0) return null;
    const slot = this.start();
    this.slots.push(slot);
    this.peakWorkers = Math.max(this.peakWorkers, this.slots.length);
    return slot;
  }

  private send(slot: Slot, svg: string): void {
    const id = this.nextId++;
    this.sentCount++;
    slot.pixels += pixelsOf(svg);
    slot.outstanding++;
    this.sent.set(id, { svg, slot });
    slot.port.postMessage({ id, svg });
  }

  private start(): Slot {
    this.workersStarted++;
    const { port1, port2 } = new MessageChannel();
    const workerData = {
      port: port2,
      counter: this.counter.buffer,
      resvgPath: this.options.resvgPath,
      fontFiles: this.options.fontFiles,
    };
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData,
      transferList: [port2],
      execArgv: threadFlags(),
    });
    const slot: Slot = { worker, port: port1, outstanding: 0, pixels: 0, retired: false };
    port1.on('message', (answer: Answer) => this.accept(answer));
    worker.on('error', (error) => this.lose(slot, error));
    // Neither keeps a process alive: a caller that needs bytes waits for them itself.
    port1.unref();
    worker.unref();
    return slot;
  }

  /** A worker that died: its drawings fail (the waiting caller throws), the rest go to another. */
  private lose(slot: Slot, error: Error): void {
    for (const [id, request] of this.sent) {
      if (request.slot !== slot) continue;
      this.sent.delete(id);
      this.inFlight.delete(request.svg);
      this.failures.set(request.svg, error.message);
    }
    this.end(slot);
    this.pump();
  }

  private end(slot: Slot): void {
    const at = this.slots.indexOf(slot);
    if (at < 0) return;
    this.slots.splice(at, 1);
    slot.port.close();
    void slot.worker.terminate();
  }

  /** Ends the workers once nothing is asked of them for a while. */
  private watchIdle(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    if (this.sent.size > 0 || this.queue.length > 0 || this.slots.length === 0) return;
    this.idle = setTimeout(() => this.close(), IDLE_MS).unref();
  }
}

// --- internal ---

interface Slot {
  worker: Worker;
  port: MessagePort;
  outstanding: number;
  /** Pixels of the drawings sent to it, which its leaked pixmaps grow with. */
  pixels: number;
  /** Past its budget: it takes nothing new and ends once its answers are in. */
  retired: boolean;
}

interface Answer {
  id: number;
  png?: Uint8Array;
  error?: string;
}

/**
 * About 16 MB of RGBA pixmaps: five Open Graph panels a worker. A larger budget adds its pixmaps
 * to the peak of a build or publish (16 million pixels, with two workers alive at once, made it
 * some 100 MB higher at 20,000 translations); a fresh worker costs some 30 ms of CPU.
 */
const PIXEL_BUDGET = 4_000_000;
const AHEAD_IN_FLIGHT = 8;
const AHEAD_BYTES = 32 * 1024 * 1024;
const CACHE_BYTES = 16 * 1024 * 1024;
const ANSWER_WAIT_MS = 60_000;
const IDLE_MS = 1000;

/** The width × height of a drawing's root, which its pixmap is made of. */
function pixelsOf(svg: string): number {
  const root = /^<svg\b[^>]*?\swidth="(\d+)"[^>]*?\sheight="(\d+)"/.exec(svg);
  return root ? Number(root[1]) * Number(root[2]) : 1200 * 630;
}

// Plain CommonJS, so it runs the same under tsx, vitest or the compiled package.
// It answers every request, with bytes or an error, and bumps the counter after each.
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const { port, resvgPath, fontFiles } = workerData;
const counter = new Int32Array(workerData.counter);
let Resvg = null;
let loadError = null;
try {
  Resvg = require(resvgPath).Resvg;
} catch (error) {
  loadError = error;
}
const font = { fontFiles, loadSystemFonts: false, defaultFontFamily: 'DejaVu Sans' };
port.on('message', ({ id, svg }) => {
  try {
    if (loadError) throw loadError;
    const png = new Uint8Array(new Resvg(svg, { font }).render().asPng());
    port.postMessage({ id, png }, [png.buffer]);
  } catch (error) {
    port.postMessage({ id, error: String((error && error.message) || error) });
  }
  Atomics.add(counter, 0, 1);
  Atomics.notify(counter, 0);
});
`;
