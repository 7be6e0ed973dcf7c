/**
 * What is kept beside a built tree, in `<out>.state/`:
 *
 * - `manifest`: which file groups the tree holds and the fingerprint each was
 *   rendered from. Updates are appended as a journal: a group is marked
 *   unknown before its files are touched and given its new fingerprint after,
 *   so a crash at any point leaves a manifest that never vouches for files it
 *   did not see written.
 * - `tree`: the identity of the tree folder the manifest describes and the
 *   settings it was built with. Removed before a whole new tree is written and
 *   written last, so a manifest is trusted only for the very tree it describes.
 */
import { mkdir, open, readFile, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { RootHost } from '../hosts/index.ts';
import { writeFileAtomic } from '../output/atomic.ts';
import { compactFilesRecord } from './files-record.ts';
import { GroupStates, type GroupState, type GroupStateMap } from './group-states.ts';
import { checkedLine, readJournalLines } from './journal.ts';
import { readStateFile, stateDir } from './state-folder.ts';

export type { GroupState } from './group-states.ts';

// Version 2: each line carries its check (journal.ts); a manifest of version 1 is not read.
const HEADER = 'weblate-snapshot manifest 2';
const EARLIER_HEADER = 'weblate-snapshot manifest 1';

export interface Manifest {
  /** The tree's identity and settings (`dev:ino:settings`). */
  tree: string;
  /** The host whose files took the root names when the tree was built (`--host`), if any. */
  host?: RootHost | undefined;
  groups: GroupStateMap;
  /** Lines the file holds after its header: one per group once written whole, more as updates are appended. */
  journalLines: number;
}

export function manifestPath(outDir: string): string {
  return join(stateDir(outDir), 'manifest');
}

/** The identity of a folder, so a manifest is never trusted for a tree that was replaced or recreated. */
export async function treeIdentity(dir: string): Promise<string | null> {
  const info = await stat(dir).catch(() => null);
  return info?.isDirectory() ? `${info.dev}:${info.ino}` : null;
}

/** Whether the tree record beside `outDir` names this very folder: a tree this tool built there. */
export async function isRecordedTree(outDir: string): Promise<boolean> {
  const record = await readFile(treePath(outDir), 'utf8').catch(() => null);
  const identity = await treeIdentity(outDir);
  return record !== null && identity !== null && record.startsWith(`${identity}:`);
}

/** Reads the manifest of the tree at `outDir`, or null when there is none or it cannot be understood. */
export async function readManifest(outDir: string): Promise<Manifest | null> {
  const text = readStateFile(manifestPath(outDir));
  return text && readManifestText(outDir, text);
}

async function readManifestText(outDir: string, text: Buffer): Promise<Manifest | null> {
  const record = await readFile(treePath(outDir), 'utf8').catch(() => null);
  if (record === null) return null;
  const [tree = '', hostLine = ''] = record.split('\n');
  const host = /^host (\S+)$/.exec(hostLine)?.[1] as RootHost | undefined;
  if (text.toString('utf8', 0, HEADER.length + 1) !== `${HEADER}\n`) return null;
  const groups = readGroups(outDir, text);
  return groups && { tree: tree.trim(), host, groups: groups.states, journalLines: groups.lines };
}

/**
 * Where a manifest stood when it was read: the bytes of its whole lines, and their CRC-32. The
 * manifest only grows by appended lines until it is written whole, so a later reader whose first
 * bytes still match knows that the lines after them are every change since.
 */
export interface ManifestPosition {
  length: number;
  crc: number;
}

/**
 * The manifest as readManifest() reads it, where it stands, and, when it still starts with the
 * bytes `since` describes, the groups its lines after them name (their last state, or removed);
 * `changes` is null when it was written whole since (or `since` is null).
 */
export async function readManifestSince(
  outDir: string,
  since: ManifestPosition | null,
): Promise<{
  manifest: Manifest;
  position: ManifestPosition;
  changes: Map<string, GroupState | 'removed'> | null;
} | null> {
  const text = readStateFile(manifestPath(outDir));
  const manifest = text && (await readManifestText(outDir, text));
  if (!text || !manifest) return null;
  const length = text.lastIndexOf(0x0a) + 1;
  const position = { length, crc: crc32(text.subarray(0, length)) };
  const holds =
    since !== null &&
    since.length >= HEADER.length + 1 &&
    since.length <= length &&
    text[since.length - 1] === 0x0a &&
    crc32(text.subarray(0, since.length)) === since.crc;
  return { manifest, position, changes: holds ? changedSince(text, since.length) : null };
}

/** Whether the tree at `outDir` was recorded by a version whose manifest lines carry no check. */
export async function isEarlierManifest(outDir: string): Promise<boolean> {
  const start = await readFile(manifestPath(outDir), 'latin1').catch(() => '');
  return start.startsWith(`${EARLIER_HEADER}\n`) && (await isRecordedTree(outDir));
}

/**
 * Whether the journal is worth writing whole: once its stale lines pass a
 * quarter of the groups (and a floor, so a small tree is not rewritten on
 * every update). A rebuild that changed nothing never rewrites it.
 */
export function journalIsLong(manifest: Manifest): boolean {
  return staleLines(manifest) > Math.max(1000, manifest.groups.size / 4);
}

/** Lines of the journal that no longer describe a group (superseded or removed). */
export function staleLines(manifest: Manifest): number {
  return manifest.journalLines - manifest.groups.size;
}

/**
 * A stamp of the manifest and its tree record as they stand: any write to
 * either (an update appended, the journal compacted, a new tree) changes it.
 * Null when there is no manifest, or it describes another folder than the
 * one at `outDir` now (the tree was deleted or replaced).
 */
export async function manifestStamp(outDir: string): Promise<string | null> {
  const record = await readFile(treePath(outDir), 'utf8').catch(() => null);
  const info = await stat(manifestPath(outDir)).catch(() => null);
  const identity = await treeIdentity(outDir);
  if (record === null || info === null || identity === null || !record.startsWith(`${identity}:`))
    return null;
  return `${record.trim()}|${info.ino}:${info.size}:${info.mtimeMs}`;
}

/** Forgets which tree the manifest describes (before a whole new tree is written). */
export async function invalidateManifest(outDir: string): Promise<void> {
  await rm(treePath(outDir), { force: true });
}

/** Records which tree the manifest describes (and the host it was built for), once the manifest and the tree are both in place. */
export async function recordTree(
  outDir: string,
  tree: string,
  host: RootHost | undefined,
): Promise<void> {
  await writeFileAtomic(treePath(outDir), `${tree}\n${host ? `host ${host}\n` : ''}`, {
    durable: true,
  });
}

/** Writes a manifest as it is written during a build: group after group, without holding them. */
export class ManifestWriter {
  private chunk = `${HEADER}\n`;
  private readonly handle: Promise<FileHandle>;
  private readonly temporary: string;

  constructor(private readonly outDir: string) {
    this.temporary = `${manifestPath(outDir)}.tmp-${process.pid}`;
    this.handle = mkdir(stateDir(outDir), { recursive: true }).then(() =>
      open(this.temporary, 'w'),
    );
  }

  async add(key: string, fingerprint: number): Promise<void> {
    await this.line(checkedLine(`${base36(fingerprint)} ${key}`));
  }

  /** A group whose files may not match any fingerprint yet. */
  async addUnknown(key: string): Promise<void> {
    await this.line(checkedLine(`? ${key}`));
  }

  /**
   * Finishes the file and puts it in place, then its index (unless `index` is false: the caller
   * keeps it later with keepManifestIndex(), once it has let go of what it no longer needs).
   */
  async close(options: { index?: boolean } = {}): Promise<void> {
    await this.flush();
    const handle = await this.handle;
    await handle.sync();
    await handle.close();
    await rename(this.temporary, manifestPath(this.outDir));
    if (options.index !== false) await keepManifestIndex(this.outDir);
    else await rm(indexPath(this.outDir), { force: true });
  }

  async abort(): Promise<void> {
    const handle = await this.handle.catch(() => null);
    await handle?.close().catch(() => undefined);
    await rm(this.temporary, { force: true });
  }

  private async line(text: string): Promise<void> {
    this.chunk += text;
    if (this.chunk.length > 1 << 20) await this.flush();
  }

  private async flush(): Promise<void> {
    const text = this.chunk;
    this.chunk = '';
    await (await this.handle).write(text);
  }
}

/** Writes a whole manifest and its tree record (compacting the journal). */
export async function writeManifest(outDir: string, manifest: Manifest): Promise<void> {
  const writer = new ManifestWriter(outDir);
  try {
    for (const [key, state] of manifest.groups) {
      // A group still unknown keeps its mark, so its files are checked again next time.
      if (state === null) await writer.addUnknown(key);
      else await writer.add(key, state);
    }
    await writer.close();
  } catch (error) {
    await writer.abort();
    throw error;
  }
  await compactFilesRecord(outDir, manifest.groups);
  await recordTree(outDir, manifest.tree, manifest.host);
  manifest.journalLines = manifest.groups.size;
}

/** Appends journal lines to a manifest and says how many: the file beside the tree, or memory in tests. */
export type Journal = (
  entries: Iterable<[key: string, state: GroupState | 'removed']>,
) => Promise<number>;

/** The journal of the manifest beside the tree at `outDir`. */
export function manifestJournal(outDir: string): Journal {
  return (entries) => appendManifest(outDir, entries);
}

/** The folder, inside the state folder, where files replaced in place are written before they are renamed into the tree. */
export function scratchDir(outDir: string): string {
  return join(stateDir(outDir), 'tmp');
}

/** Appends journal lines (`?` unknown, `-` removed, or a fingerprint), waits until they are on disk, and says how many. */
export async function appendManifest(
  outDir: string,
  entries: Iterable<[key: string, state: GroupState | 'removed']>,
): Promise<number> {
  let text = '';
  let lines = 0;
  for (const [key, state] of entries) {
    text += checkedLine(
      `${state === 'removed' ? '-' : state === null ? '?' : base36(state)} ${key}`,
    );
    lines++;
  }
  if (!text) return 0;
  const handle = await open(manifestPath(outDir), 'a');
  try {
    await handle.write(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return lines;
}

/**
 * Keeps the index of the manifest as just written whole, so that the next read need not make it
 * (after ManifestWriter.close with `index: false`: until then a read indexes the text itself).
 */
export async function keepManifestIndex(outDir: string): Promise<void> {
  // The text is not held in a variable here: it can go as soon as it is indexed.
  const parts = GroupStates.indexToKeep(await readFile(manifestPath(outDir)), HEADER.length + 1);
  if (parts) await writeFileAtomic(indexPath(outDir), parts);
  else await rm(indexPath(outDir), { force: true });
}

// --- internal ---

/**
 * The groups of a manifest's text and its lines: from the index kept when it
 * was last written whole, and the journal lines appended since; or, without
 * an index that holds for the text, from the text alone.
 */
function readGroups(outDir: string, text: Buffer): { states: GroupStates; lines: number } | null {
  const kept = readStateFile(indexPath(outDir));
  const states =
    (kept && GroupStates.fromIndex(text, kept)) ?? GroupStates.parse(text, HEADER.length + 1);
  return states && { states, lines: states.linesRead };
}

/** The last state each line from byte `from` on gives a group; null when one is damaged or not a state. */
function changedSince(text: Buffer, from: number): Map<string, GroupState | 'removed'> | null {
  const lines = readJournalLines(text, from);
  if (!Array.isArray(lines)) return null;
  const changes = new Map<string, GroupState | 'removed'>();
  for (const line of lines) {
    const space = line.indexOf(' ');
    const state = line.slice(0, space);
    const fingerprint = Number.parseInt(state, 36);
    if (space < 1) return null;
    if (state === '-') changes.set(line.slice(space + 1), 'removed');
    else if (state === '?') changes.set(line.slice(space + 1), null);
    else if (Number.isSafeInteger(fingerprint)) changes.set(line.slice(space + 1), fingerprint);
    else return null;
  }
  return changes;
}

function indexPath(outDir: string): string {
  return join(stateDir(outDir), 'manifest.index');
}

function treePath(outDir: string): string {
  return join(stateDir(outDir), 'tree');
}

/**
 * A fingerprint as `toString(36)` writes it, digit by digit: V8 writes a number above 2^31 in
 * another radix through its slow floating-point path, about a microsecond for each group.
 */
function base36(fingerprint: number): string {
  if (!Number.isSafeInteger(fingerprint) || fingerprint < 0) return fingerprint.toString(36);
  let value = fingerprint;
  let text = '';
  do {
    const quotient = Math.floor(value / 36);
    text = BASE36_DIGITS[value - quotient * 36]! + text;
    value = quotient;
  } while (value > 0);
  return text;
}

const BASE36_DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz';
