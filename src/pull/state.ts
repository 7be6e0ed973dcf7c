/**
 * Resuming an interrupted pull: every JSON answer fetched is appended to
 * `<out>/.pull-state.jsonl` (one line per URL, after a header line naming
 * the API), so a re-run reads it from there instead of asking the server
 * again. The file is read line by line, so it may be of any size, and
 * deleted once the pull completes; a resumed pull keeps where each answer's
 * line is, not the answer, and reads it again when the walk asks for it.
 * A line cut short by a crash is dropped on the next run. No credential is
 * ever written to it.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { constants, mkdir, open, rm, truncate, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { JsonAnswer } from './http.ts';

export const STATE_FILE = '.pull-state.jsonl';

export interface ResumeState {
  /** The answer kept for `url` by an earlier run, if any. */
  get(url: string): JsonAnswer | undefined;
  /** Keeps an answer: appended to the file before the promise resolves. */
  keep(url: string, answer: JsonAnswer): Promise<void>;
  /** Answers read back from an earlier run. */
  readonly resumed: number;
  /** Bytes of the answers read back (they count towards --max-bytes). */
  readonly bytes: number;
  /** Whether the answers are those of a --full pull, which a re-run resumes as one. */
  readonly full: boolean;
  /** Set when a resume file was found and set aside (of another API, or by --full). */
  readonly notice: string | null;
  /** Waits for pending appends and closes the file (kept for the next run). */
  close(): Promise<void>;
  /** The pull is complete: the file goes. */
  remove(): Promise<void>;
}

interface ParsedState<T = JsonAnswer> {
  /** By URL: the answer, or where its line is in the file. */
  answers: Map<string, T>;
  /** Bytes of the text made of whole lines (a torn last line is cut off). */
  wholeBytes: number;
  /** The API the file was written for, or null when there is no valid header. */
  from: string | null;
  /** The header says the pull reads everything (--full). */
  full: boolean;
}

/** Reads the text of a resume file; every whole line after the header is one answer. */
export function parseState(text: string): ParsedState {
  const parser = stateParser(answerOf);
  const end = text.lastIndexOf('\n') + 1;
  for (const line of text.slice(0, end).split('\n').slice(0, -1))
    parser.line(line, Buffer.byteLength(line) + 1);
  return parser.result();
}

/**
 * Opens the resume file of `outDir` for a pull from `from`, reading what an
 * earlier run kept; `full` (--full) sets it aside and starts a new one.
 */
export async function openState(
  outDir: string,
  from: string,
  options: { full?: boolean } = {},
): Promise<ResumeState> {
  const file = join(outDir, STATE_FILE);
  await mkdir(outDir, { recursive: true });
  const parsed = await readStateFile(file);
  const resumable = parsed.from === from && !options.full;
  let notice: string | null = null;
  if (resumable) await truncate(file, parsed.wholeBytes);
  else if (parsed.from !== null && parsed.from !== from)
    notice = `Set aside an unfinished pull of ${parsed.from} found in ${outDir}; starting over for ${from}.`;
  else if (parsed.answers.size > 0)
    notice = `--full: set aside the ${parsed.answers.size} answers an interrupted pull kept in ${outDir}; everything is read anew.`;
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW;
  const handle = await open(file, flags | (resumable ? constants.O_APPEND : constants.O_TRUNC));
  if (!resumable) await handle.write(`${JSON.stringify(header(from, options.full === true))}\n`);
  const kept = resumable ? parsed : { answers: new Map(), wholeBytes: 0, full: options.full };
  return stateOn(file, handle, {
    answers: kept.answers,
    lines: kept.answers.size > 0 ? openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW) : null,
    bytes: kept.wholeBytes,
    full: kept.full === true,
    notice,
  });
}

// --- internal ---

/** The longest line read back: longer than any answer a pull keeps (64 MiB), so only damage is longer. */
const MAX_LINE_BYTES = 256 * 2 ** 20;

/** Where an answer's line is in the resume file. */
interface LinePlace {
  offset: number;
  bytes: number;
}

