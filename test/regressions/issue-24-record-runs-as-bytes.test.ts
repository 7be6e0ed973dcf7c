/**
 * Issue 24: a first publish at a million translations in under 1 GiB. The deploy record is
 * written whole at the end of a publish, the model still live, by sorting its lines in runs of
 * 16 MB. A run was held as strings (each line, its key and its checked line): some 48 MB of heap
 * for 16 MB of lines. Now a run's bytes are one buffer outside the heap, with where each line
 * and its key are: a run of 16 MB is sorted in a process whose heap is limited to 48 MB, which
 * ran out of memory before. The order is still the strings' (which bytes do not follow past
 * U+FFFF): keys with such characters come out as a sort of the strings puts them.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { recordPath } from '../../src/deploy/record.ts';
import { writeSortedRecord } from '../../src/deploy/record-stream.ts';
import { CHECK_WIDTH } from '../../src/tree/journal.ts';
import { compiledModule, ROOT, tempDir } from '../helpers.ts';

const CHILD = `
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { writeSortedRecord } from '${compiledModule('src/deploy/record-stream.ts')}';
const [dir] = process.argv.slice(1);
function* lines() {
  for (let i = 0; i < 180_000; i++) {
    const key = '/api/translations/p' + String((i * 7919) % 180_000).padStart(6, '0') + '/c/cs/';
    yield i.toString(36) + ' ' + key + '\\tindex.json q83vEAx+Bd5Aa91hxNOSOw==\\tstatistics.json -';
  }
}
const header = { target: 's3://b/p', settings: 'x', baseUrl: null };
const { lines: count } = writeSortedRecord(join(dir, 'record'), header, lines(), dir, 16 << 20);
console.log(JSON.stringify({ count, bytes: statSync(join(dir, 'record')).size }));
`;

const TARGET = 's3://b/p';
const HEADER = { target: TARGET, settings: 'x', baseUrl: null };

describe('writing the deploy record whole', () => {
  it('sorts a run of 16 MB in a heap of 48 MB', () => {
    const dir = tempDir();
    const out = execFileSync(
      process.execPath,
      ['--max-old-space-size=48', '--input-type=module', '-e', CHILD, dir],
      { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const { count, bytes } = JSON.parse(out.trim().split('\n').pop()!) as {
      count: number;
      bytes: number;
    };
    expect(count).toBe(180_000);
    // One run: the lines take more than 16 MB.
    expect(bytes).toBeGreaterThan(16 * 2 ** 20);
  }, 120_000);

  it('sorts keys past ASCII as strings compare, in one run and across runs', () => {
    const keys = [
      '/a/z/',
      '/a/\u00e9/',
      '/a/\uff01/',
      '/a/\u{1f600}/',
      '/a/~/',
      '/a/\ue000x/',
      '/a/',
    ];
    const lines = keys.map((key, i) => `${i.toString(36)} ${key}\tindex.json -`);
    const sorted = [...keys].sort();
    for (const runBytes of [1 << 20, 40]) {
      const out = tempDir();
      writeSortedRecord(recordPath(out, TARGET), HEADER, lines, tempDir(), runBytes);
      const written = readFileSync(recordPath(out, TARGET), 'utf8')
        .split('\n')
        .slice(1, -1)
        .map((line) => line.slice(CHECK_WIDTH).split('\t')[0]!.split(' ')[1]);
      expect(written).toEqual(sorted);
    }
  });
});
