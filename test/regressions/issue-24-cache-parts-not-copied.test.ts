/**
 * Issue 24: a first publish at a million translations in under 1 GiB. The build cache is
 * written at the end of a publish, the model still live, each part of the model as it is
 * encoded. Each part was framed (its length and CRC-32 before it) by copying it whole into a
 * new buffer: some 27 MB more for the head at a million translations (every component in it).
 * Now the frame's header and the part are written one after the other; the file reads back the
 * same.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readBuildCache, writeBuildCache } from '../../src/cache/cache-file.ts';
import { tempDir } from '../helpers.ts';

const KEY = { contentDir: '', settings: '{}' };
const PART = 8 * 2 ** 20;

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the build cache's parts", () => {
  it('are written without a copy of each, and read back the same', async () => {
    const outDir = tempDir();
    const large = Buffer.alloc(PART, 7);
    large.write('the head of the model', 0);
    const small = Buffer.from('a chunk of translations');
    const concat = vi.spyOn(Buffer, 'concat');
    await writeBuildCache(outDir, {
      key: KEY,
      stamp: 'no tree',
      takenAt: 1,
      translations: 2,
      warnings: new Map(),
      signatures: new Map(),
      model: [large, small],
    });
    const copied = concat.mock.results.map((result) => (result.value as Buffer).length);
    expect(copied.filter((length) => length >= PART)).toEqual([]);
    concat.mockRestore();
    const cache = await readBuildCache(outDir, KEY);
    expect(cache).not.toBeNull();
    const parts = [...cache!.model];
    expect(parts.length).toBe(2);
    // Compared as bytes: a deep comparison of 8 MB goes element by element.
    expect(parts[0]!.equals(large)).toBe(true);
    expect(parts[1]!.equals(small)).toBe(true);
  });
});
