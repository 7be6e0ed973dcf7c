/**
 * The build cache kept in a tree's state folder: what a new build process
 * needs to bring the tree in line with content of which only a few files
 * changed, without reading and checking every file again. Two files:
 *
 * - `build-cache`: written whole by a build that read all the content: the
 *   key it holds for (content folder, settings, this very code), the stamp of
 *   the manifest it left, the signature of every content file, the model.
 * - `build-cache.journal`: a line appended by each build that used the
 *   cache (a journal of tree/journal.ts): the files it found changed
 *   (signatures, and the text of component files), and the manifest's stamp after it.
 *
 * The whole file's records are framed with their length and a CRC-32. A damaged record or line,
 * a key that differs, or a manifest changed by anything else since (the sidecar, --watch, a
 * crash) and the cache is not trusted: the build reads the content instead.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
} from 'node:fs';
import { appendFile, open, readFile, rename, rm, mkdir, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { crc32 } from 'node:zlib';
import type { FileSignature } from '../content/signatures.ts';
import type { ContentError } from '../errors.ts';
import { checkedLine, readJournalLines } from '../tree/journal.ts';
import { stateDir } from '../tree/state-folder.ts';
import { packageFile } from '../package-files.ts';

/** What a cache holds for: the same content folder (as given), settings and code. */
export interface CacheKey {
  contentDir: string;
  /** The command-line settings (overrides of site.yaml, host), as JSON. */
  settings: string;
}

/** A signature, and when the listing that took it began (a time too close to it is not trusted alone). */
export interface TimedSignature extends FileSignature {
  takenAt: number;
}

/** A content file found changed by a build that used the cache. */
export interface FileChange {
  path: string;
  /** Null when the file is gone. */
  signature: TimedSignature | null;
  /** The new text of a component file whose text changed (replayed on the cached model). */
  text?: string;
  /** With a new text: what the file most likely left out by mistake (content/rules.ts#componentWarnings). */
  warnings?: ContentError[];
}

export interface BuildCache {
  /** Every content file's signature, the journal's changes applied. */
  signatures: Map<string, TimedSignature>;
  /** The model as the full build left it (cache/model-codec.ts), its parts read from the file as iterated. */
  model: Iterable<Buffer>;
  /** The last text of each component file changed since (null: removed), in the order first seen. */
  replay: Map<string, string | null>;
  /** The manifest's stamp after the last build that wrote to the cache. */
  stamp: string;
  /** Translations in the content as the last build that wrote to the cache saw it. */
  translations: number;
  /** The warnings of each file that has any, by the file's path as messages show it. */
  warnings: Map<string, ContentError[]>;
  /** Batches in the journal. */
  batches: number;
}

/** Reads the cache beside the tree at `outDir`; null when there is none, or it is damaged or holds for another key. */
export async function readBuildCache(outDir: string, key: CacheKey): Promise<BuildCache | null> {
  const file = basePath(outDir);
  const located = locateRecords(file, 2);
  if (!located || located.kept.length < 2) return null;
  const records = located.kept;
  try {
    const head = JSON.parse(records[0]!.toString('utf8')) as BaseHead;
    if (
      head.format !== FORMAT ||
      head.code !== codeVersion() ||
      JSON.stringify(head.key) !== JSON.stringify(key)
    )
      return null;
    const signatures = decodeSignatures(records[1]!, head.takenAt);
    const cache: BuildCache = {
      signatures,
      model: new FileRecords(file, located.spans),
      replay: new Map(),
      stamp: head.stamp,
      translations: head.translations,
      warnings: new Map(head.warnings),
      batches: 0,
    };
    const journal = await readFile(journalPath(outDir)).catch(() => null);
    const lines = journal ? readJournalLines(journal) : [];
    if (!Array.isArray(lines)) return null;
    for (const line of lines)
      applyBatch(cache, deserialize(Buffer.from(line, 'base64')) as Batch, key.contentDir);
    return cache;
  } catch {
    return null;
  }
}

interface BaseContents {
  key: CacheKey;
  stamp: string;
  takenAt: number;
  translations: number;
  warnings: ReadonlyMap<string, ContentError[]>;
  signatures: ReadonlyMap<string, FileSignature>;
  /** The model's parts, each written as soon as it is produced. */
  model: Iterable<Buffer>;
}

