/**
 * Which files each group of a built tree holds, kept beside its manifest in
 * `<out>.state/files`: what a deploy publishes (nothing else found in the
 * tree is), and what a build checks is still there. Groups of one kind hold
 * the same names, so each set of names is written once, under a hash of it,
 * and a group's line names the set. A new tree writes the record whole; an
 * update in place appends the groups it rendered. Lines of groups the
 * manifest no longer holds are ignored, and dropped when it is written whole.
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { CHECK_WIDTH, checkedLine, lineHolds, readJournalLines } from './journal.ts';
import { readStateFile, stateDir } from './state-folder.ts';

/** A group's files, relative to its folder, with `/`. */
export type GroupFiles = readonly string[];

/** The names of a group's files from their paths relative to the tree's root. */
export function namesInGroup(key: string, paths: readonly string[]): string[] {
  return paths.map((path) => path.slice(key.length - 1));
}

/** A recorded file's path relative to the tree's root (with `/`), from its group's key and its name. */
export function treePathOf(key: string, name: string): string {
  return `${key.slice(1)}${name}`;
}

/** Whether the tree at `outDir` has a record of its files (trees built before it was kept do not). */
export function hasFilesRecord(outDir: string): boolean {
  return statSync(filesRecordPath(outDir), { throwIfNoEntry: false })?.isFile() === true;
}

/** Each group's files as recorded (later lines win); null when there is no record or it cannot be read. */
export function readFilesRecord(outDir: string): Map<string, GroupFiles> | null {
  const bytes = readStateFile(filesRecordPath(outDir));
  if (bytes === null || bytes.toString('utf8', 0, HEADER.length + 1) !== `${HEADER}\n`) return null;
  const lines = readJournalLines(bytes, HEADER.length + 1);
  if (!Array.isArray(lines)) return null;
  const sets = new Map<string, GroupFiles>();
  const groups = new Map<string, GroupFiles>();
  for (const line of lines) {
    const space = line.indexOf(' ');
    if (space < 1) return null;
    const id = line.slice(0, space);
    const rest = line.slice(space + 1);
    if (id.startsWith('=')) {
      const names = parseNames(rest);
      if (!names) return null;
      sets.set(id.slice(1), names);
    } else {
      const names = sets.get(id);
      if (!names) return null;
      groups.set(rest, names);
    }
  }
  return groups;
}

/**
 * The recorded files of the groups named (later lines win), for a deploy that looks at a few
 * groups of a large tree: only the lines of those groups and of the sets they name are decoded
 * and checked. Null as for readFilesRecord, or when such a line fails its check.
 */
export function readFilesOf(
  outDir: string,
  keys: ReadonlySet<string>,
): Map<string, GroupFiles> | null {
  const bytes = readStateFile(filesRecordPath(outDir));
  if (bytes === null || bytes.toString('utf8', 0, HEADER.length + 1) !== `${HEADER}\n`) return null;
  const wanted = new Map<number, Buffer[]>();
  for (const key of keys) {
    const encoded = Buffer.from(key);
    wanted.set(encoded.length, [...(wanted.get(encoded.length) ?? []), encoded]);
  }
  const sets = new Map<string, [number, number]>();
  const found = new Map<string, string>();
  for (let start = HEADER.length + 1, end = bytes.indexOf(0x0a, start); end !== -1;) {
    const space = bytes.indexOf(0x20, start + CHECK_WIDTH);
    if (space < 0 || space >= end) return null;
    if (bytes[start + CHECK_WIDTH] === 0x3d /* = */) {
      sets.set(bytes.toString('latin1', start + CHECK_WIDTH + 1, space), [start, end]);
    } else {
      const key = wantedKey(bytes, space + 1, end, wanted);
      if (key !== null) {
        if (!lineHolds(bytes, start, end)) return null;
        found.set(key, bytes.toString('latin1', start + CHECK_WIDTH, space));
      }
    }
    start = end + 1;
    end = bytes.indexOf(0x0a, start);
  }
  const groups = new Map<string, GroupFiles>();
  for (const [key, id] of found) {
    const [start, end] = sets.get(id) ?? [0, 0];
    if (end === 0 || !lineHolds(bytes, start, end)) return null;
    const line = bytes.toString('utf8', start + CHECK_WIDTH, end);
    const names = parseNames(line.slice(line.indexOf(' ') + 1));
    if (!names) return null;
    groups.set(key, names);
  }
  return groups;
}

