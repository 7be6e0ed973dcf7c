/**
 * Resuming an interrupted pull: every JSON answer fetched is appended to
 * `<out>/.pull-state.jsonl` (one line per URL, after a header line naming
 * the API), so a re-run reads it from there instead of asking the server
 * again. The file is deleted once the pull completes. A line cut short by a
 * crash is dropped on the next run. No credential is ever written to it.
 */
import { mkdir, open, readFile, rm, truncate, type FileHandle } from 'node:fs/promises';
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
  /** Set when a resume file of another API was found and set aside. */
  readonly notice: string | null;
  /** Waits for pending appends and closes the file (kept for the next run). */
  close(): Promise<void>;
  /** The pull is complete: the file goes. */
  remove(): Promise<void>;
}

interface ParsedState {
  answers: Map<string, JsonAnswer>;
  /** Bytes of the text made of whole lines (a torn last line is cut off). */
  wholeBytes: number;
  /** The API the file was written for, or null when there is no valid header. */
  from: string | null;
}

/** Reads the text of a resume file; every whole line after the header is one answer. */
export function parseState(text: string): ParsedState {
  const end = text.lastIndexOf('\n') + 1;
  const lines = text.slice(0, end).split('\n').slice(0, -1);
  const header = lines.length > 0 ? parseLine(lines[0]!) : null;
  const from =
    header && typeof header.from === 'string' && header['pull-state'] === 1 ? header.from : null;
  const answers = new Map<string, JsonAnswer>();
  for (const line of lines.slice(1)) {
    const record = parseLine(line);
    if (record && typeof record.url === 'string' && typeof record.status === 'number') {
      const answer: JsonAnswer = {
        status: record.status,
        body: record.body,
        contentType: 'application/json',
      };
      if (typeof record.date === 'string') answer.date = record.date;
      answers.set(record.url, answer);
    }
  }
  return { answers, wholeBytes: Buffer.byteLength(text.slice(0, end)), from };
}

/** Opens the resume file of `outDir` for a pull from `from`, reading what an earlier run kept. */
export async function openState(outDir: string, from: string): Promise<ResumeState> {
  const file = join(outDir, STATE_FILE);
  await mkdir(outDir, { recursive: true });
  const text = await readFile(file, 'utf8').catch(() => '');
  const parsed = parseState(text);
  const resumable = parsed.from === from;
  let notice: string | null = null;
  if (resumable) await truncate(file, parsed.wholeBytes);
  else if (parsed.from !== null)
    notice = `Set aside an unfinished pull of ${parsed.from} found in ${outDir}; starting over for ${from}.`;
  const handle = await open(file, resumable ? 'a' : 'w');
  if (!resumable) await handle.write(`${JSON.stringify({ 'pull-state': 1, from })}\n`);
  return stateOn(file, handle, resumable ? parsed.answers : new Map<string, JsonAnswer>(), notice);
}

// --- internal ---

function stateOn(
  file: string,
  handle: FileHandle,
  answers: Map<string, JsonAnswer>,
  notice: string | null,
): ResumeState {
  let writes: Promise<unknown> = Promise.resolve();
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await writes.catch(() => undefined);
    await handle.close();
  };
  return {
    get: (url) => answers.get(url),
    keep(url, answer) {
      if (closed) return Promise.resolve(); // a late answer after a stop: fetched again next time
      const line = `${JSON.stringify({ url, status: answer.status, body: answer.body, ...(answer.date ? { date: answer.date } : {}) })}\n`;
      const write = writes.then(() => handle.write(line));
      writes = write.catch(() => undefined);
      return write.then(() => undefined);
    },
    resumed: answers.size,
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