/** Writes the cache whole (the journal goes first, so a crash between the two leaves a cache that is not trusted). */
export async function writeBuildCache(outDir: string, contents: BaseContents): Promise<void> {
  await removeBuildCache(outDir);
  const { key, stamp, takenAt, translations } = contents;
  const head: BaseHead = {
    format: FORMAT,
    code: codeVersion(),
    key,
    stamp,
    takenAt,
    translations,
    warnings: [...contents.warnings],
  };
  const temporary = `${basePath(outDir)}.tmp-${process.pid}`;
  await mkdir(stateDir(outDir), { recursive: true });
  const records = [Buffer.from(JSON.stringify(head)), encodeSignatures(contents.signatures)];
  try {
    await writeRecords(temporary, records, contents.model);
    await rename(temporary, basePath(outDir));
  } catch (error) {
    // A part that fails to encode or to be written leaves no half-written file behind.
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Appends a batch of changes, with the manifest's stamp and the count of translations after them. */
export async function appendBuildCache(
  outDir: string,
  changes: readonly FileChange[],
  stamp: string,
  translations: number,
): Promise<void> {
  const batch: Batch = { changes: [...changes], stamp, translations };
  await appendFile(journalPath(outDir), checkedLine(serialize(batch).toString('base64')));
}

/** Sets the warnings of one file (none: its entry goes). */
export function setWarnings(
  warnings: Map<string, ContentError[]>,
  file: string,
  found: ContentError[],
): void {
  if (found.length > 0) warnings.set(file, found);
  else warnings.delete(file);
}

/** The cache's files beside the tree at `outDir` (whole file, then journal), whether there or not. */
export function buildCacheFiles(outDir: string): string[] {
  return [basePath(outDir), journalPath(outDir)];
}

/** Whether a cache file is beside the tree, trusted or not. */
export function hasBuildCache(outDir: string): boolean {
  return existsSync(basePath(outDir));
}

export async function removeBuildCache(outDir: string): Promise<void> {
  await rm(journalPath(outDir), { force: true });
  await rm(basePath(outDir), { force: true });
}

// --- internal ---

/** 2: the model's components in chunks of their own after its head. */
const FORMAT = 2;
let memo: string | null = null;

/**
 * The version of this code: a hash of its TypeScript sources (or, in the
 * package, which ships no sources, of the JavaScript compiled from them) and
 * of the language catalog. In a clone the sources decide, whether they run or
 * a compiled copy does. A cache written by other code is not trusted (its model may differ).
 */
function codeVersion(): string {
  if (memo === null) {
    const hash = createHash('sha256');
    const sources = packageFile('src/');
    const code = existsSync(sources)
      ? { dir: sources, ext: '.ts' }
      : { dir: packageFile('lib/src/'), ext: '.js' };
    const files = readdirSync(code.dir, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith(code.ext))
      .sort();
    for (const file of files)
      hash
        .update(file)
        .update('\0')
        .update(readFileSync(new URL(file, code.dir)))
        .update('\0');
    hash.update(readFileSync(packageFile('data/languages/catalog.json')));
    memo = hash.digest('base64');
  }
  return memo;
}

interface BaseHead {
  format: number;
  code: string;
  key: CacheKey;
  stamp: string;
  takenAt: number;
  translations: number;
  warnings: [string, ContentError[]][];
}

interface Batch {
  changes: FileChange[];
  stamp: string;
  translations: number;
}

interface EncodedSignatures {
  paths: string;
  hashes: string;
  sizes: Float64Array;
  mtimes: Float64Array;
}

function basePath(outDir: string): string {
  return join(stateDir(outDir), 'build-cache');
}

function journalPath(outDir: string): string {
  return join(stateDir(outDir), 'build-cache.journal');
}

/** Writes each record framed into a new file at `path`, then the model's parts as they are encoded. */
async function writeRecords(
  path: string,
  records: readonly Buffer[],
  model: Iterable<Buffer>,
): Promise<void> {
  const handle = await open(path, 'w');
  try {
    // writeFile() goes on after a short write (a full disk, a size limit) until it fails or is done.
    for (const record of records) await writeFramed(handle, record);
    // Each part as it is encoded: the parts are never all held.
    for (const part of model) await writeFramed(handle, part);
  } finally {
    await handle.close();
  }
}

/** A record framed; its header and its bytes written apart, so a model's part (megabytes) is not copied. */
async function writeFramed(handle: FileHandle, payload: Buffer): Promise<void> {
  await handle.writeFile(frameHeader(payload));
  await handle.writeFile(payload);
}

/** What goes before a record's bytes: their length and their CRC-32. */
function frameHeader(payload: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32LE(payload.length, 0);
  header.writeUInt32LE(crc32(payload), 4);
  return header;
}

/** Where a record's bytes are in a file, and their CRC-32. */
interface RecordSpan {
  offset: number;
  length: number;
  crc: number;
}

/**
 * The whole records of a file, each checked: the first `keep` read, the others only located, so
 * that a reader reads each when it needs it rather than holding the whole file (at a million
 * translations the model's records are some 400 MB). Null when there is no file or a record is
 * damaged; a record cut short at the end (a crash mid-append) ends the list.
 */
function locateRecords(file: string, keep: number): { kept: Buffer[]; spans: RecordSpan[] } | null {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const size = fstatSync(fd).size;
    const header = Buffer.alloc(8);
    const kept: Buffer[] = [];
    const spans: RecordSpan[] = [];
    // One buffer, grown as needed, reads the records only checked.
    let scratch = Buffer.alloc(0);
    for (let offset = 0; offset + 8 <= size;) {
      if (!readFully(fd, header, offset)) return null;
      const span = {
        offset: offset + 8,
        length: header.readUInt32LE(0),
        crc: header.readUInt32LE(4),
      };
      if (span.offset + span.length > size) break;
      const keeping = kept.length < keep;
      if (!keeping && scratch.length < span.length) scratch = Buffer.allocUnsafeSlow(span.length);
      const payload = keeping
        ? Buffer.allocUnsafeSlow(span.length)
        : scratch.subarray(0, span.length);
      if (!readFully(fd, payload, span.offset) || crc32(payload) !== span.crc) return null;
      if (keeping) kept.push(payload);
      else spans.push(span);
      offset = span.offset + span.length;
    }
    return { kept, spans };
  } finally {
    closeSync(fd);
  }
}

/** Records of a file that locateRecords() checked, read again one at a time as iterated. */
class FileRecords implements Iterable<Buffer> {
  constructor(
    private readonly file: string,
    private readonly spans: readonly RecordSpan[],
  ) {}

  *[Symbol.iterator](): Generator<Buffer> {
    const fd = openSync(this.file, 'r');
    try {
      for (const { offset, length, crc } of this.spans) {
        const payload = Buffer.allocUnsafeSlow(length);
        if (!readFully(fd, payload, offset) || crc32(payload) !== crc)
          throw new Error(`${this.file} changed since it was read`);
        yield payload;
      }
    } finally {
      closeSync(fd);
    }
  }
}

/** Fills `into` from the file at `position`; false when the file ends first (cut since). */
function readFully(fd: number, into: Buffer, position: number): boolean {
  for (let at = 0; at < into.length;) {
    const read = readSync(fd, into, at, into.length - at, position + at);
    if (read === 0) return false;
    at += read;
  }
  return true;
}

function applyBatch(cache: BuildCache, batch: Batch, contentDir: string): void {
  for (const change of batch.changes) {
    if (change.signature) cache.signatures.set(change.path, change.signature);
    else cache.signatures.delete(change.path);
    if (change.text !== undefined || !change.signature) {
      cache.replay.set(change.path, change.signature ? change.text! : null);
      setWarnings(cache.warnings, join(contentDir, change.path), change.warnings ?? []);
    }
  }
  cache.stamp = batch.stamp;
  cache.translations = batch.translations;
  cache.batches++;
}

const SEPARATOR = '\u0000';

function encodeSignatures(signatures: ReadonlyMap<string, FileSignature>): Buffer {
  const paths = [...signatures.keys()];
  const values = [...signatures.values()];
  const encoded: EncodedSignatures = {
    paths: paths.join(SEPARATOR),
    hashes: values.map((s) => s.hash).join(SEPARATOR),
    sizes: Float64Array.from(values, (s) => s.size),
    mtimes: Float64Array.from(values, (s) => s.mtimeMs),
  };
  return serialize(encoded);
}

function decodeSignatures(record: Buffer, takenAt: number): Map<string, TimedSignature> {
  const encoded = deserialize(record) as EncodedSignatures;
  const signatures = new Map<string, TimedSignature>();
  if (encoded.sizes.length === 0) return signatures;
  const paths = encoded.paths.split(SEPARATOR);
  const hashes = encoded.hashes.split(SEPARATOR);
  if (paths.length !== encoded.sizes.length || hashes.length !== paths.length)
    throw new Error('signatures do not line up');
  paths.forEach((path, i) =>
    signatures.set(path, {
      size: encoded.sizes[i]!,
      mtimeMs: encoded.mtimes[i]!,
      hash: hashes[i]!,
      takenAt,
    }),
  );
  return signatures;
}
