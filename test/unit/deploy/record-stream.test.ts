import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  formatLine,
  recordPath,
  writeRecord,
  type DeployRecord,
} from '../../../src/deploy/record.ts';
import {
  GroupTable,
  groupAt,
  indexRecord,
  indexRecordOf,
  writeSortedRecord,
} from '../../../src/deploy/record-stream.ts';
import { CHECK_WIDTH } from '../../../src/tree/journal.ts';
import { tempDir } from '../../helpers.ts';

const TARGET = 's3://snap/l10n at http://127.0.0.1:9';
const HEADER = { target: TARGET, settings: '{"cacheControl":null}', baseUrl: null };

/** A record of `count` groups of two files each, keyed so that their order differs from the order made. */
function record(count: number): DeployRecord {
  const groups = new Map<string, DeployRecord['groups'] extends Map<string, infer G> ? G : never>();
  for (let i = 0; i < count; i++) {
    const key = `/api/translations/p/c${(i * 7919) % count}/l${i % 13}/`;
    groups.set(key, {
      fingerprint: i * 1000003,
      files: new Map([
        ['index.json', `md5-${i}`],
        ['units/index.json', '-'],
      ]),
    });
  }
  return { ...HEADER, groups, lines: 0 };
}

describe('the deploy record streamed', () => {
  it('written whole from lines in any order, through many sorted runs, is the record writeRecord writes', async () => {
    const whole = join(tempDir(), 'whole');
    const streamed = join(tempDir(), 'streamed');
    const made = record(3000);
    await writeRecord(whole, made);
    const lines = [...made.groups].map(([key, group]) =>
      formatLine(key, group).slice(CHECK_WIDTH, -1),
    );
    // Runs of 4 KiB: some 40 runs to merge.
    writeSortedRecord(recordPath(streamed, TARGET), HEADER, lines, tempDir(), 4096);
    expect(readFileSync(recordPath(streamed, TARGET))).toEqual(
      readFileSync(recordPath(whole, TARGET)),
    );
  });

  it('indexes every group by key, its fingerprint and its files read back from its line', async () => {
    const out = join(tempDir(), 'dist');
    const made = record(2000);
    await writeRecord(out, made);
    const index = indexRecord(out, TARGET)!;
    expect(index).toMatchObject({ ...HEADER, lines: 2000 });
    for (const [key, group] of made.groups) {
      const slot = index.groups.find(key);
      expect(index.groups.fingerprint(slot)).toBe(group.fingerprint);
      expect(groupAt(index.file, index.groups.offset(slot))).toEqual([key, group]);
    }
    expect(index.groups.find('/api/translations/p/none/')).toBe(-1);
    expect([...index.groups.slots()]).toHaveLength(2000);
  });

  it('indexed for a few keys, by bisection and the lines appended, holds of them what the whole index holds', async () => {
    const out = join(tempDir(), 'dist');
    const made = record(2000);
    await writeRecord(out, made);
    const keys = [...made.groups.keys()];
    const file = recordPath(out, TARGET);
    const changed = { fingerprint: 7, files: new Map([['index.json', 'md5-new']]) };
    appendFileSync(file, formatLine(keys[10]!, changed));
    appendFileSync(file, formatLine(keys[20]!, 'removed'));
    appendFileSync(file, formatLine('/api/translations/p/new/cs/', changed));
    appendFileSync(file, formatLine(keys[30]!, 'removed'));
    appendFileSync(file, formatLine(keys[30]!, changed));
    const wanted = [
      ...[keys[0]!, keys[10]!, keys[20]!, keys[30]!, keys[1999]!],
      ...['/api/translations/p/new/cs/', '/api/translations/p/none/'],
    ];
    const whole = indexRecord(out, TARGET)!;
    const some = indexRecordOf(out, TARGET, wanted)!;
    expect(some).toMatchObject({ ...HEADER, lines: whole.lines });
    for (const key of wanted) {
      const [slot, wholeSlot] = [some.groups.find(key), whole.groups.find(key)];
      expect(slot < 0, key).toBe(wholeSlot < 0);
      if (slot < 0) continue;
      expect(some.groups.fingerprint(slot)).toBe(whole.groups.fingerprint(wholeSlot));
      expect(some.groups.offset(slot)).toBe(whole.groups.offset(wholeSlot));
    }
    expect(some.groups.find(keys[20]!)).toBe(-1);
    expect(some.groups.find(keys[5]!)).toBe(-1);
  });

  it('is not trusted when a line fails its check, nor when it is of another target', async () => {
    const out = join(tempDir(), 'dist');
    await writeRecord(out, record(10));
    expect(indexRecord(out, 's3://other/prefix at http://127.0.0.1:9')).toBeNull();
    const file = recordPath(out, TARGET);
    const bytes = readFileSync(file);
    bytes[bytes.length - 5] = 0x41;
    writeFileSync(file, bytes);
    expect(indexRecord(out, TARGET)).toBeNull();
  });

  it('keeps marks on groups found again after the table grows', () => {
    const table = new GroupTable(0);
    for (let i = 0; i < 5000; i++) {
      table.set(`/g/${i}/`, i, i * 10);
      if (i % 2 === 0) table.mark(table.find(`/g/${i}/`), GroupTable.SEEN);
    }
    table.forget('/g/3/');
    expect(table.find('/g/3/')).toBe(-1);
    expect(table.offset(table.find('/g/4999/'))).toBe(49990);
    expect(table.marked(table.find('/g/4998/'), GroupTable.SEEN)).toBe(true);
    expect(table.marked(table.find('/g/4997/'), GroupTable.SEEN)).toBe(false);
    expect(table.marked(table.find('/g/10/'), GroupTable.RENDERED)).toBe(false);
  });
});
