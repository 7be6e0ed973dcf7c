import fc from 'fast-check';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { checkedLine, lineHolds, readJournalLines } from '../../../src/tree/journal.ts';

const text = fc.string({ unit: 'grapheme' }).filter((s) => !s.includes('\n'));

describe('a journal line', () => {
  it("starts with zlib's CRC-32 of its text, and holds as written", () => {
    fc.assert(
      fc.property(text, (line) => {
        const written = Buffer.from(checkedLine(line));
        expect(written.toString('utf8', 0, 8)).toBe(crc32(line).toString(16).padStart(8, '0'));
        expect(lineHolds(written, 0, written.length - 1)).toBe(true);
      }),
    );
  });

  it('reads back whole lines, leaves out a torn last one, and says which line is damaged', () => {
    const bytes = Buffer.from(`${checkedLine('one')}${checkedLine('two é')}${checkedLine('thr')}`);
    expect(readJournalLines(bytes)).toEqual(['one', 'two é', 'thr']);
    expect(readJournalLines(bytes.subarray(0, bytes.length - 1))).toEqual(['one', 'two é']);
    const flipped = Buffer.from(bytes);
    flipped[bytes.indexOf('two') + 1]! ^= 0x01;
    expect(readJournalLines(flipped)).toEqual({ damaged: 'line 2 does not match its check' });
  });
});
