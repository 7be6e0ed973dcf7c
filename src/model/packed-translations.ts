/**
 * Translations held compactly. A model holds one translation object per translation, and a
 * million of them took some 430 bytes each: the object, its counters (a plain object of 21
 * fields took 200 more), a box for each of its two 53-bit numbers, its time of change as a
 * text. Here the numbers of many translations share one 32-bit array (its counters, id,
 * content fingerprint, flags and time of change, a row each), and a translation is an object
 * of its texts and references that reads its numbers from its row; its counters are a small
 * view of the row, made when asked for.
 */
import { COUNTER_NUMBERS, type Counters } from './statistics.ts';
import type { Timestamp } from './timestamps.ts';
import type { Component, Language, Translation } from './types.ts';

/** Makes a translation compact; the result reads the same, field by field. */
export type TranslationPacker = (translation: Translation) => Translation;

/**
 * A packer for one model (or one patch of it): rows are handed out from arrays that grow as
 * the model does, so that a component of one translation does not cost an array of its own.
 */
export function createTranslationPacker(): TranslationPacker {
  let rows = new Int32Array(0);
  let used = 0;
  return (translation) => {
    if (!fitsRow(translation)) return translation;
    if (used === rows.length) {
      rows = new Int32Array(Math.min(rows.length * 2 || FIRST_ROWS, MAX_ROWS) * WIDTH);
      used = 0;
    }
    writeRow(rows, used, translation);
    used += WIDTH;
    return new PackedTranslation(rows, used - WIDTH, translation);
  };
}

/** Whether counters are held compactly (a number beyond 32 bits keeps its plain object). */
export function isPacked(counters: Counters): boolean {
  return counters instanceof PackedCounters;
}

// --- internal ---

/** Where a row's numbers are, after the counters: the time of change, flags, id and fingerprint. */
const DATE = COUNTER_NUMBERS.length;
const TIME = DATE + 1;
const MICROSECONDS = DATE + 2;
const FLAGS = DATE + 3;
const ID = DATE + 4;
const FINGERPRINT = DATE + 6;
const WIDTH = DATE + 8;
/** Rows of the first array, and of the largest (about 450 KB). */
const FIRST_ROWS = 64;
const MAX_ROWS = 4096;

const IS_SOURCE = 1;
const IS_TEMPLATE = 2;
const HIGH = 2 ** 32;

/** A timestamp's form (model/timestamps.ts): `YYYY-MM-DDTHH:MM:SS.ffffff`. */
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/;

function fitsRow(t: Translation): boolean {
  const { counters } = t;
  for (const name of COUNTER_NUMBERS) if ((counters[name] | 0) !== counters[name]) return false;
  const lastChange = counters.last_change;
  return (
    (lastChange === null || TIMESTAMP.test(lastChange)) &&
    fitsTwoWords(t.id) &&
    fitsTwoWords(t.contentFingerprint)
  );
}

/** A non-negative integer below 2^53, held as two 32-bit words. */
function fitsTwoWords(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0;
}

function writeRow(rows: Int32Array, at: number, t: Translation): void {
  const { counters } = t;
  for (let k = 0; k < COUNTER_NUMBERS.length; k++) rows[at + k] = counters[COUNTER_NUMBERS[k]!];
  // A date of 0 is no time of change (a year is 1 or more).
  const text = counters.last_change ?? '0000-00-00T00:00:00.000000';
  rows[at + DATE] = Number(text.slice(0, 4) + text.slice(5, 7) + text.slice(8, 10));
  rows[at + TIME] = Number(text.slice(11, 13) + text.slice(14, 16) + text.slice(17, 19));
  rows[at + MICROSECONDS] = Number(text.slice(20));
  rows[at + FLAGS] = (t.isSource ? IS_SOURCE : 0) | (t.isTemplate ? IS_TEMPLATE : 0);
  writeTwoWords(rows, at + ID, t.id);
  writeTwoWords(rows, at + FINGERPRINT, t.contentFingerprint);
}

function writeTwoWords(rows: Int32Array, at: number, value: number): void {
  rows[at] = Math.floor(value / HIGH);
  rows[at + 1] = value | 0;
}

function readTwoWords(rows: Int32Array, at: number): number {
  return rows[at]! * HIGH + (rows[at + 1]! >>> 0);
}

/** The time of change in a row, as model/timestamps.ts writes it. */
function readTimestamp(rows: Int32Array, at: number): Timestamp | null {
  const date = rows[at + DATE]!;
  if (date === 0) return null;
  const day = String(date).padStart(8, '0');
  const time = String(rows[at + TIME]!).padStart(6, '0');
  const fraction = String(rows[at + MICROSECONDS]!).padStart(6, '0');
  return `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6)}T${time.slice(0, 2)}:${time.slice(2, 4)}:${time.slice(4)}.${fraction}` as Timestamp;
}

/**
 * One translation: its texts and references, and its row of a shared array. Read-only, as the
 * model is; private fields, so that a comparison of two models compares what a translation
 * says rather than where its numbers are kept.
 */
class PackedTranslation implements Translation {
  readonly component: Component;
  readonly language: Language;
  readonly languageCode: string;
  readonly filename: string;
  readonly revision: string;
  readonly lastAuthor: string | null;
  readonly #rows: Int32Array;
  readonly #at: number;

  constructor(rows: Int32Array, at: number, t: Translation) {
    this.component = t.component;
    this.language = t.language;
    this.languageCode = t.languageCode;
    this.filename = t.filename;
    this.revision = t.revision;
    this.lastAuthor = t.lastAuthor;
    this.#rows = rows;
    this.#at = at;
  }

  get id(): number {
    return readTwoWords(this.#rows, this.#at + ID);
  }
  get contentFingerprint(): number {
    return readTwoWords(this.#rows, this.#at + FINGERPRINT);
  }
  get isSource(): boolean {
    return (this.#rows[this.#at + FLAGS]! & IS_SOURCE) !== 0;
  }
  get isTemplate(): boolean {
    return (this.#rows[this.#at + FLAGS]! & IS_TEMPLATE) !== 0;
  }
  /** A view made each time: kept, it would cost 48 bytes a translation. */
  get counters(): Counters {
    return new PackedCounters(this.#rows, this.#at);
  }
}

/** One translation's counters: a view of its row. */
class PackedCounters implements Counters {
  readonly #rows: Int32Array;
  readonly #at: number;

  constructor(rows: Int32Array, at: number) {
    this.#rows = rows;
    this.#at = at;
  }

  get last_change(): Timestamp | null {
    return readTimestamp(this.#rows, this.#at);
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
