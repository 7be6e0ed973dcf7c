/**
 * The state of every group a manifest holds, read from the manifest's text
 * without making a string or a map entry for each of its lines: a tree of a
 * hundred thousand translations has half a million groups, and a build that
 * looks at a few dozen of them should not pay for building a Map of all.
 *
 * The text is indexed once (where each line's key starts and ends, its state,
 * an open-addressing table of key hashes); a key is made into a string only
 * when the groups are listed. Later changes go over the index: a known key's
 * state is changed in place, a new key goes into a small map of its own.
 */
/** What the manifest knows of a group: its fingerprint, or null while its files may be half-updated. */
export type GroupState = number | null;

/** What the manifest code needs of a map from group keys to states (a Map is one). */
export interface GroupStateMap extends Iterable<[string, GroupState]> {
  get(key: string): GroupState | undefined;
  has(key: string): boolean;
  set(key: string, state: GroupState): unknown;
  delete(key: string): boolean;
  keys(): IterableIterator<string>;
  readonly size: number;
}

export class GroupStates implements GroupStateMap {
  /** Groups added since the text was read. */
  private readonly added = new Map<string, GroupState>();
  private count: number;

  private constructor(private readonly index: TextIndex) {
    this.count = index.live;
  }

  /**
   * The states of the lines `from` on (each `<state> <key>`, state `?` for
   * unknown, `-` for removed, else a fingerprint in base 36; later lines win),
   * or null when a line is not one.
   */
  static parse(text: string, from = 0): GroupStates | null {
    const index = indexLines(text, from);
    return index && new GroupStates(index);
  }

  get size(): number {
    return this.count;
  }

  /** Lines the text held (those that no longer describe a group included). */
  get linesRead(): number {
    return this.index.linesRead;
  }

  get(key: string): GroupState | undefined {
    const line = findLine(this.index, key);
    if (line >= 0) {
      const state = this.index.states[line]!;
      return state === REMOVED ? undefined : state === UNKNOWN ? null : state;
    }
    return this.added.get(key);
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  set(key: string, state: GroupState): this {
    const line = findLine(this.index, key);
    if (line >= 0) {
      if (this.index.states[line] === REMOVED) this.count++;
      this.index.states[line] = state ?? UNKNOWN;
    } else {
      if (!this.added.has(key)) this.count++;
      this.added.set(key, state);
    }
    return this;
  }

  delete(key: string): boolean {
    const line = findLine(this.index, key);
    const had = line >= 0 ? this.index.states[line] !== REMOVED : this.added.delete(key);
    if (line >= 0) this.index.states[line] = REMOVED;
    if (had) this.count--;
    return had;
  }

  *keys(): IterableIterator<string> {
    for (const [key] of this) yield key;
  }

  *[Symbol.iterator](): IterableIterator<[string, GroupState]> {
    const { text, starts, ends, states, lines } = this.index;
    for (let line = 0; line < lines; line++) {
      const state = states[line]!;
      if (state !== REMOVED) yield [text.slice(starts[line], ends[line]), state === UNKNOWN ? null : state];
    }
    yield* this.added;
  }
}

// --- internal ---

/** States that are not fingerprints (fingerprints are whole numbers of at most 53 bits). */
const UNKNOWN = -1;
const REMOVED = -2;
const EMPTY = -1;

interface TextIndex {
  text: string;
  /** Where each distinct key starts and ends in the text, in the order first seen. */
  starts: Int32Array;
  ends: Int32Array;
  states: Float64Array;
  lines: number;
  /** Lines whose state is not REMOVED. */
  live: number;
  /** Every line read, a key seen again counted again. */
  linesRead: number;
  /** Line numbers by key hash (open addressing, linear probing); EMPTY where none. */
  table: Int32Array;
}

function indexLines(text: string, from: number): TextIndex | null {
  let capacity = 0;
  for (let at = text.indexOf('\n', from); at >= 0; at = text.indexOf('\n', at + 1)) capacity++;
  if (!text.endsWith('\n') && text.length > from) capacity++;
  const index: TextIndex = {
    text,
    starts: new Int32Array(capacity),
    ends: new Int32Array(capacity),
    states: new Float64Array(capacity),
    lines: 0,
    live: 0,
    linesRead: 0,
    table: new Int32Array(tableSize(capacity)).fill(EMPTY),
  };
  for (let start = from; start < text.length;) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    if (end > start) {
      if (!indexLine(index, start, end)) return null;
      index.linesRead++;
    }
    start = end + 1;
  }
  return index;
}

/** Records one line; false when it is not `<state> <key>`. */
function indexLine(index: TextIndex, start: number, end: number): boolean {
  const { text } = index;
  const space = text.indexOf(' ', start);
  if (space < 0 || space >= end || space === start) return false;
  const state = parseState(text, start, space);
  if (Number.isNaN(state)) return false;
  const keyStart = space + 1;
  const hash = hashRange(text, keyStart, end);
  const mask = index.table.length - 1;
  for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
    const line = index.table[slot]!;
    if (line === EMPTY) {
      if (state === REMOVED) return true;
      const added = index.lines++;
      index.table[slot] = added;
      index.starts[added] = keyStart;
      index.ends[added] = end;
      index.states[added] = state;
      index.live++;
      return true;
    }
    if (sameRange(text, index.starts[line]!, index.ends[line]!, keyStart, end)) {
      const before = index.states[line]!;
      if (before === REMOVED && state !== REMOVED) index.live++;
      if (before !== REMOVED && state === REMOVED) index.live--;
      index.states[line] = state;
      return true;
    }
  }
}

/** The state a line starts with; NaN when it is none. */
function parseState(text: string, start: number, end: number): number {
  if (end - start === 1) {
    const c = text.charCodeAt(start);
    if (c === 0x3f /* ? */) return UNKNOWN;
    if (c === 0x2d /* - */) return REMOVED;
  }
  let value = 0;
  for (let i = start; i < end; i++) {
    const digit = base36Digit(text.charCodeAt(i));
    if (digit < 0) return Number.NaN;
    value = value * 36 + digit;
  }
  return value;
}

function base36Digit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x7a) return c - 0x61 + 10;
  return -1;
}

function findLine(index: TextIndex, key: string): number {
  const mask = index.table.length - 1;
  for (let slot = hashRange(key, 0, key.length) & mask; ; slot = (slot + 1) & mask) {
    const line = index.table[slot]!;
    if (line === EMPTY) return -1;
    const start = index.starts[line]!;
    if (index.ends[line]! - start === key.length && index.text.startsWith(key, start)) return line;
  }
}

/** FNV-1a over UTF-16 code units. */
function hashRange(text: string, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

function sameRange(text: string, aStart: number, aEnd: number, bStart: number, bEnd: number): boolean {
  if (aEnd - aStart !== bEnd - bStart) return false;
  for (let i = 0; i < aEnd - aStart; i++) if (text.charCodeAt(aStart + i) !== text.charCodeAt(bStart + i)) return false;
  return true;
}

/** A power of two at least twice the lines (a table at most half full keeps probes short). */
function tableSize(lines: number): number {
  let size = 16;
  while (size < lines * 2) size *= 2;
  return size;
}
