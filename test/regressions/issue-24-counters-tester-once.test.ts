/**
 * Issue 24 (the suite's time): the setup file that teaches `toEqual` to read a translation's
 * counters added its tester again for each test file, into a list Vitest keeps for the whole
 * worker; with files sharing a worker, the hundredth file compared every value with a hundred
 * copies. Run again, as the next file of a worker runs it, the setup adds nothing.
 */
import { expect, it } from 'vitest';

const MATCHERS = Symbol.for('$$jest-matchers-object');

function countersTesters(): number {
  const state = (globalThis as Record<symbol, { customEqualityTesters: { name: string }[] }>)[
    MATCHERS
  ]!;
  return state.customEqualityTesters.filter((tester) => tester.name === 'countersEqual').length;
}

it("adds the counters' equality tester once a worker, however many files run the setup", async () => {
  expect(countersTesters()).toBe(1);
  // The query makes a module of its own, run afresh as the setup file is before each file.
  const setupAgain = '../support/counters-equality.ts?next-file';
  await import(setupAgain);
  expect(countersTesters()).toBe(1);
});