/**
 * The groups recorded from byte `offset` of the record on (wrapping round at
 * its end), until they list `maxFiles` files or every line was read once,
 * and the offset to go on from. Only the window's bytes are read: a large
 * tree's record is tens of megabytes. A set's id is the hash of its names,
 * so `sets` (kept by the caller) never goes stale; the whole record is read
 * for them only when the window names one not in it. Null as for readFilesRecord.
 */
export function readFilesWindow(
  outDir: string,
  offset: number,
  maxFiles: number,
  sets: Map<string, GroupFiles>,
): { groups: [key: string, names: GroupFiles][]; next: number } | null {
  let fd: number;
  try {
    fd = openSync(filesRecordPath(outDir), 'r');
  } catch {
    return null;
  }
  try {
    return readWindow(new RecordFile(fd), offset, maxFiles, sets);
  } finally {
    closeSync(fd);
  }
}

/** Writes the record of a new tree group after group, then puts it in place (before the tree is recorded). */
export class FilesRecordWriter {
  private readonly lines = new Lines();
  private chunk = `${HEADER}\n`;
  private readonly temporary: string;
  private readonly handle: Promise<FileHandle>;

  constructor(private readonly outDir: string) {
    this.temporary = `${filesRecordPath(outDir)}.tmp-${process.pid}`;
    this.handle = mkdir(stateDir(outDir), { recursive: true }).then(() =>
      open(this.temporary, 'w'),
    );
  }

  async add(key: string, names: GroupFiles): Promise<void> {
    this.chunk += this.lines.of(key, names);
    if (this.chunk.length > 1 << 20) await this.flush();
  }

  async close(): Promise<void> {
    await this.flush();
    const handle = await this.handle;
    await handle.sync();
    await handle.close();
    await rename(this.temporary, filesRecordPath(this.outDir));
  }

  async abort(): Promise<void> {
    const handle = await this.handle.catch(() => null);
    await handle?.close().catch(() => undefined);
    await rm(this.temporary, { force: true });
  }

  private async flush(): Promise<void> {
    const text = this.chunk;
    this.chunk = '';
    await (await this.handle).write(text);
  }
}

