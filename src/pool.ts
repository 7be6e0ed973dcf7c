/** Running async jobs over many items with a bounded number in flight. */

/** Calls `job` for every item, at most `limit` at a time; resolves when all are done, rejects on the first failure. */
export async function runPool<T>(
  items: readonly T[],
  limit: number,
  job: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await job(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
