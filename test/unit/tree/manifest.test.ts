import { readFileSync, writeFileSync } from 'node:fs';
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
import { checkedLine } from '../../../src/tree/journal.ts';
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
    expect(readFileSync(manifestPath(out), 'utf8')).toBe(
      `weblate-snapshot manifest 2\n${checkedLine('1 /api/a/')}`,
    );
  });
});

describe('the index kept beside a manifest written whole', () => {
  const groups: [string, number | null][] = [
    ['/api/a/', 1],
    ['/api/b/', null],
    ['/api/c/', 3],
  ];
  const indexFile = (out: string) => `${manifestPath(out)}.index`;

  it('reads back the same groups as the text, with the journal appended after it', async () => {
    const out = join(tempDir(), 'dist');
    await writeManifest(out, manifestOf(groups));
    expect(readFileSync(indexFile(out)).length).toBeGreaterThan(0);
    await appendManifest(out, [
      ['/api/a/', 'removed'],
      ['/api/d/', 4],
      ['/api/b/', 2],
    ]);
    const read = (await readManifest(out))!;
    expect(new Map(read.groups)).toEqual(
      new Map([
        ['/api/b/', 2],
        ['/api/c/', 3],
        ['/api/d/', 4],
      ]),
    );
    expect(read.journalLines).toBe(6);
  });

  it('is not trusted for other bytes: a manifest changed under it is read from its text', async () => {
    const out = join(tempDir(), 'dist');
    await writeManifest(out, manifestOf(groups));
    const index = readFileSync(indexFile(out));
    // The same length, another fingerprint: only the index's CRC of the text can tell.
    writeFileSync(
      manifestPath(out),
      readFileSync(manifestPath(out), 'utf8').replace(
        checkedLine('3 /api/c/'),
        checkedLine('9 /api/c/'),
      ),
    );
    expect(readFileSync(indexFile(out))).toEqual(index);
    expect((await readManifest(out))!.groups.get('/api/c/')).toBe(9);
  });

  it('is read from the text when the index is damaged or missing', async () => {
    const out = join(tempDir(), 'dist');
    await writeManifest(out, manifestOf(groups));
    const index = readFileSync(indexFile(out));
    index[Math.floor(index.length / 2)]! ^= 0xff;
    writeFileSync(indexFile(out), index);
    expect(new Map((await readManifest(out))!.groups)).toEqual(new Map(groups));
    writeFileSync(indexFile(out), 'not an index');
    expect(new Map((await readManifest(out))!.groups)).toEqual(new Map(groups));
  });
});
