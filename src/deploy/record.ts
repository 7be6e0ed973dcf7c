/**
 * The deploy record: what this tree last put at one target, kept in the
 * tree's state folder beside its manifest, one file per target. For each
 * group of the manifest it holds the fingerprint the group had when its files
 * went up, and the MD5 of each file (what S3 reports as the ETag of a
 * single-part upload), with a PNG widget's drawing key when a publish of content drew it (so the
 * next one need not draw it again). A later deploy compares it with the manifest and
 * uploads only the files of groups that changed, and of those only the files
 * whose bytes changed, without listing the bucket.
 *
 * It is a journal (tree/journal.ts): a group's line is appended once its files are up (and its
 * keys that left the tree deleted), so a deploy cut short resumes where it stopped. It is written
 * whole, its lines sorted by key, and again once the lines appended pass a quarter of those. A
 * deploy that brought the target in line with the manifest appends a mark of where the manifest
 * stood; the next one reads only the header, the lines appended, and, found by bisection in the
 * sorted lines, those of the groups the manifest changed since the mark.
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { internalError } from '../errors.ts';
import { writeFileAtomic } from '../output/atomic.ts';
import { CHECK_WIDTH, checkedLine, lineHolds, readJournalLines } from '../tree/journal.ts';
import type { ManifestPosition } from '../tree/manifest.ts';
import { stateDir } from '../tree/state-folder.ts';

export interface DeployedGroup {
  fingerprint: number;
  /** Each published file of the group, by its path relative to the group's folder: its MD5, base64. */
  files: Map<string, string>;
  /** The key of the drawing each PNG widget at the target was rendered from (status-site/png.ts), by file. */
  drawings?: Map<string, string>;
}

export interface DeployRecord {
  /** The target, as describeTarget() gives it with its endpoint. */
  target: string;
  /** What every object was uploaded with (Cache-Control, the type table): other settings upload everything again. */
  settings: string;
  /** The base URL of the tree last deployed there; null when not recorded (a record of an earlier version). */
  baseUrl: string | null;
  groups: Map<string, DeployedGroup>;
  /** Lines after the header: one per group once written whole, more as deploys append. */
  lines: number;
  /** Lines written whole (sorted by key) before those appended; absent for a record of version 2. */
  wholeLines?: number;
}

/** A record's header and the lines appended to it since it was written whole: what a deploy reads first. */
interface OpenedRecord {
  target: string;
  settings: string;
  baseUrl: string | null;
  /** Where the manifest stood when the last deploy brought the target in line with it; null unless its mark is the record's last line. */
  mark: ManifestPosition | null;
  /** The groups the appended lines name (the last line of each wins). */
  appended: Map<string, DeployedGroup | 'removed'>;
  lines: number;
  wholeLines: number;
  /** Where the sorted lines are in the file. */
  sorted: { start: number; end: number };
}

/** The record of deploys of the tree at `outDir` to `target`, or null when there is none (or it is not readable). */
export async function readRecord(outDir: string, target: string): Promise<DeployRecord | null> {
  const bytes = await readFile(recordPath(outDir, target)).catch(() => null);
  const lines = bytes && readJournalLines(bytes);
  if (!Array.isArray(lines)) return null;
  const header = parseHeader(lines[0] ?? '');
  if (!header || header.target !== target) return null;
  const record: DeployRecord = {
    target,
    settings: header.settings,
    baseUrl: header.baseUrl,
    groups: new Map(),
    lines: 0,
    ...(header.sorted && { wholeLines: header.sorted.count }),
  };
  for (const line of lines.slice(1)) {
    record.lines++;
    // A mark says nothing of the groups.
    if (line.startsWith('= ')) continue;
    const [key, group] = parseLine(line) ?? [];
    if (key === undefined || group === undefined) return null;
    if (group === 'removed') record.groups.delete(key);
    else record.groups.set(key, group);
  }
  return record;
}

/**
 * The header of the record of `target` and the lines appended to it since it was written whole,
 * without its sorted lines; null when there is none, it is not readable, or it is of version 2.
 */
export function openRecord(outDir: string, target: string): OpenedRecord | null {
  const file = SortedRecord.open(recordPath(outDir, target));
  if (!file) return null;
  try {
    const head = file.lineAt(0);
    const header = head && parseHeader(head.text);
    if (!header?.sorted || header.target !== target) return null;
    const start = head!.next;
    const end = start + header.sorted.bytes;
    const lines = end <= file.size ? readJournalLines(file.read(end, file.size - end)) : null;
    if (!Array.isArray(lines)) return null;
    const opened: OpenedRecord = {
      target,
      settings: header.settings,
      baseUrl: header.baseUrl,
      mark: null,
      appended: new Map(),
      lines: header.sorted.count + lines.length,
      wholeLines: header.sorted.count,
      sorted: { start, end },
    };
    for (const line of lines) if (!openLine(opened, line)) return null;
    return opened;
  } finally {
    file.close();
  }
}

