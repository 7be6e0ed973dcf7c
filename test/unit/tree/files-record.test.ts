import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  appendFilesRecord,
  FilesRecordWriter,
  readFilesWindow,
  type GroupFiles,
} from '../../../src/tree/files-record.ts';
import { tempDir } from '../../helpers.ts';

async function record(groups: number): Promise<string> {
  const out = join(tempDir(), 'dist');
  const writer = new FilesRecordWriter(out);
  for (let i = 0; i < groups; i++) await writer.add(`/api/g${i}/`, ['index.json', 'a/index.json']);
  await writer.close();
  // A set met first in an appended line, after the windows that start before it.
  await appendFilesRecord(out, [['/api/late/', ['index.json']]]);
  return out;
}

describe('readFilesWindow', () => {
  it('sees every group once over a cycle of windows, wrapping round at the end', async () => {
    const out = await record(10);
    const sets = new Map<string, GroupFiles>();
    const seen: string[] = [];
    let offset = 0;
    // 21 files, 5 or a little more a window: the fourth window reaches the end and goes on from the start.
    for (let round = 0; round < 4; round++) {
      const window = readFilesWindow(out, offset, 5, sets)!;
      seen.push(...window.groups.map(([key]) => key));
      offset = window.next;
    }
    expect(seen.slice(-1)).toEqual(['/api/g0/']);
    expect([...new Set(seen)].sort()).toEqual(
      [...Array.from({ length: 10 }, (_, i) => `/api/g${i}/`), '/api/late/'].sort(),
    );
    expect(sets.size).toBe(2);
  });

  it('starts over from an offset that is not a line start, and wraps from one near the end', async () => {
    const out = await record(4);
    const text = readFileSync(join(`${out}.state`, 'files'), 'utf8');
    const sets = new Map<string, GroupFiles>();
    expect(readFilesWindow(out, 3, 2, sets)!.groups.map(([key]) => key)).toEqual(['/api/g0/']);
    const lastLine = text.lastIndexOf('\n', text.length - 2) + 1;
    const wrapped = readFilesWindow(out, lastLine, 3, sets)!;
    expect(wrapped.groups.map(([key, names]) => [key, names.length])).toEqual([
      ['/api/late/', 1],
      ['/api/g0/', 2],
    ]);
  });
});
