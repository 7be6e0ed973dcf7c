/**
 * Issue 24, point 4 (the full build of a million on disk under 1 GiB): the main thread encoded
 * each batch of files into a new buffer and handed it to a writer thread, where it was garbage
 * once on disk, freed only when a collection came round in that thread. At 100,100
 * translations the written batches held some 80 MiB of the build's peak. A writer thread now
 * hands each batch's buffer back once it is on disk, and the encoder fills it again.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BatchEncoder, startWriterThreads } from '../../src/output/writer-thread.ts';
import { tempDir } from '../helpers.ts';

describe("the writer threads' buffers", () => {
  it('come back once their batch is on disk, and the encoder fills them again', async () => {
    const root = tempDir();
    const encoder = new BatchEncoder(64, 8);
    const returned: ArrayBuffer[] = [];
    const sizes: number[] = [];
    const threads = startWriterThreads(root, 2, (buffer) => {
      returned.push(buffer);
      sizes.push(buffer.byteLength);
      encoder.recycle(buffer);
    });
    try {
      for (let i = 0; i < 4; i++) {
        encoder.add(`f${i}/a.json`, `{"i":${i}}`);
        encoder.add(`f${i}/b.json`, `{"j":${i}}`);
        const batch = encoder.take();
        await threads.write(batch);
      }
      // Each batch's whole buffer (a buffer sent again is detached here: its size is taken as it came).
      expect(sizes).toEqual([64, 64, 64, 64]);
      expect(readFileSync(join(root, 'f3/b.json'), 'utf8')).toBe('{"j":3}');
      // The next batch is encoded into a buffer that came back, not a new one.
      encoder.add('g/a.json', 'again');
      const next = encoder.take();
      expect(returned).toContain(next.bytes.buffer);
    } finally {
      await threads.close();
    }
  });

  it('keeps a buffer larger than a batch (one large file) for no one', () => {
    const encoder = new BatchEncoder(16, 8);
    encoder.add('big', 'z'.repeat(100));
    const big = encoder.take();
    encoder.recycle(big.bytes.buffer as ArrayBuffer);
    encoder.add('a', 'x');
    expect(encoder.take().bytes.buffer).not.toBe(big.bytes.buffer);
  });
});