/**
 * The record as it holds for the groups `keys` names only (the others are left out), read from the
 * appended lines and by bisection in the sorted ones; null when one of those lines fails its check.
 */
export function recordOf(
  outDir: string,
  opened: OpenedRecord,
  keys: Iterable<string>,
): DeployRecord | null {
  const { target, settings, baseUrl, lines, wholeLines } = opened;
  const record: DeployRecord = { target, settings, baseUrl, groups: new Map(), lines, wholeLines };
  const file = SortedRecord.open(recordPath(outDir, target));
  if (!file) return null;
  try {
    for (const key of keys) {
      const line = opened.appended.has(key)
        ? { group: opened.appended.get(key)! }
        : file.find(key, opened.sorted.start, opened.sorted.end);
      if (line === null) return null;
      const group = line?.group;
      if (group !== undefined && group !== 'removed') record.groups.set(key, group);
    }
    return record;
  } finally {
    file.close();
  }
}

/**
 * The fingerprint of each of `keys` that has a line among the sorted lines of the record `file`
 * (written whole, its header `header`), and where that line starts, found by bisection; null
 * when a line read fails its check.
 */
export function sortedLinesOf(
  file: string,
  header: Header & { sorted: { bytes: number } },
  keys: Iterable<string>,
): Map<string, { fingerprint: number; offset: number }> | null {
  const record = SortedRecord.open(file);
  if (!record) return null;
  try {
    const head = record.lineAt(0);
    if (!head) return null;
    const end = head.next + header.sorted.bytes;
    const found = new Map<string, { fingerprint: number; offset: number }>();
    // In the record's order, so that each bisection reads mostly blocks the one before read.
    for (const key of [...keys].sort()) {
      const line = record.find(key, head.next, end);
      if (line === null) return null;
      if (line) found.set(key, { fingerprint: line.group.fingerprint, offset: line.offset });
    }
    return found;
  } finally {
    record.close();
  }
}

/** Appends the mark of a deploy that brought the target in line with the manifest standing at `position`. */
export async function appendMark(
  outDir: string,
  record: DeployRecord,
  position: ManifestPosition,
): Promise<void> {
  await appendFile(
    recordPath(outDir, record.target),
    checkedLine(`= ${position.length} ${position.crc}`),
  );
  record.lines++;
}

/** Appends groups now at the target (or gone from it) to the record, which is updated in memory too. */
export async function appendRecord(
  outDir: string,
  record: DeployRecord,
  entries: readonly [string, DeployedGroup | 'removed'][],
): Promise<void> {
  if (entries.length === 0) return;
  const text = entries.map(([key, group]) => formatLine(key, group)).join('');
  await mkdir(stateDir(outDir), { recursive: true });
  await appendFile(recordPath(outDir, record.target), text);
  for (const [key, group] of entries) {
    if (group === 'removed') record.groups.delete(key);
    else record.groups.set(key, group);
  }
  record.lines += entries.length;
}

/** Writes the record whole (a new record, other settings, a verify, or a journal grown long). */
export async function writeRecord(outDir: string, record: DeployRecord): Promise<void> {
  const { target, settings, baseUrl } = record;
  // Sorted by key, so that a deploy finds a group's line by bisection without reading the others.
  const keys = [...record.groups.keys()].sort();
  // In chunks: at a million translations the whole text would pass the longest string V8 makes.
  const chunks: Buffer[] = [];
  let bytes = 0;
  for (let at = 0; at < keys.length; at += CHUNK_LINES) {
    const text = keys
      .slice(at, at + CHUNK_LINES)
      .map((key) => formatLine(key, record.groups.get(key)!));
    chunks.push(Buffer.from(text.join('')));
    bytes += chunks[chunks.length - 1]!.length;
  }
  const header = headerLine({ target, settings, baseUrl, sorted: { bytes, count: keys.length } });
  await writeFileAtomic(recordPath(outDir, record.target), [Buffer.from(header), ...chunks]);
  record.lines = record.groups.size;
  record.wholeLines = record.groups.size;
}

/** Lines formatted into one chunk when the record is written whole. */
const CHUNK_LINES = 4096;

/** The record's `settings`: what every object is uploaded with (Cache-Control, the type table). */
export function uploadSettings(cacheControl: string | null): string {
  return JSON.stringify({ cacheControl, types: 1 });
}

