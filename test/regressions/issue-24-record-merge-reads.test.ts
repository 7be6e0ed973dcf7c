/**
 * Issue 24: a first publish at a million translations in under 1 GiB. The deploy record is
 * written whole by sorting its lines in runs on disk and merging them; at a million
 * translations some forty runs of 16 MB are read side by side, and a megabyte read at once from
 * each (and copied once more as lines cross a read) held 80 MB of buffers beside the live model.
 * Forty runs of a megabyte merged in a process of its own: the kernel's count of its read calls
 * from the last line given to the end of the merge says how much each read took at most.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { compiledModule, ROOT, tempDir } from '../helpers.ts';

const CHILD = `
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeSortedRecord } from '${compiledModule('src/deploy/record-stream.ts')}';
const [dir] = process.argv.slice(1);
const reads = () => Number(/^syscr: (\\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))[1]);
let before = 0;
function* lines() {
  for (let i = 0; i < 400_000; i++) {
    // Keys in an order that spreads each run's over the whole range, as a record's groups are.
    const key = '/api/translations/p' + String((i * 7919) % 400_000).padStart(6, '0') + '/c/cs/';
    yield i.toString(36) + ' ' + key + '\\tindex.json\\tq83vEAx+Bd5Aa91hxNOSOw==\\tstatistics.json\\t-';
  }
  before = reads();
}
const header = { target: 's3://b/p', settings: 'x', baseUrl: null };
const { lines: count } = writeSortedRecord(join(dir, 'record'), header, lines(), dir, 1 << 20);
const calls = reads() - before;
console.log(JSON.stringify({ count, bytes: statSync(join(dir, 'record')).size, calls }));
`;

describe('writing the deploy record whole', () => {
  it('merges forty runs without holding a megabyte read from each', () => {
    const dir = tempDir();
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', CHILD, dir], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    const { count, bytes, calls } = JSON.parse(out.trim().split('\n').pop()!) as {
      count: number;
      bytes: number;
      calls: number;
    };
    expect(count).toBe(400_000);
    expect(bytes).toBeGreaterThan(36 * 2 ** 20);
    // Reading up to a megabyte at once, about 120 reads; now about 700, of 64 KB at most.
    expect(bytes / calls).toBeLessThanOrEqual(64 * 1024);
  }, 60_000);
});
