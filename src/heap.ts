/**
 * A publish keeps the model live for its whole run and makes garbage at each of millions of
 * uploads. Left to itself, V8 lets the old space grow to several times what is live before it
 * collects it whole (at 200,000 translations 594 MiB for 176 MiB live), so the process's peak
 * follows the garbage, not the instance. While a publish runs, the heap grows only a fixed
 * share past what the last full collection left, and each full collection compacts pages a fifth
 * empty rather than seven tenths (V8's `--optimize-for-size`), so that the pages the opening's
 * garbage left half empty are given back; V8's own heuristics are back once it ends. A build
 * into a folder holds it so around its phases whose garbage is large beside what stays: the
 * opening of the content, the records written after the tree (build.ts), and a whole new tree's
 * status site (tree/groups.ts). While it writes the API's groups of a whole new tree, the heap is
 * bounded more loosely: half again the live size, with V8's own compaction. Left to V8, the old
 * space grew past twice the live model (1,197 MiB at a million translations without the status
 * site); held as near as a publish holds it, the build took a third more CPU; bounded so, it
 * takes no more CPU than left to V8.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Runs `work` with the heap held near its live size (runs may overlap: the strictest hold applies). */
export async function withHeapNearLive<T>(work: () => Promise<T>): Promise<T> {
  const release = holdHeap(NEAR_LIVE);
  try {
    return await work();
  } finally {
    release();
  }
}

/**
 * Passes `items` on with the heap held near its live size from the first asked for until the
 * last is taken or the caller stops taking them: for a generator of work whose garbage is large
 * beside what stays, inside a longer run.
 */
export function heapNearLiveWhile<T>(items: Iterable<T>): Generator<T> {
  return heldWhile(NEAR_LIVE, items);
}

/**
 * Passes `items` on with the heap bounded at half again its live size, from the first asked for
 * until the last is taken or the caller stops taking them: for the API's groups of a whole new
 * tree, whose garbage is large beside the model (a near-live hold around it still applies).
 */
export function heapBoundedWhile<T>(items: Iterable<T>): Generator<T> {
  return heldWhile(BOUNDED, items);
}

/**
 * A full collection now. For the moment a large structure has just become garbage and large
 * buffers outside the heap are about to be made: V8 collects when its heap grows, and a phase that
 * allocates outside it leaves the garbage in place. At a million translations, the manifest's
 * index (its text read whole, some 310 MB, and the index made of it) was made beside the model's
 * pages and the build cache's encoded parts, all garbage, and took the build from 732 to 1,073 MiB.
 */
export function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  // A context made after the flag is set has V8's gc() among its globals.
  (runInNewContext('gc') as () => void)();
}

// --- internal ---

/** How far past the live size the heap may grow before a full collection, and how it compacts. */
interface Hold {
  growthPercent: number;
  optimizeForSize: boolean;
}

/** Near the live size: a publish, the opening of the content, a new status site, the records. */
const NEAR_LIVE: Hold = { growthPercent: 20, optimizeForSize: true };
/**
 * While the API's groups of a whole new tree are written: at 200,000 translations without the
 * status site, into memory, the peak RSS went from 586 to 395 MiB for the same user CPU (51.7 and
 * 51.1 s), where NEAR_LIVE took it to 358 MiB for 67.6 s.
 */
const BOUNDED: Hold = { growthPercent: 50, optimizeForSize: false };

/** The holds in effect; the strictest of them applies (a build's tree inside a publish). */
const holds: Hold[] = [];

/** Passes `items` on with `hold` in effect from the first asked for until the last is taken or the caller stops. */
function* heldWhile<T>(hold: Hold, items: Iterable<T>): Generator<T> {
  const release = holdHeap(hold);
  try {
    yield* items;
  } finally {
    release();
  }
}

/** Adds a hold until the function returned is called (once). */
function holdHeap(hold: Hold): () => void {
  holds.push(hold);
  applyHolds();
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    holds.splice(holds.indexOf(hold), 1);
    applyHolds();
  };
}

/** Sets V8's flags for the holds in effect; with none, V8's defaults. */
function applyHolds(): void {
  // 0 is V8's default: the growth chosen from how fast it collects.
  const growth = Math.min(...holds.map((hold) => hold.growthPercent), Infinity);
  setFlagsFromString(`--heap-growing-percent=${Number.isFinite(growth) ? growth : 0}`);
  const forSize = holds.some((hold) => hold.optimizeForSize);
  setFlagsFromString(forSize ? '--optimize-for-size' : '--no-optimize-for-size');
}