/**
 * Whether the journal is worth writing whole: once the lines appended pass a quarter of those
 * written whole (and a floor of 1,000, or of all of them when fewer), or when it is of version 2.
 */
export function recordIsLong(record: Pick<DeployRecord, 'lines' | 'wholeLines'>): boolean {
  const whole = record.wholeLines;
  return whole === undefined || record.lines - whole > Math.max(Math.min(1000, whole), whole / 4);
}

// --- internal ---

// Version 3: lines written whole are sorted by key (their bytes and count in the header), and a
// deploy that ends in line with the manifest appends a mark. Version 2 (each line, the header
// too, carries its check) is read whole, and written whole again as version 3.
const HEADER = 'weblate-snapshot deploy record 3';
const EARLIER_HEADER = 'weblate-snapshot deploy record 2';

/** The record's file in the state folder (one per target). */
export function recordPath(outDir: string, target: string): string {
  const id = createHash('sha256').update(target).digest('hex').slice(0, 16);
  return join(stateDir(outDir), `deploy-${id}`);
}

export interface Header {
  target: string;
  settings: string;
  baseUrl: string | null;
  /** The sorted lines' bytes and number; null in a record of version 2. */
  sorted: { bytes: number; count: number } | null;
}

/** The record's first line, as written whole. */
export function headerLine(header: Header & { sorted: { bytes: number; count: number } }): string {
  const { target, settings, baseUrl, sorted } = header;
  return checkedLine(`${HEADER}\t${JSON.stringify({ target, settings, baseUrl, sorted })}`);
}

export function parseHeader(line: string): Header | null {
  const earlier = line.startsWith(`${EARLIER_HEADER}\t`);
  if (!earlier && !line.startsWith(`${HEADER}\t`)) return null;
  try {
    const value = JSON.parse(line.slice(HEADER.length + 1)) as {
      target?: unknown;
      settings?: unknown;
      baseUrl?: unknown;
      sorted?: { bytes?: unknown; count?: unknown };
    };
    const baseUrl = typeof value.baseUrl === 'string' ? value.baseUrl : null;
    const { bytes, count } = value.sorted ?? {};
    const sorted =
      Number.isSafeInteger(bytes) && Number.isSafeInteger(count)
        ? { bytes: bytes as number, count: count as number }
        : null;
    if (!earlier && !sorted) return null;
    return typeof value.target === 'string' && typeof value.settings === 'string'
      ? { target: value.target, settings: value.settings, baseUrl, sorted: earlier ? null : sorted }
      : null;
  } catch {
    return null;
  }
}

/**
 * `<fingerprint> <key>\t<file> <md5>\t…` or `- <key>`; a PNG's MD5 may be followed by
 * `:<drawing key>` (neither base64 alphabet has a colon, so an earlier version reads an MD5 that
 * matches nothing and uploads the file again).
 */
export function formatLine(key: string, group: DeployedGroup | 'removed'): string {
  if (/[\s]/.test(key))
    internalError(`a group key with white space cannot be recorded: ${JSON.stringify(key)}`);
  if (group === 'removed') return checkedLine(`- ${key}`);
  let line = `${group.fingerprint.toString(36)} ${key}`;
  for (const [file, md5] of group.files) {
    if (/[\t\n]/.test(file))
      internalError(
        `a file name with a tab or line break cannot be recorded: ${JSON.stringify(file)}`,
      );
    const drawing = group.drawings?.get(file);
    if (drawing !== undefined && !/^[\w-]+$/.test(drawing))
      internalError(`a drawing key cannot be recorded: ${JSON.stringify(drawing)}`);
    line += drawing === undefined ? `\t${file} ${md5}` : `\t${file} ${md5}:${drawing}`;
  }
  return checkedLine(line);
}

/** A group's line: its key and state; null when it is not one. */
export function parseLine(line: string): [string, DeployedGroup | 'removed'] | null {
  const [head = '', ...files] = line.split('\t');
  const space = head.indexOf(' ');
  if (space < 0) return null;
  const key = head.slice(space + 1);
  if (head.startsWith('- ')) return [key, 'removed'];
  const fingerprint = Number.parseInt(head.slice(0, space), 36);
  if (!Number.isSafeInteger(fingerprint)) return null;
  const group: DeployedGroup = { fingerprint, files: new Map() };
  for (const entry of files) {
    const at = entry.lastIndexOf(' ');
    if (at < 0) return null;
    const name = entry.slice(0, at);
    const colon = entry.indexOf(':', at);
    group.files.set(name, entry.slice(at + 1, colon < 0 ? entry.length : colon));
    if (colon >= 0) (group.drawings ??= new Map()).set(name, entry.slice(colon + 1));
  }
  return [key, group];
}

