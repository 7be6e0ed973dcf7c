import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  appendRecord,
  openRecord,
  readRecord,
  recordOf,
  writeRecord,
  type DeployRecord,
} from '../../../src/deploy/record.ts';
import { stateDir } from '../../../src/tree/state-folder.ts';
import { tempDir } from '../../helpers.ts';

const TARGET = 's3://snap/l10n at http://127.0.0.1:9';

function fresh(): DeployRecord {
  return {
    target: TARGET,
    settings: '{"cacheControl":null}',
    baseUrl: 'https://l10n.example.org',
    groups: new Map(),
    lines: 0,
  };
}

describe('the deploy record', () => {
  it('reads back what was written and appended, later lines winning and removals removing', async () => {
    const out = join(tempDir(), 'dist');
    const record = fresh();
    record.groups.set('/api/', { fingerprint: 12345, files: new Map([['index.json', 'AAAA']]) });
    await writeRecord(out, record);
    await appendRecord(out, record, [
      [
        '/api/projects/',
        {
          fingerprint: 99,
          files: new Map([
            ['index.json', 'BBBB'],
            ['~page/x y.json', 'CCCC'],
          ]),
        },
      ],
      ['/api/', 'removed'],
      ['/api/projects/', { fingerprint: -1, files: new Map([['index.json', '-']]) }],
    ]);
    const back = await readRecord(out, TARGET);
    expect(back).toEqual({ ...record, lines: 4 });
    expect([...back!.groups]).toEqual([
      ['/api/projects/', { fingerprint: -1, files: new Map([['index.json', '-']]) }],
    ]);
  });

  it('ignores a line cut short by a crash, and is not read for another target or when its header is damaged', async () => {
    const out = join(tempDir(), 'dist');
    const record = fresh();
    await writeRecord(out, record);
    await appendRecord(out, record, [
      ['/api/', { fingerprint: 7, files: new Map([['index.json', 'AAAA']]) }],
    ]);
    const file = join(stateDir(out), readdirSync(stateDir(out))[0]!);
    appendFileSync(file, '8 /api/languages/\tindex.json BB');
    expect([...(await readRecord(out, TARGET))!.groups.keys()]).toEqual(['/api/']);
    expect(await readRecord(out, 's3://other')).toBeNull();
    writeFileSync(file, readFileSync(file, 'utf8').replace('deploy record 3', 'deploy record 9'));
    expect(await readRecord(out, TARGET)).toBeNull();
  });

  it('finds any group of its sorted lines by bisection, long lines and keys it lacks too', async () => {
    const out = join(tempDir(), 'dist');
    const record = fresh();
    for (let n = 0; n < 500; n++) {
      // Every seventh group holds enough files that its line outgrows a read of the file.
      const files = new Map(
        Array.from({ length: n % 7 === 0 ? 300 : 1 + (n % 3) }, (_, i) => [`f${i}.json`, `M${n}`]),
      );
      record.groups.set(`/api/g${(n * 7919) % 500}/`, { fingerprint: n, files });
    }
    await writeRecord(out, record);
    await appendRecord(out, record, [['/api/g3/', 'removed']]);
    const opened = openRecord(out, TARGET)!;
    const keys = [...record.groups.keys(), '/api/g3/', '/a/', '/api/g250x/', '/zz/'];
    const found = recordOf(out, opened, keys)!;
    expect(new Map([...found.groups].sort())).toEqual(new Map([...record.groups].sort()));
  });
});
