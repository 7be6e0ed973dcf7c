/**
 * The deploy record read and written without holding it (a publish at a million translations
 * has ten million files): the record is read in one pass into a table of its groups by a 64-bit
 * hash of the key (fingerprint and where the group's line is), a group's files are read back
 * from its line when the group is rendered, and the new record is written from the lines kept
 * and those the run made, sorted in runs on disk and merged.
 */
import { closeSync, mkdirSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { internalError } from '../errors.ts';
import { CHECK_WIDTH, checkedLine, lineHolds } from '../tree/journal.ts';
import {
  headerLine,
  parseHeader,
  parseLine,
  recordPath,
  sortedLinesOf,
  type DeployedGroup,
  type Header,
} from './record.ts';

/** A record read in one pass: its header, its groups by key hash, and its lines. */
export interface RecordIndex extends Header {
  file: string;
  groups: GroupTable;
  /** Lines after the header (marks included). */
  lines: number;
}

/** The record of `target` in the state folder of `outDir`, indexed; null when there is none or a line fails its check. */
export function indexRecord(outDir: string, target: string): RecordIndex | null {
  const file = recordPath(outDir, target);
  let index: RecordIndex | null = null;
  for (const line of journalLines(file)) {
    if (line === null) return null;
    if (index === null) {
      const header = parseHeader(line.text);
      if (!header || header.target !== target) return null;
      index = { ...header, file, groups: new GroupTable(header.sorted?.count ?? 0), lines: 0 };
      continue;
    }
    if (!indexLine(index, line)) return null;
  }
  if (index) recordsIndexed++;
  return index;
}

/** Records this process indexed whole so far: each holds a table of all its groups while used. */
export function wholeRecordsIndexed(): number {
  return recordsIndexed;
}

/**
 * The record of `target` indexed for the groups `keys` only, as indexRecord() indexes it whole:
 * their lines found by bisection among the sorted lines, then the lines appended after those
 * read. Null when there is none, it has no sorted lines (an earlier version's), or a line read
 * fails its check.
 */
export function indexRecordOf(
  outDir: string,
  target: string,
  keys: readonly string[],
): RecordIndex | null {
  const file = recordPath(outDir, target);
  const head = firstLine(file);
  const header = head ? parseHeader(head.text) : null;
  if (!head || !header?.sorted || header.target !== target) return null;
  const sorted = sortedLinesOf(file, { ...header, sorted: header.sorted }, keys);
  if (!sorted) return null;
  const groups = new GroupTable(keys.length);
  for (const [key, line] of sorted) groups.set(key, line.fingerprint, line.offset);
  const index: RecordIndex = { ...header, file, groups, lines: header.sorted.count };
  const wanted = new Set(keys);
  const appended = Buffer.byteLength(head.text) + CHECK_WIDTH + 1 + header.sorted.bytes;
  for (const line of journalLines(file, appended)) if (!indexLine(index, line, wanted)) return null;
  return index;
}

/** The group whose line starts at `offset` of the record; null when it does not hold (the file changed). */
export function groupAt(file: string, offset: number): [string, DeployedGroup] | null {
  const fd = openSync(file, 'r');
  try {
    for (let size = 4096; ; size *= 2) {
      const bytes = Buffer.alloc(size);
      const read = readSync(fd, bytes, 0, size, offset);
      const end = bytes.subarray(0, read).indexOf(0x0a);
      if (end < 0 && read === size) continue;
      if (end < 0 || !lineHolds(bytes, 0, end)) return null;
      const entry = parseLine(bytes.toString('utf8', CHECK_WIDTH, end));
      return entry && entry[1] !== 'removed' ? [entry[0], entry[1]] : null;
    }
  } finally {
    closeSync(fd);
  }
}

/** The group lines of the record that `keep` chooses (by key and offset), as they stand. */
export function* keptLines(
  index: Pick<RecordIndex, 'file'>,
  keep: (key: string, offset: number) => boolean,
): Generator<string> {
  let first = true;
  for (const line of journalLines(index.file)) {
    if (line === null) internalError('the deploy record changed while it was read');
    if (first || line.text.startsWith('= ') || line.text.startsWith('- ')) {
      first = false;
      continue;
    }
    const key = keyOfLine(line.text);
    if (key !== null && keep(key, line.offset)) yield line.text;
  }
}

/** The text of each line of a file of checked lines written by a LineWriter. */
export function* writtenLines(file: string): Generator<string> {
  for (const line of journalLines(file)) {
    if (line === null) internalError(`a line of ${file} changed after it was written`);
    yield line.text;
  }
}

/** Appends checked lines to a file, a megabyte at a time. */
export class LineWriter {
  lines = 0;
  bytes = 0;
  private readonly fd: number;
  private pending: string[] = [];
  private pendingBytes = 0;

  constructor(
    readonly file: string,
    flags: 'a' | 'w',
  ) {
    this.fd = openSync(file, flags);
  }

  /** `text` as a line of the record (its check added). */
  write(text: string): void {
    this.raw(checkedLine(text));
  }

  raw(line: string): void {
    this.pending.push(line);
    const bytes = Buffer.byteLength(line);
    this.pendingBytes += bytes;
    this.bytes += bytes;
    this.lines++;
    if (this.pendingBytes >= WRITE_BYTES) this.flush();
  }

  flush(): void {
    if (this.pending.length > 0) writeSync(this.fd, this.pending.join(''));
    this.pending = [];
    this.pendingBytes = 0;
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

/**
 * Writes the record whole from `lines` (group lines without their check, each key once), sorted by
 * key as writeRecord sorts them: in runs of a few megabytes sorted in memory and written to
 * `scratch`, then merged behind the header into a temporary file renamed over the record.
 */
export function writeSortedRecord(
  file: string,
  header: Omit<Header, 'sorted'>,
  lines: Iterable<string>,
  scratch: string,
  runBytes = RUN_BYTES,
): { lines: number } {
  const runs: string[] = [];
  let bytes = 0;
  let count = 0;
  const run = new SortRun(runBytes);
  const endRun = () => {
    const path = join(scratch, `record-run-${runs.length}`);
    run.writeSorted(path);
    runs.push(path);
  };
  for (const text of lines) {
    const size = run.add(text);
    bytes += size;
    count++;
    if (run.bytes >= runBytes) endRun();
  }
  if (run.lines > 0 || runs.length === 0) endRun();
  // Its buffer is not held through the merge.
  run.release();
  mkdirSync(dirname(file), { recursive: true });
  const temporary = join(dirname(file), `.${basename(file)}.tmp-${randomBytes(6).toString('hex')}`);
  const out = new LineWriter(temporary, 'w');
  try {
    out.raw(headerLine({ ...header, sorted: { bytes, count } }));
    mergeRuns(runs, out);
    out.close();
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  } finally {
    for (const path of runs) rmSync(path, { force: true });
  }
  return { lines: count };
}

/** Group keys by a 64-bit hash, with each group's fingerprint, where its line is, and two marks. */
export class GroupTable {
  static readonly SEEN = 1;
  static readonly RENDERED = 2;
  private capacity: number;
  private used = 0;
  private h1: Uint32Array;
  private h2: Uint32Array;
  /** 0 for an empty slot; otherwise 1 + the marks. */
  private state: Uint8Array;
  private fingerprints: Float64Array;
  /** Where the group's line starts; -1 once a later line removed the group. */
  private offsets: Float64Array;

  constructor(expected: number) {
    this.capacity = 1 << Math.max(10, Math.ceil(Math.log2((expected + 1) * 1.5)));
    [this.h1, this.h2, this.state, this.fingerprints, this.offsets] = this.arrays(this.capacity);
  }

  set(key: string, fingerprint: number, offset: number): void {
    if ((this.used + 1) * 4 > this.capacity * 3) this.grow();
    const slot = this.slotOf(key);
    if (this.state[slot] === 0) {
      this.used++;
      this.state[slot] = 1;
      this.h1[slot] = hash1;
      this.h2[slot] = hash2;
    }
    this.fingerprints[slot] = fingerprint;
    this.offsets[slot] = offset;
  }

  forget(key: string): void {
    const slot = this.slotOf(key);
    if (this.state[slot] !== 0) this.offsets[slot] = -1;
  }

  /** The group's slot, or -1 when the record does not hold it. */
  find(key: string): number {
    const slot = this.slotOf(key);
    return this.state[slot] !== 0 && this.offsets[slot]! >= 0 ? slot : -1;
  }

  fingerprint(slot: number): number {
    return this.fingerprints[slot]!;
  }

  offset(slot: number): number {
    return this.offsets[slot]!;
  }

  mark(slot: number, mark: number): void {
    this.state[slot]! |= mark << 1;
  }

  marked(slot: number, mark: number): boolean {
    return (this.state[slot]! & (mark << 1)) !== 0;
  }

  /** The slots of the groups held. */
  *slots(): Generator<number> {
    for (let slot = 0; slot < this.capacity; slot++)
      if (this.state[slot] !== 0 && this.offsets[slot]! >= 0) yield slot;
  }

  private slotOf(key: string): number {
    hashKey(key);
    const mask = this.capacity - 1;
    for (let slot = hash1 & mask; ; slot = (slot + 1) & mask)
      if (this.state[slot] === 0 || (this.h1[slot] === hash1 && this.h2[slot] === hash2))
        return slot;
  }

  private grow(): void {
    const [h1, h2, state, fingerprints, offsets] = [
      this.h1,
      this.h2,
      this.state,
      this.fingerprints,
      this.offsets,
    ];
    const old = this.capacity;
    this.capacity *= 2;
    [this.h1, this.h2, this.state, this.fingerprints, this.offsets] = this.arrays(this.capacity);
    const mask = this.capacity - 1;
    for (let from = 0; from < old; from++) {
      if (state[from] === 0) continue;
      let slot = h1[from]! & mask;
      while (this.state[slot] !== 0) slot = (slot + 1) & mask;
      this.h1[slot] = h1[from]!;
      this.h2[slot] = h2[from]!;
      this.state[slot] = state[from]!;
      this.fingerprints[slot] = fingerprints[from]!;
      this.offsets[slot] = offsets[from]!;
    }
  }

  private arrays(capacity: number) {
    return [
      new Uint32Array(capacity),
      new Uint32Array(capacity),
      new Uint8Array(capacity),
      new Float64Array(capacity),
      new Float64Array(capacity),
    ] as const;
  }
}

// --- internal ---

/** Bytes gathered before a write. */
const WRITE_BYTES = 1 << 20;
/** Bytes of lines sorted in memory at once when the record is written whole. */
const RUN_BYTES = 16 << 20;
/** Bytes read at once from a journal. */
const READ_BYTES = 1 << 20;
/**
 * Bytes read at once from each run while they are merged: at a million translations some forty
 * runs are read side by side, which a megabyte each made 80 MB of buffers beside the live model.
 */
const MERGE_READ_BYTES = 64 << 10;

interface JournalLine {
  text: string;
  offset: number;
}

let recordsIndexed = 0;

/**
 * Takes a line after the header into the index (those of `wanted` keys only, when given): false
 * when it fails its check or is not a line of the record.
 */
function indexLine(index: RecordIndex, line: JournalLine | null, wanted?: Set<string>): boolean {
  if (line === null) return false;
  index.lines++;
  if (line.text.startsWith('= ')) return true;
  const key = keyOfLine(line.text);
  if (key === null) return false;
  if (wanted && !wanted.has(key)) return true;
  const fingerprint = fingerprintOfLine(line.text);
  if (line.text.startsWith('- ')) index.groups.forget(key);
  else if (fingerprint === null) return false;
  else index.groups.set(key, fingerprint, line.offset);
  return true;
}

/** A journal file's first line; null when there is none or it fails its check. */
function firstLine(file: string): JournalLine | null {
  // Left by a break, the generator closes the file.
  for (const line of journalLines(file)) return line;
  return null;
}

/**
 * Each whole line of a journal file from `from` (a line's start) with where it starts; null for a
 * line that fails its check (and the end).
 */
function* journalLines(
  file: string,
  from = 0,
  readBytes = READ_BYTES,
): Generator<JournalLine | null, void> {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return;
  }
  try {
    let carry = Buffer.alloc(0);
    let position = from;
    for (;;) {
      const chunk = Buffer.allocUnsafe(readBytes);
      const read = readSync(fd, chunk, 0, readBytes, position + carry.length);
      if (read === 0) return;
      const bytes = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, read)]) : chunk;
      const length = carry.length + read;
      let start = 0;
      for (let end = bytes.indexOf(0x0a, start); end >= 0 && end < length;) {
        if (end > start) {
          if (!lineHolds(bytes, start, end)) {
            yield null;
            return;
          }
          yield {
            text: bytes.toString('utf8', CHECK_WIDTH + start, end),
            offset: position + start,
          };
        }
        start = end + 1;
        end = bytes.indexOf(0x0a, start);
      }
      carry = Buffer.from(bytes.subarray(start, length));
      position += start;
    }
  } finally {
    closeSync(fd);
  }
}

