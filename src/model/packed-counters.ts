/**
 * Translations' counters held compactly. A model holds one counters object per
 * translation, and a plain object of 21 fields takes some 200 bytes (without
 * pointer compression every field is 8 bytes): a million translations' took
 * 200 MB. Here the 20 numbers of many translations share one 32-bit array,
 * each translation's read through a small view of three fields.
 */
import { COUNTER_NUMBERS, type Counters } from './statistics.ts';
import type { Timestamp } from './timestamps.ts';

/** Makes a translation's counters compact; the result reads the same, field by field. */
export type CounterPacker = (counters: Counters) => Counters;

/**
 * A packer for one model (or one patch of it): rows are handed out from
 * arrays that grow as the model does, so that a component of one translation
 * does not cost an array of its own.
 */
export function createCounterPacker(): CounterPacker {
  let rows = new Int32Array(0);
  let used = 0;
  return (counters) => {
    if (!fitsRow(counters)) return counters;
    if (used === rows.length) {
      rows = new Int32Array(Math.min(rows.length * 2 || FIRST_ROWS, MAX_ROWS) * WIDTH);
      used = 0;
    }
    for (let k = 0; k < WIDTH; k++) rows[used + k] = counters[COUNTER_NUMBERS[k]!];
    used += WIDTH;
    return new PackedCounters(rows, used - WIDTH, counters.last_change);
  };
}

/** Whether counters are held compactly (a number beyond 32 bits keeps its plain object). */
export function isPacked(counters: Counters): boolean {
  return counters instanceof PackedCounters;
}

// --- internal ---

const WIDTH = COUNTER_NUMBERS.length;
/** Rows of the first array, and of the largest (about 330 KB). */
const FIRST_ROWS = 64;
const MAX_ROWS = 4096;

function fitsRow(counters: Counters): boolean {
  for (const name of COUNTER_NUMBERS) if ((counters[name] | 0) !== counters[name]) return false;
  return true;
}

/**
 * One translation's counters: its row of a shared array, and its last change.
 * Read-only, as the model is; private fields, so that a comparison of two
 * models compares what the counters say rather than where they are kept.
 */
class PackedCounters implements Counters {
  readonly #rows: Int32Array;
  readonly #at: number;
  readonly last_change: Timestamp | null;

  constructor(rows: Int32Array, at: number, lastChange: Timestamp | null) {
    this.#rows = rows;
    this.#at = at;
    this.last_change = lastChange;
  }

  get total(): number {
    return this.#rows[this.#at]!;
  }
  get total_words(): number {
    return this.#rows[this.#at + 1]!;
  }
  get total_chars(): number {
    return this.#rows[this.#at + 2]!;
  }
  get translated(): number {
    return this.#rows[this.#at + 3]!;
  }
  get translated_words(): number {
    return this.#rows[this.#at + 4]!;
  }
  get translated_chars(): number {
    return this.#rows[this.#at + 5]!;
  }
  get fuzzy(): number {
    return this.#rows[this.#at + 6]!;
  }
  get fuzzy_words(): number {
    return this.#rows[this.#at + 7]!;
  }
  get fuzzy_chars(): number {
    return this.#rows[this.#at + 8]!;
  }
  get failing_checks(): number {
    return this.#rows[this.#at + 9]!;
  }
  get failing_checks_words(): number {
    return this.#rows[this.#at + 10]!;
  }
  get approved(): number {
    return this.#rows[this.#at + 11]!;
  }
  get approved_words(): number {
    return this.#rows[this.#at + 12]!;
  }
  get approved_chars(): number {
    return this.#rows[this.#at + 13]!;
  }
  get readonly(): number {
    return this.#rows[this.#at + 14]!;
  }
  get readonly_words(): number {
    return this.#rows[this.#at + 15]!;
  }
  get readonly_chars(): number {
    return this.#rows[this.#at + 16]!;
  }
  get have_suggestion(): number {
    return this.#rows[this.#at + 17]!;
  }
  get have_comment(): number {
    return this.#rows[this.#at + 18]!;
  }
  get recent_changes(): number {
    return this.#rows[this.#at + 19]!;
  }
}
