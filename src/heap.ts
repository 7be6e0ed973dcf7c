/**
 * A publish keeps the model live for its whole run and makes garbage at each of millions of
 * uploads. Left to itself, V8 lets the old space grow to several times what is live before it
 * collects it whole (at 200,000 translations 594 MiB for 176 MiB live), so the process's peak
 * follows the garbage, not the instance. While a publish runs, the heap grows only a fixed
 * share past what the last full collection left, and each full collection compacts pages a fifth
 * empty rather than seven tenths (V8's `--optimize-for-size`), so that the pages the opening's
 * garbage left half empty are given back; V8's own heuristics are back once it ends. A build
 * into a folder holds it only around its phases whose garbage is large beside what stays: the
 * opening of the content and the records written after the tree (build.ts), and a whole new
 * tree's status site, whose pages outlive the young generation (tree/groups.ts).
 */
import { setFlagsFromString } from 'node:v8';

/** Runs `work` with the heap held near its live size (runs may overlap: the last to end lets go). */
export async function withHeapNearLive<T>(work: () => Promise<T>): Promise<T> {
  const release = holdHeapNearLive();
  try {
    return await work();
  } finally {
    release();
  }
}

/**
 * Passes `items` on with the heap held near its live size from the first asked for until the
 * last is taken or the caller stops taking them: for a generator of work whose garbage is large
 * beside what stays, inside a longer run that is left to V8.
 */
export function* heapNearLiveWhile<T>(items: Iterable<T>): Generator<T> {
  const release = holdHeapNearLive();
  try {
    yield* items;
  } finally {
    release();
  }
}

// --- internal ---

/** How far past the live size the heap may grow before a full collection, in percent. */
const HEAP_GROWTH_PERCENT = 20;

let holders = 0;

/** Holds the heap near its live size until the function returned is called (once). */
function holdHeapNearLive(): () => void {
  if (holders++ === 0) {
    setFlagsFromString(`--heap-growing-percent=${HEAP_GROWTH_PERCENT}`);
    setFlagsFromString('--optimize-for-size');
  }
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    // 0 is V8's default: the growth chosen from how fast it collects.
    if (--holders === 0) {
      setFlagsFromString('--heap-growing-percent=0');
      setFlagsFromString('--no-optimize-for-size');
    }
  };
}