/** Merges sorted run files into `out`, the smallest key first. */
function mergeRuns(runs: readonly string[], out: LineWriter): void {
  const readers = runs.map((path) => journalLines(path, 0, MERGE_READ_BYTES));
  const next = (reader: Generator<JournalLine | null, void>) => reader.next().value ?? null;
  const heads = readers.map(next);
  const keys = heads.map((head) => (head ? keyOfLine(head.text)! : null));
  for (;;) {
    let smallest = -1;
    for (let i = 0; i < heads.length; i++)
      if (keys[i] !== null && (smallest < 0 || keys[i]! < keys[smallest]!)) smallest = i;
    if (smallest < 0) return;
    out.write(heads[smallest]!.text);
    const head = next(readers[smallest]!);
    heads[smallest] = head;
    keys[smallest] = head ? keyOfLine(head.text)! : null;
  }
}

/**
 * A run of the record's lines being gathered to be sorted: their bytes in one buffer (reused
 * from run to run), and where each line and its key are. Held as strings, each with its key
 * and its checked line beside it, a run of 16 MB took some 48 MB of heap, beside the live model.
 */
class SortRun {
  /** Lines gathered, and their bytes. */
  lines = 0;
  bytes = 0;
  private buffer: Buffer;
  /** Per line: where it starts, where its key starts and ends, and whether the key is all ASCII. */
  private starts: number[] = [];
  private keyStarts: number[] = [];
  private keyEnds: number[] = [];
  private ascii: boolean[] = [];