/** Appends the files of groups an update rendered, and waits until they are on disk. */
export async function appendFilesRecord(
  outDir: string,
  groups: Iterable<[key: string, names: GroupFiles]>,
): Promise<void> {
  const lines = new Lines();
  let text = '';
  for (const [key, names] of groups) text += lines.of(key, names);
  if (!text) return;
  const handle = await open(filesRecordPath(outDir), 'a');
  try {
    await handle.write(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Writes the record whole for the groups the manifest holds (when the manifest is compacted too). */
export async function compactFilesRecord(
  outDir: string,
  live: { has(key: string): boolean },
): Promise<void> {
  const groups = readFilesRecord(outDir);
  if (!groups) return;
  const writer = new FilesRecordWriter(outDir);
  try {
    for (const [key, names] of groups) if (live.has(key)) await writer.add(key, names);
    await writer.close();
  } catch (error) {
    await writer.abort();
    throw error;
  }
}

// --- internal ---

// Version 2: each line carries its check (journal.ts).
const HEADER = 'weblate-snapshot files 2';

function filesRecordPath(outDir: string): string {
  return join(stateDir(outDir), 'files');
}

/** Lines of a record: a set's definition the first time this writer meets it, then the group's line. */
class Lines {
  private readonly ids = new Map<string, string>();

  of(key: string, names: GroupFiles): string {
    const text = JSON.stringify(names);
    let id = this.ids.get(text);
    if (id !== undefined) return checkedLine(`${id} ${key}`);
    // A hash, not a counter: lines appended by another process name the same set alike.
    id = createHash('sha1').update(text).digest('hex').slice(0, 16);
    this.ids.set(text, id);
    return checkedLine(`=${id} ${text}`) + checkedLine(`${id} ${key}`);
  }
}

/** A window's lines (see readFilesWindow), from an open record. */
function readWindow(
  file: RecordFile,
  offset: number,
  maxFiles: number,
  sets: Map<string, GroupFiles>,
): { groups: [string, GroupFiles][]; next: number } | null {
  const first = HEADER.length + 1;
  if (file.read(0, first).toString('utf8') !== `${HEADER}\n`) return null;
  // An offset that is not a line's start (the record was written whole since) starts over.
  const from =
    offset > first && offset < file.size && file.read(offset - 1, 1)[0] === 0x0a ? offset : first;
  const groups: [string, GroupFiles][] = [];
  let files = 0;
  let at = from;
  let wrapped = false;
  while (files < maxFiles) {
    const end = wrapped ? from : file.size;
    if (at >= end) {
      if (wrapped || from === first) break;
      [at, wrapped] = [first, true];
      continue;
    }
    const chunk = file.read(at, Math.min(end - at, WINDOW_CHUNK));
    let pos = 0;
    for (
      let nl = chunk.indexOf(0x0a);
      nl !== -1 && files < maxFiles;
      nl = chunk.indexOf(0x0a, pos)
    ) {
      if (!lineHolds(chunk, pos, nl)) return null;
      const line = chunk.toString('utf8', pos + CHECK_WIDTH, nl);
      pos = nl + 1;
      if (line.startsWith('=')) continue;
      const space = line.indexOf(' ');
      const id = line.slice(0, space);
      if (!sets.has(id))
        for (const [known, names] of readSets(file.read(0, file.size)) ?? [])
          sets.set(known, names);
      const names = sets.get(id);
      if (space < 1 || !names) return null;
      groups.push([line.slice(space + 1), names]);
      files += names.length;
    }
    // A last line cut short (a crash while appending) ends the record; a longer one is not a record's.
    if (pos === 0 && at + chunk.length < end) return null;
    at = pos === 0 ? end : at + pos;
  }
  return { groups, next: at >= file.size ? first : at };
}

/** Bytes of a record a window reads. */
const WINDOW_CHUNK = 1 << 20;

/** An open record read by position. */
class RecordFile {
  readonly size: number;

  constructor(private readonly fd: number) {
    this.size = fstatSync(fd).size;
  }

  read(position: number, length: number): Buffer {
    const bytes = Buffer.alloc(length);
    const read = readSync(this.fd, bytes, 0, length, position);
    return bytes.subarray(0, read);
  }
}

/** Every set of names the record defines (lines `=<id> [names]`). */
function readSets(bytes: Buffer): Map<string, GroupFiles> | null {
  const sets = new Map<string, GroupFiles>();
  const lines = readJournalLines(bytes, HEADER.length + 1);
  if (!Array.isArray(lines)) return null;
  for (const definition of lines) {
    if (!definition.startsWith('=')) continue;
    const line = definition.slice(1);
    const space = line.indexOf(' ');
    const names = space > 0 ? parseNames(line.slice(space + 1)) : null;
    if (!names) return null;
    sets.set(line.slice(0, space), names);
  }
  return sets;
}

/** The key at `bytes[start, end)` when it is one of `wanted` (by byte length, then bytes); else null. */
function wantedKey(
  bytes: Buffer,
  start: number,
  end: number,
  wanted: ReadonlyMap<number, Buffer[]>,
): string | null {
  for (const key of wanted.get(end - start) ?? [])
    if (bytes.compare(key, 0, key.length, start, end) === 0)
      return bytes.toString('utf8', start, end);
  return null;
}

function parseNames(text: string): GroupFiles | null {
  try {
    const names: unknown = JSON.parse(text);
    return Array.isArray(names) && names.every((name) => typeof name === 'string') ? names : null;
  } catch {
    return null;
  }
}
