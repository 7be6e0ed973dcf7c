/**
 * The state's parts: the cutter gives back every byte, in parts of 2 to 8
 * MiB cut where the content says, so an edit moves only the parts near it;
 * the root reads back as written, and a damaged one is refused with the reason.
 */
import { describe, expect, it } from 'vitest';
import {
  encodeStateRoot,
  isStateRoot,
  parseStateRoot,
  PartCutter,
  sha256Of,
  type StateRoot,
} from '../../../src/deploy/state-parts.ts';
import { fixedChecksum } from '../../support/fixed-bytes.ts';

const MIB = 2 ** 20;

/** Bytes that look like a deploy record: lines of keys and MD5s, none alike. */
function recordLike(bytes: number): Buffer {
  const lines: string[] = [];
  let size = 0;
  for (let n = 0; size < bytes; n++) {
    const line = `1 /api/translations/p${n}/\tindex.json ${fixedChecksum('state-parts', n)}\n`;
    lines.push(line);
    size += line.length;
  }
  return Buffer.from(lines.join('')).subarray(0, bytes);
}

/** The parts of `bytes` fed to the cutter in blocks of `block` bytes. */
function cut(bytes: Buffer, block: number): Buffer[] {
  const cutter = new PartCutter();
  const parts: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += block)
    parts.push(...cutter.push(bytes.subarray(at, at + block)));
  const last = cutter.end();
  return last ? [...parts, last] : parts;
}

describe('the part cutter', () => {
  const bytes = recordLike(24 * MIB);

  it('gives back every byte, in parts of 2 to 8 MiB (the last may be shorter), whatever the blocks', () => {
    const parts = cut(bytes, MIB);
    expect(Buffer.concat(parts).equals(bytes)).toBe(true);
    for (const part of parts.slice(0, -1)) {
      expect(part.length).toBeGreaterThanOrEqual(2 * MIB);
      expect(part.length).toBeLessThanOrEqual(8 * MIB);
    }
    expect(cut(bytes, 65_537).map(sha256Of)).toEqual(parts.map(sha256Of));
  });

  it('cuts at 8 MiB where the content never says to', () => {
    const parts = cut(Buffer.alloc(20 * MIB), MIB);
    expect(parts.map((part) => part.length)).toEqual([8 * MIB, 8 * MIB, 4 * MIB]);
  });

  it('after lines appended, or a line changed in the middle, names all but one or two parts again', () => {
    const before = new Set(cut(bytes, MIB).map(sha256Of));
    const appended = cut(Buffer.concat([bytes, recordLike(1000)]), MIB).map(sha256Of);
    expect(appended.filter((sha256) => !before.has(sha256)).length).toBeLessThanOrEqual(1);
    const middle = 12 * MIB;
    const edited = Buffer.concat([
      bytes.subarray(0, middle),
      Buffer.from('x\n'),
      bytes.subarray(middle),
    ]);
    const parts = cut(edited, MIB).map(sha256Of);
    expect(parts.filter((sha256) => !before.has(sha256)).length).toBeLessThanOrEqual(2);
  });

  it('gives no part for no bytes', () => {
    expect(cut(Buffer.alloc(0), MIB)).toEqual([]);
  });
});

describe('the root', () => {
  const root: StateRoot = {
    target: 's3://snap/prefix at http://127.0.0.1:9000',
    files: [
      { name: 'deploy-record', size: 10 },
      { name: 'empty', size: 0 },
    ],
    parts: [{ sha256: 'a'.repeat(64), size: 10 }],
  };

  it('reads back as written, and is told from a state of one object', () => {
    const bytes = encodeStateRoot(root);
    expect(isStateRoot(bytes)).toBe(true);
    expect(isStateRoot(Buffer.from([0x1f, 0x8b, 8, 0]))).toBe(false);
    expect(parseStateRoot(bytes)).toEqual({ ok: true, root });
  });

  it.each([
    ['cut short', (text: string) => text.slice(0, -10), 'its root is not a whole'],
    ['not JSON', (text: string) => text.replace('{', '['), 'its root is not JSON'],
    ['a part not a SHA-256', (text: string) => text.replace('a'.repeat(64), 'zz'), 'lacks'],
    ['sizes that differ', (text: string) => text.replace('"size":10}]', '"size":9}]'), 'add up'],
  ])('refuses a root %s, saying why', (_, edit, reason) => {
    const bytes = Buffer.from(edit(encodeStateRoot(root).toString('utf8')));
    expect(parseStateRoot(bytes)).toEqual({
      ok: false,
      reason: expect.stringContaining(reason) as string,
    });
  });
});
