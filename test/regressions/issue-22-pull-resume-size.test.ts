/**
 * Issue 22, item 9: a resume file over about 512 MiB (the longest string
 * V8 makes) could not be read whole, was taken for no file at all, and the
 * pull started over, truncating it. It is now read line by line, whatever
 * its size.
 */
import { openSync, statSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openState, STATE_FILE } from '../../src/pull/state.ts';
import { tempDir } from '../helpers.ts';

const FROM = 'https://weblate.example.org/api/';

describe('a resume file larger than a string can be', () => {
  it('is read back, every answer of it, and kept as it is', async () => {
    const dir = tempDir();
    const file = join(dir, STATE_FILE);
    const fd = openSync(file, 'w');
    writeSync(fd, `{"pull-state":1,"from":"${FROM}"}\n`);
    // 540 answers of 1 MiB for one URL (the last one counts, so memory stays small): 540 MiB.
    const padding = Buffer.from(
      `{"url":"${FROM}languages/","status":200,"body":"${'x'.repeat(2 ** 20)}"}\n`,
    );
    for (let i = 0; i < 540; i++) writeSync(fd, padding);
    writeSync(fd, `{"url":"${FROM}","status":200,"body":{"projects":"${FROM}projects/"}}\n`);
    closeSync(fd);
    const size = statSync(file).size;
    expect(size).toBeGreaterThan(2 ** 29);

    const state = await openState(dir, FROM);
    try {
      expect(state.resumed).toBe(2);
      expect(state.get(FROM)?.body).toEqual({ projects: `${FROM}projects/` });
      expect(state.bytes).toBe(size);
    } finally {
      await state.close();
    }
    expect(statSync(file).size).toBe(size);
  }, 120_000);
});
