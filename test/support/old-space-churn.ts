/** How many arrays `churnOldSpace()` keeps live (some 40 MiB). */
export const LIVE_ARRAYS = 24;

/**
 * Source text for a child process (run with --expose-gc) that measures V8's old space at a point
 * of its work: `churnOldSpace()` holds ~40 MiB live, then makes ~200 MiB of garbage that outlives
 * the young generation, and returns the old space's used size after a full collection with the
 * live set held (`held`), its largest size meanwhile (`peak`), and how many arrays it kept live.
 * Left to V8, the old space grows to 5 times the live size; held near it (heap.ts), under 2 (twice
 * the live set and three times the garbage cost three times the CPU, for the same two figures).
 */
export const CHURN_OLD_SPACE = `
import { getHeapSpaceStatistics } from 'node:v8';
const oldSpace = () => getHeapSpaceStatistics().find((space) => space.space_name === 'old_space');
function churnOldSpace() {
  const live = [];
  for (let i = 0; i < ${LIVE_ARRAYS}; i++) live.push(Array.from({ length: 50_000 }, (_, j) => ({ j })));
  globalThis.gc();
  const held = oldSpace().space_used_size;
  let peak = 0;
  let recent = [];
  for (let round = 0; round < 300; round++) {
    recent.push(Array.from({ length: 20_000 }, (_, j) => ({ j, round })));
    if (recent.length > 24) recent = [];
    peak = Math.max(peak, oldSpace().space_size);
  }
  return { held, peak, kept: live.length };
}
`;
