/**
 * Set up before each test file: `toEqual` compares a translation's counters by what they say.
 * A model's counters are views of shared rows (model/packed-translations.ts) whose numbers are
 * getters, which a structural comparison does not read: two models whose counters differed
 * would otherwise compare equal.
 */
import { expect } from 'vitest';
import { isPacked } from '../../src/model/packed-translations.ts';
import { emptyCounters, type Counters } from '../../src/model/statistics.ts';

const FIELDS = Object.keys(emptyCounters()) as (keyof Counters)[];

expect.addEqualityTesters([
  function countersEqual(a: unknown, b: unknown, testers) {
    if (!isCounters(a) || !isCounters(b) || !(isPacked(a) || isPacked(b))) return undefined;
    return FIELDS.every((field) => this.equals(a[field], b[field], testers));
  },
]);

function isCounters(value: unknown): value is Counters {
  return typeof value === 'object' && value !== null && 'last_change' in value;
}
