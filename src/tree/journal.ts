/**
 * The one integrity scheme of the state folder's journals (the manifest, the files record, the
 * build cache's journal, the deploy records): each line starts with the CRC-32 of the rest of it,
 * in 8 hex digits, and a space. Bytes after the last line break are an append a crash cut short and
 * are ignored; a whole line whose check fails is damage, and the journal is not trusted.
 */
import { crc32 } from 'node:zlib';

/** Bytes before a line's text: its check and a space. */
export const CHECK_WIDTH = 9;

/** A journal line: its check, then `text` (which holds no line break). */
export function checkedLine(text: string): string {
  return `${hex8(asciiCrc(text) ?? crc32(text))} ${text}\n`;
}

/** Whether the line at `bytes[start, end)` (its line break left out) carries its own check. */
export function lineHolds(bytes: Uint8Array, start: number, end: number): boolean {
  if (end - start < CHECK_WIDTH || bytes[start + CHECK_WIDTH - 1] !== SPACE) return false;
  let check = 0;
  for (let i = start; i < start + 8; i++) {
    const digit = hexDigit(bytes[i]!);
    if (digit < 0) return false;
    check = check * 16 + digit;
  }
  return check === crcOfBytes(bytes, start + CHECK_WIDTH, end);
}

/** Why a journal is not trusted, in words. */
interface JournalDamage {
  damaged: string;
}

/**
 * The text of each whole line of `bytes` from byte `from` on, its check taken off; damage when a
 * line's check fails. Empty lines are skipped.
 */
export function readJournalLines(bytes: Buffer, from = 0): string[] | JournalDamage {
  const lines: string[] = [];
  let number = 0;
  for (let start = from, end = bytes.indexOf(NEWLINE, from); end !== -1;) {
    number++;
    if (end > start) {
      if (!lineHolds(bytes, start, end)) return lineDamage(number);
      lines.push(bytes.toString('utf8', start + CHECK_WIDTH, end));
    }
    start = end + 1;
    end = bytes.indexOf(NEWLINE, start);
  }
  return lines;
}

/** The damage of the `number`th line read (counted from where the reading began). */
function lineDamage(number: number): JournalDamage {
  return { damaged: `line ${number} does not match its check` };
}

// --- internal ---

const NEWLINE = 0x0a;
const SPACE = 0x20;

/** The CRC-32 table (IEEE, as zlib's), for checks over a range of bytes without copying it. */
const TABLE = (() => {
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
})();

function crcOfBytes(bytes: Uint8Array, start: number, end: number): number {
  let crc = -1;
  for (let i = start; i < end; i++) crc = TABLE[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ -1) >>> 0;
}

/** The CRC-32 of an ASCII string from its char codes (no copy); null when it is not ASCII. */
function asciiCrc(text: string): number | null {
  let crc = -1;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0x7f) return null;
    crc = TABLE[(crc ^ code) & 0xff]! ^ (crc >>> 8);
  }
  return (crc ^ -1) >>> 0;
}

/** Eight hex digits, a byte at a time: `toString(16)` of a number above 2^31 took a microsecond. */
function hex8(value: number): string {
  return (
    HEX_BYTES[value >>> 24]! +
    HEX_BYTES[(value >>> 16) & 0xff]! +
    HEX_BYTES[(value >>> 8) & 0xff]! +
    HEX_BYTES[value & 0xff]!
  );
}

const HEX_BYTES = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  return -1;
}
