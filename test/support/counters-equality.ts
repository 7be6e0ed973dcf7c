/**
 * Set up before each test file: `toEqual` compares a translation's counters by what they say.
 * A model's counters are views of shared rows (model/packed-translations.ts) whose numbers are
 * getters, which a structural comparison does not read: two models whose counters differed
 * would otherwise compare equal.
 *
 * Vitest keeps the testers in one list for the whole worker, and files that share a worker
 * (`isolate: false`) run this file each: the tester is added once per worker, not once a file
 * (after a hundred files, every comparison of every value asked a hundred copies).
 */
import { expect } from 'vitest';
import { isPacked } from '../../src/model/packed-translations.ts';
import { emptyCounters, type Counters } from '../../src/model/statistics.ts';

const FIELDS = Object.keys(emptyCounters()) as (keyof Counters)[];
const ADDED = Symbol.for('weblate-snapshot.tests.counters-equality');

const worker = globalThis as { [ADDED]?: true };
if (!worker[ADDED]) {
  worker[ADDED] = true;
  expect.addEqualityTesters([
    function countersEqual(a: unknown, b: unknown, testers) {
      if (!isCounters(a) || !isCounters(b) || !(isPacked(a) || isPacked(b))) return undefined;
      return FIELDS.every((field) => this.equals(a[field], b[field], testers));
    },
  ]);
}

function isCounters(value: unknown): value is Counters {
  return typeof value === 'object' && value !== null && 'last_change' in value;
}
