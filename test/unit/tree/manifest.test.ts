import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  appendManifest,
  journalIsLong,
  manifestPath,
  readManifest,
  staleLines,
  writeManifest,
  type Manifest,
} from '../../../src/tree/manifest.ts';
import { tempDir } from '../../helpers.ts';

function manifestOf(groups: [string, number | null][], stale = 0): Manifest {
  return { tree: '1:2:s', groups: new Map(groups), journalLines: groups.length + stale };
}

describe('the manifest journal', () => {
  it('reads back what was appended, and counts the lines that no longer describe a group', async () => {
    const out = join(tempDir(), 'dist');
    await writeManifest(
      out,
      manifestOf([
        ['/api/a/', 1],
        ['/api/b/', 2],
        ['/api/c/', 3],
      ]),
    );
    expect(staleLines((await readManifest(out))!)).toBe(0);

    await appendManifest(out, [
      ['/api/a/', null],
      ['/api/b/', null],
    ]);
    await appendManifest(out, [
      ['/api/a/', 7],
      ['/api/b/', 'removed'],
    ]);
    const read = await readManifest(out);
    expect([...read!.groups]).toEqual([
      ['/api/a/', 7],
      ['/api/c/', 3],
    ]);
    // 3 written whole + 4 appended = 7 lines for 2 groups.
    expect(staleLines(read!)).toBe(5);
  });

  it('is written whole again only once its stale lines pass a quarter of the groups, and at least 1000', () => {
    const groups = Array.from({ length: 8000 }, (_, i): [string, number] => [`/api/g${i}/`, i]);
    expect(journalIsLong(manifestOf(groups, 2000))).toBe(false);
    expect(journalIsLong(manifestOf(groups, 2001))).toBe(true);
    expect(journalIsLong(manifestOf(groups.slice(0, 10), 1000))).toBe(false);
    expect(journalIsLong(manifestOf(groups.slice(0, 10), 1001))).toBe(true);
  });

  it('resets the count once written whole', async () => {
    const out = join(tempDir(), 'dist');
    const manifest = manifestOf([['/api/a/', 1]], 5000);
    await writeManifest(out, manifest);
    expect(staleLines(manifest)).toBe(0);
    expect(readFileSync(manifestPath(out), 'utf8')).toBe('weblate-snapshot manifest 1\n1 /api/a/\n');
  });
});