/** The resume file read in chunks, line by line (none, when there is no file). */
async function readStateFile(file: string): Promise<ParsedState<LinePlace>> {
  const parser = stateParser((_, offset, bytes) => ({ offset, bytes }));
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    },
  );
  if (!handle) return parser.result();
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const chunk of handle.createReadStream()) {
    const buffer = chunk as Buffer;
    let start = 0;
    for (let end = buffer.indexOf(10); end !== -1; end = buffer.indexOf(10, start)) {
      const bytes = pendingBytes + end - start + 1;
      const line = bytes > MAX_LINE_BYTES ? [] : [...pending, buffer.subarray(start, end)];
      parser.line(Buffer.concat(line).toString('utf8'), bytes);
      pending = [];
      pendingBytes = 0;
      start = end + 1;
    }
    pendingBytes += buffer.length - start;
    if (pendingBytes <= MAX_LINE_BYTES) pending.push(buffer.subarray(start));
  }
  return parser.result();
}

/**
 * Takes the lines of a resume file one by one: the header, then answers (the
 * last of a URL wins), each kept as `entry` makes it of the line's record and place.
 */
function stateParser<T>(
  entry: (record: Record<string, unknown>, offset: number, bytes: number) => T,
) {
  const state: ParsedState<T> = { answers: new Map(), wholeBytes: 0, from: null, full: false };
  return {
    line(text: string, bytes: number) {
      const record = parseLine(text);
      if (state.wholeBytes === 0) readHeader(state, record);
      else if (record && typeof record.url === 'string' && typeof record.status === 'number')
        state.answers.set(record.url, entry(record, state.wholeBytes, bytes));
      state.wholeBytes += bytes;
    },
    result: () => state,
  };
}

function header(from: string, full: boolean): Record<string, unknown> {
  return { 'pull-state': 1, from, ...(full ? { full: true } : {}) };
}

function readHeader(state: ParsedState<unknown>, record: Record<string, unknown> | null): void {
  if (!record || typeof record.from !== 'string' || record['pull-state'] !== 1) return;
  state.from = record.from;
  state.full = record.full === true;
}

function answerOf(record: Record<string, unknown>): JsonAnswer {
  const answer: JsonAnswer = {
    status: record.status as number,
    body: record.body,
    contentType: 'application/json',
  };
  if (typeof record.date === 'string') answer.date = record.date;
  return answer;
}

function stateOn(
  file: string,
  handle: FileHandle,
  kept: {
    answers: Map<string, LinePlace>;
    /** The resume file open for reading the answers' lines again; null when it has none. */
    lines: number | null;
    bytes: number;
    full: boolean;
    notice: string | null;
  },
): ResumeState {
  const { answers, notice } = kept;
  let writes: Promise<unknown> = Promise.resolve();
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    if (kept.lines !== null) closeSync(kept.lines);
    await writes.catch(() => undefined);
    await handle.close();
  };
  return {
    get(url) {
      const place = answers.get(url);
      if (!place || kept.lines === null || closed) return undefined;
      const line = Buffer.alloc(place.bytes);
      readSync(kept.lines, line, 0, place.bytes, place.offset);
      const record = parseLine(line.toString('utf8'));
      // The line read as this run found it: anything else is a bug.
      if (!record) throw new Error(`Internal error: the line of ${url} in ${file} changed`);
      return answerOf(record);
    },
    keep(url, answer) {
      if (closed) return Promise.resolve(); // a late answer after a stop: fetched again next time
      const line = `${JSON.stringify({ url, status: answer.status, body: answer.body, ...(answer.date ? { date: answer.date } : {}) })}\n`;
      const write = writes.then(() => handle.write(line));
      writes = write.catch(() => undefined);
      return write.then(() => undefined);
    },
    resumed: answers.size,
    bytes: kept.bytes,
    full: kept.full,
    notice,
    close,
    async remove() {
      await close();
      await rm(file, { force: true });
    },
  };
}

function parseLine(line: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(line) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