  constructor(capacity: number) {
    this.buffer = Buffer.allocUnsafe(Math.max(capacity, 1 << 16) + (1 << 16));
  }

  /** Takes a group line (without its check); its size as a checked line. */
  add(text: string): number {
    const line = checkedLine(text);
    const size = Buffer.byteLength(line);
    if (this.bytes + size > this.buffer.length) this.grow(this.bytes + size);
    const start = this.bytes;
    this.buffer.write(line, start, 'utf8');
    const space = text.indexOf(' ');
    const tab = text.indexOf('\t', space);
    const keyEnd = tab < 0 ? text.length : tab;
    // All ASCII, a character is a byte; otherwise the key's bytes are found by measuring.
    const ascii = size === line.length;
    const keyStart =
      start + CHECK_WIDTH + (ascii ? space + 1 : Buffer.byteLength(text.slice(0, space + 1)));
    const keyBytes = ascii ? keyEnd - space - 1 : Buffer.byteLength(text.slice(space + 1, keyEnd));
    this.starts.push(start);
    this.keyStarts.push(keyStart);
    this.keyEnds.push(keyStart + keyBytes);
    this.ascii.push(ascii);
    this.lines++;
    this.bytes += size;
    return size;
  }

  /** Writes the lines gathered to `path` sorted by key (as strings compare), then starts a new run. */
  writeSorted(path: string): void {
    const order = Array.from({ length: this.lines }, (_, i) => i);
    order.sort((a, b) => this.compareKeys(a, b));
    const fd = openSync(path, 'w');
    try {
      const out = Buffer.allocUnsafe(WRITE_BYTES);
      let used = 0;
      for (const i of order) {
        const start = this.starts[i]!;
        const end = i + 1 < this.lines ? this.starts[i + 1]! : this.bytes;
        if (used + end - start > out.length) {
          writeAll(fd, out, used);
          used = 0;
        }
        if (end - start > out.length) writeAll(fd, this.buffer.subarray(start, end), end - start);
        else used += this.buffer.copy(out, used, start, end);
      }
      writeAll(fd, out, used);
    } finally {
      closeSync(fd);
    }
    this.lines = 0;
    this.bytes = 0;
    this.starts = [];
    this.keyStarts = [];
    this.keyEnds = [];
    this.ascii = [];
  }