/** An appended line taken into an opened record: a mark, or a group's line (which makes the mark stale). */
function openLine(opened: OpenedRecord, line: string): boolean {
  const mark = /^= (\d+) (\d+)$/.exec(line);
  if (mark) {
    opened.mark = { length: Number(mark[1]), crc: Number(mark[2]) };
    return true;
  }
  const entry = parseLine(line);
  if (entry) opened.appended.set(entry[0], entry[1]);
  opened.mark = null;
  return entry !== null;
}

/** Bytes read at once when looking for a line's end. */
const LINE_CHUNK = 4096;
/** The blocks a record file is read in when searched, and how many of them are kept. */
const BLOCK = 1 << 16;
const KEPT_BLOCKS = 256;

/**
 * A record file read by position: its sorted lines searched by bisection. Small reads go through
 * the last blocks read: the bisections of many keys start with the same lines, and keys near
 * each other end in the same blocks.
 */
class SortedRecord {
  readonly size: number;
  private readonly blocks = new Map<number, Buffer>();

  private constructor(private readonly fd: number) {
    this.size = fstatSync(fd).size;
  }

  static open(path: string): SortedRecord | null {
    try {
      return new SortedRecord(openSync(path, 'r'));
    } catch {
      return null;
    }
  }

  close(): void {
    closeSync(this.fd);
  }

  read(position: number, length: number): Buffer {
    const end = Math.min(position + Math.max(0, length), this.size);
    if (end - position > BLOCK) {
      const bytes = Buffer.alloc(end - position);
      return bytes.subarray(0, readSync(this.fd, bytes, 0, bytes.length, position));
    }
    const pieces: Buffer[] = [];
    for (let at = position; at < end;) {
      const index = Math.floor(at / BLOCK);
      const block = this.block(index);
      const piece = block.subarray(at - index * BLOCK, Math.min(end - index * BLOCK, BLOCK));
      if (piece.length === 0) break;
      pieces.push(piece);
      at += piece.length;
    }
    return pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
  }

  /** The block `index` of the file, read once while kept (the oldest read goes first). */
  private block(index: number): Buffer {
    let block = this.blocks.get(index);
    if (block) return block;
    if (this.blocks.size >= KEPT_BLOCKS) this.blocks.delete(this.blocks.keys().next().value!);
    block = Buffer.allocUnsafe(BLOCK);
    block = block.subarray(0, readSync(this.fd, block, 0, BLOCK, index * BLOCK));
    this.blocks.set(index, block);
    return block;
  }

  /** The checked line starting at `start`, its text and where the next starts; null when it fails its check or is cut short. */
  lineAt(start: number): { text: string; next: number } | null {
    for (let chunk = LINE_CHUNK; ; chunk *= 2) {
      const bytes = this.read(start, chunk);
      const end = bytes.indexOf(0x0a);
      if (end >= 0)
        return lineHolds(bytes, 0, end)
          ? { text: bytes.toString('utf8', CHECK_WIDTH, end), next: start + end + 1 }
          : null;
      if (bytes.length < chunk) return null;
    }
  }

  /**
   * The group `key` among the sorted lines in [start, end) and where its line starts: undefined
   * when it has none, null when a line read fails its check.
   */
  find(
    key: string,
    start: number,
    end: number,
  ): { group: DeployedGroup; offset: number } | undefined | null {
    // The key's line, if any, starts in [low, high); both are lines' starts (or the end).
    let low = start;
    let high = end;
    while (low < high) {
      let at = this.lineStartFrom(low + Math.floor((high - low) / 2), low);
      // No line starts in the upper half: the one at `low` is the last left to look at.
      if (at >= high) at = low;
      const line = this.lineAt(at);
      const entry = line && parseLine(line.text);
      if (!entry || entry[1] === 'removed') return null;
      if (entry[0] === key) return { group: entry[1], offset: at };
      if (entry[0] < key) low = line.next;
      else high = at;
    }
    return undefined;
  }

  /** The first line's start at or after `position` (`low` is one); the file's size when none. */
  private lineStartFrom(position: number, low: number): number {
    if (position <= low) return low;
    for (let from = position - 1; ;) {
      const bytes = this.read(from, LINE_CHUNK);
      const at = bytes.indexOf(0x0a);
      if (at >= 0) return from + at + 1;
      if (bytes.length < LINE_CHUNK) return this.size;
      from += bytes.length;
    }
  }
}
