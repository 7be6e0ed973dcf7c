/** When a mirror refreshes: --every's values, and a queue that never overlaps refreshes and merges a burst into one. */
import { describe, expect, it } from 'vitest';
import { parseInterval, refreshQueue } from '../../src/mirror/schedule.ts';
import type { ChangedPlace } from '../../src/pull/refresh.ts';

describe('parseInterval', () => {
  it.each([
    ['30s', 30_000],
    ['10m', 600_000],
    ['2h', 7_200_000],
  ])('reads %s', (text, ms) => expect(parseInterval(text)).toBe(ms));

  it.each(['10', '10 m', '0s', '1d', '-5m', '200h'])('refuses %j naming the flag', (text) => {
    expect(() => parseInterval(text)).toThrow(`--every expects a number and s, m or h`);
  });
});

describe('refreshQueue', () => {
  /** A queue whose refreshes wait until the test lets them end. */
  function gatedQueue() {
    const runs: (ChangedPlace[] | undefined)[] = [];
    let running = 0;
    let most = 0;
    const gates: (() => void)[] = [];
    const queue = refreshQueue(async (places) => {
      runs.push(places);
      most = Math.max(most, ++running);
      await new Promise<void>((done) => gates.push(done));
      running--;
    });
    const release = async () => {
      while (gates.length === 0) await Promise.resolve();
      gates.shift()!();
    };
    return { queue, runs, release, most: () => most };
  }

  it('merges the deliveries of a burst during a refresh into the next one, never two at once', async () => {
    const { queue, runs, release, most } = gatedQueue();
    queue.request([{ project: 'a', component: 'x' }]);
    queue.request([{ project: 'b', component: 'y' }]);
    queue.request([{ project: 'a', component: 'x' }]);
    queue.request([{ project: 'c' }]);
    await release();
    await release();
    await queue.idle();
    expect(runs).toEqual([
      [{ project: 'a', component: 'x' }],
      [{ project: 'b', component: 'y' }, { project: 'a', component: 'x' }, { project: 'c' }],
    ]);
    expect(most()).toBe(1);
  });

  it('a request for everything swallows the places waiting with it', async () => {
    const { queue, runs, release } = gatedQueue();
    queue.request([{ project: 'a' }]);
    queue.request([{ project: 'b' }]);
    queue.request();
    queue.request([{ project: 'c' }]);
    await release();
    await release();
    await queue.idle();
    expect(runs).toEqual([[{ project: 'a' }], undefined]);
  });
});