  release(): void {
    this.buffer = Buffer.alloc(0);
  }

  private compareKeys(a: number, b: number): number {
    const bytes = this.buffer;
    // UTF-8 bytes order as code points do; strings compare by UTF-16 units, which differ past U+FFFF.
    if (!this.ascii[a] || !this.ascii[b]) {
      const x = bytes.toString('utf8', this.keyStarts[a], this.keyEnds[a]);
      const y = bytes.toString('utf8', this.keyStarts[b], this.keyEnds[b]);
      return x < y ? -1 : x > y ? 1 : 0;
    }
    let i = this.keyStarts[a]!;
    let j = this.keyStarts[b]!;
    const iEnd = this.keyEnds[a]!;
    const jEnd = this.keyEnds[b]!;
    for (; i < iEnd && j < jEnd; i++, j++) {
      const difference = bytes[i]! - bytes[j]!;
      if (difference !== 0) return difference;
    }
    return iEnd - i - (jEnd - j);
  }

  private grow(needed: number): void {
    const larger = Buffer.allocUnsafe(Math.max(needed, this.buffer.length * 2));
    this.buffer.copy(larger, 0, 0, this.bytes);
    this.buffer = larger;
  }
}

/** Writes the first `length` bytes of `bytes` whole. */
function writeAll(fd: number, bytes: Buffer, length: number): void {
  for (let at = 0; at < length;) at += writeSync(fd, bytes, at, length - at);
}

/** The key of a group's line (`<fingerprint> <key>\t…` or `- <key>`); null when it has none. */
function keyOfLine(text: string): string | null {
  const space = text.indexOf(' ');
  if (space < 0) return null;
  const tab = text.indexOf('\t', space);
  return text.slice(space + 1, tab < 0 ? text.length : tab);
}

function fingerprintOfLine(text: string): number | null {
  const fingerprint = Number.parseInt(text.slice(0, text.indexOf(' ')), 36);
  return Number.isSafeInteger(fingerprint) ? fingerprint : null;
}

let hash1 = 0;
let hash2 = 0;

/** Two 32-bit hashes of the key (FNV-1a and a multiply-xor lane) into hash1 and hash2. */
function hashKey(key: string): void {
  let a = 0x811c9dc5;
  let b = 0x41c6ce57;
  for (let i = 0; i < key.length; i++) {
    const code = key.charCodeAt(i);
    a = Math.imul(a ^ code, 16777619);
    b = Math.imul(b ^ code, 2654435761) ^ (b >>> 15);
  }
  hash1 = a >>> 0;
  hash2 = (Math.imul(b ^ (b >>> 13), 3266489909) ^ a) >>> 0;
}
