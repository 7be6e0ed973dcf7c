/**
 * A full pull whose read failed dropped its staging folder while other components were still
 * being written to it: a write after the removal made `.pull-staged/` again without its marker,
 * and the next pull refused the folder as the user's ("was not made by a pull"); or the removal
 * met a folder filling up and the pull ended with an internal error (exit 2). Seen about one run
 * in three of issue-22-pull-resume-answers. A drop now waits for the writes under way and refuses
 * new ones.
 */
import { describe, expect, it } from 'vitest';
import { stageWrites } from '../../src/pull/stage.ts';

describe("the pull's stage, dropped while a component is written", () => {
  it('waits for the write under way before it removes anything, and refuses writes after', async () => {
    const writes = stageWrites();
    const order: string[] = [];
    let finishWrite = () => {};
    const written = writes.run(
      () =>
        new Promise<void>((resolve) => {
          finishWrite = () => {
            order.push('written');
            resolve();
          };
        }),
    );
    const dropped = writes.stop().then(() => order.push('dropped'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([]);
    finishWrite();
    await dropped;
    expect(order).toEqual(['written', 'dropped']);
    expect(await written).toBe(true);
    let ranLate = false;
    expect(await writes.run(async () => void (ranLate = true))).toBe(false);
    expect(ranLate).toBe(false);
  });

  it('waits for a write that fails, and lets its failure reach its caller', async () => {
    const writes = stageWrites();
    const failing = writes.run(async () => {
      await new Promise((resolve) => setImmediate(resolve));
      throw new Error('disk full');
    });
    await writes.stop();
    await expect(failing).rejects.toThrow('disk full');
  });
});
