/**
 * The state of every group a manifest holds, indexed from the manifest's bytes without a string or
 * map entry per line: a build that looks at a few dozen of half a million groups should not pay
 * for a Map of all. The index can be kept (encodeIndex) and used again for the same bytes
 * (fromIndex), a tenth of the cost of making it; lines appended after them take the same parser.
 */
import { deserialize, serialize } from 'node:v8';
import { crc32 } from 'node:zlib';
import { internalError } from '../errors.ts';
import { CHECK_WIDTH, lineHolds } from './journal.ts';

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
  private changed = false;
  /** Lines read after the bytes the index covers (the journal appended since it was kept). */
  private linesAppended = 0;

  private constructor(
    private readonly index: TextIndex,
    /** Bytes of the text the index covers. */
    private readonly indexedLength: number,
  ) {
    this.count = index.live;
  }

  /**
   * The states of the lines `from` on (each a journal line `<state> <key>`, state `?` for
   * unknown, `-` for removed, else a fingerprint in base 36; later lines win),
   * or null when a line is not one or fails its check.
   */
  static parse(text: Buffer, from = 0): GroupStates | null {
    const index = indexLines(text, from);
    return index && new GroupStates(index, text.length);
  }

  /**
   * The states of `text` from an index encodeIndex() made of its first bytes,
   * the lines after them applied; null when the index does not hold for these
   * bytes or cannot be read, or a line after them is not a state and a key.
   */
  static fromIndex(text: Buffer, encoded: Buffer): GroupStates | null {
    let kept: KeptIndex;
    try {
      if (encoded.length < 4 || crc32(encoded.subarray(4)) !== encoded.readUInt32LE(0)) return null;
      kept = deserialize(encoded.subarray(4)) as KeptIndex;
    } catch {
      return null;
    }
    if (
      kept.format !== INDEX_FORMAT ||
      !(kept.length <= text.length) ||
      crc32(text.subarray(0, kept.length)) !== kept.crc
    )
      return null;
    const states = new GroupStates({ ...kept.index, text }, kept.length);
    const appended = indexLines(text, kept.length);
    return appended && states.apply(appended);
  }

  /** The index as made from the text (before any change), to keep: itself checked by a CRC-32, and that of the bytes it covers. */
  encodeIndex(): Buffer {
    if (this.changed) internalError('the index of group states is kept only as read');
    const { text, ...index } = this.index;
    const length = this.indexedLength;
    return Buffer.concat(encodeKept({ length, crc: crc32(text.subarray(0, length)), index }));
  }

  /**
   * What encodeIndex() gives for `text` parsed from byte `from`, in two parts to write one after
   * the other (header, then payload), null as for parse(). The text can go once it is indexed
   * and the index is not copied once more into one buffer: at a million translations the
   * manifest is 300 MB and its index 140 MB, and the text, the index, its serialized form and a
   * copy of that were all held at once.
   */
  static indexToKeep(text: Buffer, from = 0): Buffer[] | null {
    const kept = keptIndexOf(text, from);
    return kept && encodeKept(kept);
  }

  get size(): number {
    return this.count;
  }

  /** Lines the text held (those that no longer describe a group included). */
  get linesRead(): number {
    return this.index.linesRead + this.linesAppended;
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
    this.changed = true;
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
    this.changed = true;
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
      if (state !== REMOVED)
        yield [text.toString('utf8', starts[line], ends[line]), state === UNKNOWN ? null : state];
    }
    yield* this.added;
  }

  /** Applies the final state of each key of lines read after the index (a removal included). */
  private apply(appended: TextIndex): this {
    const { text, starts, ends, states, lines } = appended;
    for (let line = 0; line < lines; line++) {
      const key = text.toString('utf8', starts[line], ends[line]);
      const state = states[line]!;
      if (state === REMOVED) this.delete(key);
      else this.set(key, state === UNKNOWN ? null : state);
    }
    this.linesAppended += appended.linesRead;
    return this;
  }
}

// --- internal ---

/** The index of `text` as kept, without the text (it may go once this returns). */
function keptIndexOf(text: Buffer, from: number): Omit<KeptIndex, 'format'> | null {
  const made = indexLines(text, from);
  if (!made) return null;
  const { text: indexed, ...index } = made;
  return { length: indexed.length, crc: crc32(indexed), index };
}

/** A kept index as a header (the payload's CRC-32) and its payload. */
function encodeKept(kept: Omit<KeptIndex, 'format'>): [Buffer, Buffer] {
  const payload = serialize({ format: INDEX_FORMAT, ...kept } satisfies KeptIndex);
  const header = Buffer.alloc(4);
  header.writeUInt32LE(crc32(payload));
  return [header, payload];
}

/** States that are not fingerprints (fingerprints are whole numbers of at most 53 bits). */
const UNKNOWN = -1;
const REMOVED = -2;
const EMPTY = -1;
const INDEX_FORMAT = 1;

interface KeptIndex {
  format: number;
  /** The bytes of the text indexed, and their CRC-32. */
  length: number;
  crc: number;
  index: Omit<TextIndex, 'text'>;
}

