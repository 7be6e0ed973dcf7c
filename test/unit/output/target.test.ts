import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dirTarget } from '../../../src/output/target.ts';
import { BatchEncoder } from '../../../src/output/writer-thread.ts';
import { readTree, tempDir } from '../../helpers.ts';

describe('BatchEncoder', () => {
  it('packs files back to back as UTF-8, says where each ends and how many bytes each took', () => {
    const encoder = new BatchEncoder(64);
    expect(encoder.add('a', 'ab')).toBe(2);
    expect(encoder.add('b', 'čř')).toBe(4);
    const batch = encoder.take();
    expect(batch.paths).toEqual(['a', 'b']);
    expect([...batch.ends]).toEqual([2, 6]);
    expect(Buffer.from(batch.bytes).toString('utf8')).toBe('abčř');
  });

  it('refuses a file that may not fit, and takes one larger than a batch alone', () => {
    const encoder = new BatchEncoder(16);
    expect(encoder.add('a', 'x'.repeat(4))).toBe(4);
    expect(encoder.add('b', 'y'.repeat(5))).toBe(-1); // 4 used + up to 15 more > 16
    encoder.take();
    expect(encoder.add('big', 'z'.repeat(100))).toBe(100);
    expect(Buffer.from(encoder.take().bytes).toString()).toBe('z'.repeat(100));
  });

  it('packs a file given in parts as the parts written one after the other, sized by all of them', () => {
    const encoder = new BatchEncoder(16);
    expect(encoder.add('a', 'xx')).toBe(2);
    expect(encoder.add('b', ['č', 'ř', 'yyy'])).toBe(-1); // 2 used + up to 15 more > 16
    encoder.take();
    expect(encoder.add('b', ['č', 'ř', 'yyy'])).toBe(7);
    const batch = encoder.take();
    expect([...batch.ends]).toEqual([7]);
    expect(Buffer.from(batch.bytes).toString('utf8')).toBe('čřyyy');
  });

  it('copies parts already encoded as they are, sized by their bytes', () => {
    const encoder = new BatchEncoder(16);
    expect(encoder.add('a', ['{"a":', Buffer.from('"čř"'), '}'])).toBe(12); // at most 3 * 5 + 6 + 3 * 1 = 24 bytes: a buffer of 24
    expect(encoder.add('b', [Buffer.from('x'.repeat(13))])).toBe(-1); // 12 used + 13 > 24
    const batch = encoder.take();
    expect([...batch.ends]).toEqual([12]);
    expect(Buffer.from(batch.bytes).toString('utf8')).toBe('{"a":"čř"}');
  });
});

describe('dirTarget', () => {
  const files = Object.fromEntries(
    Array.from({ length: 300 }, (_, i) => [
      `api/item-${i}/index.json`,
      `{"name":"Nováková ${i} 🌍","pad":"${'.'.repeat(i * 7)}"}\n`,
    ]),
  );

  it.each([1, 2, 3])(
    'writes every file whole across many small batches with %i writer threads, then swaps the tree in',
    async (writerThreads) => {
      const out = join(tempDir(), 'dist');
      mkdirSync(out);
      writeFileSync(join(out, 'old.json'), '{}');
      const target = dirTarget(out, { batchBytes: 512, batchesInFlight: 4, writerThreads });
      for (const [path, data] of Object.entries(files)) await target.write(path, data);
      await target.commit();
      expect(Object.fromEntries(readTree(out))).toEqual(files);
    },
  );

  it('leaves the old tree as it was when aborted', async () => {
    const dir = tempDir();
    const out = join(dir, 'dist');
    mkdirSync(out);
    writeFileSync(join(out, 'old.json'), '{}');
    const target = dirTarget(out, { batchBytes: 512 });
    for (const [path, data] of Object.entries(files)) await target.write(path, data);
    await target.abort();
    expect(Object.fromEntries(readTree(out))).toEqual({ 'old.json': '{}' });
    expect(readdirSync(dir)).toEqual(['dist']);
  });
});