interface TextIndex {
  text: Buffer;
  /** Where each distinct key starts and ends in the text, in the order first seen. */
  starts: Int32Array;
  ends: Int32Array;
  /** Each key's hash (a probe compares it before the bytes). */
  hashes: Int32Array;
  states: Float64Array;
  lines: number;
  /** Lines whose state is not REMOVED. */
  live: number;
  /** Every line read, a key seen again counted again. */
  linesRead: number;
  /** Line numbers by key hash (open addressing, linear probing); EMPTY where none. */
  table: Int32Array;
}

const NEWLINE = 0x0a;
const SPACE = 0x20;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * One pass over the bytes, in one function with its state in locals: half a
 * million lines, where a call or an object per line costs more than the rest.
 */
function indexLines(text: Buffer, from: number): TextIndex | null {
  const capacity = countLines(text, from);
  const starts = new Int32Array(capacity);
  const ends = new Int32Array(capacity);
  const hashes = new Int32Array(capacity);
  const states = new Float64Array(capacity);
  const table = new Int32Array(tableSize(capacity)).fill(EMPTY);
  const mask = table.length - 1;
  let lines = 0;
  let live = 0;
  let linesRead = 0;
  for (let lineStart = from; ;) {
    const lineEnd = text.indexOf(NEWLINE, lineStart);
    // A last line without its line break is an append a crash cut short.
    if (lineEnd === -1) break;
    const empty = lineEnd === lineStart;
    if (!empty && !lineHolds(text, lineStart, lineEnd)) return null;
    const start = lineStart + CHECK_WIDTH;
    lineStart = lineEnd + 1;
    if (empty) continue;
    let space = start;
    while (text[space] !== SPACE && text[space] !== NEWLINE) space++;
    if (space === start || text[space] !== SPACE) return null;
    const state = parseState(text, start, space);
    if (Number.isNaN(state)) return null;
    const keyStart = space + 1;
    let end = keyStart;
    let hash = FNV_OFFSET;
    for (; text[end] !== NEWLINE; end++) hash = Math.imul(hash ^ text[end]!, FNV_PRIME);
    if (end === keyStart) return null;
    linesRead++;
    let slot = (hash >>> 0) & mask;
    let line = table[slot]!;
    while (
      line !== EMPTY &&
      !(hashes[line] === hash && sameRange(text, starts[line]!, ends[line]!, keyStart, end))
    ) {
      slot = (slot + 1) & mask;
      line = table[slot]!;
    }
    if (line === EMPTY) {
      // A removal of a key not seen before is kept too: lines appended to an index may remove one of it.
      line = lines++;
      table[slot] = line;
      starts[line] = keyStart;
      ends[line] = end;
      hashes[line] = hash;
      if (state !== REMOVED) live++;
    } else if (states[line] === REMOVED) {
      if (state !== REMOVED) live++;
    } else if (state === REMOVED) {
      live--;
    }
    states[line] = state;
  }
  return { text, starts, ends, hashes, states, lines, live, linesRead, table };
}

/** Lines from `from` on, a last one without its newline included. */
function countLines(text: Buffer, from: number): number {
  let lines = 0;
  for (let i = from; i < text.length; i++) if (text[i] === NEWLINE) lines++;
  return text.length > from && text[text.length - 1] !== NEWLINE ? lines + 1 : lines;
}

/** The state at the start of a line (up to its space): a fingerprint, UNKNOWN or REMOVED; NaN when it is none. */
function parseState(text: Buffer, start: number, end: number): number {
  if (end - start === 1) {
    const c = text[start]!;
    if (c === 0x3f /* ? */) return UNKNOWN;
    if (c === 0x2d /* - */) return REMOVED;
  }
  let value = 0;
  for (let i = start; i < end; i++) {
    const digit = base36Digit(text[i]!);
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
  const bytes = Buffer.from(key);
  const mask = index.table.length - 1;
  const hash = hashRange(bytes, 0, bytes.length);
  for (let slot = (hash >>> 0) & mask; ; slot = (slot + 1) & mask) {
    const line = index.table[slot]!;
    if (line === EMPTY) return -1;
    if (
      index.hashes[line] === hash &&
      bytes.compare(index.text, index.starts[line], index.ends[line]) === 0
    )
      return line;
  }
}

/** FNV-1a over bytes (indexLines() computes it inline), as a signed 32-bit number. */
function hashRange(bytes: Uint8Array, start: number, end: number): number {
  let hash = FNV_OFFSET;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ bytes[i]!, FNV_PRIME);
  return hash;
}

function sameRange(
  bytes: Buffer,
  aStart: number,
  aEnd: number,
  bStart: number,
  bEnd: number,
): boolean {
  return aEnd - aStart === bEnd - bStart && bytes.compare(bytes, aStart, aEnd, bStart, bEnd) === 0;
}

/** A power of two at least twice the lines (a table at most half full keeps probes short). */
function tableSize(lines: number): number {
  let size = 16;
  while (size < lines * 2) size *= 2;
  return size;
}
