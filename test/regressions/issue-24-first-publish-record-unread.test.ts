/**
 * Issue 24: a first publish at a million translations in under 1 GiB. A run that had no record
 * compares the target with a listing, and counts at the end the listed keys neither the record
 * nor the state holds. It indexed the record it had just written to do so: a table of every
 * group (some 200 MB at a million) beside the live model, the peak of the whole run, to count
 * nothing when the listing held only the state's keys. The count is unchanged when there are
 * foreign keys to find.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { writeSyntheticContent } from '../../bench/synthetic.ts';
import { recordPath } from '../../src/deploy/record.ts';
import {
  indexRecord,
  wholeRecordsIndexed,
  writeSortedRecord,
} from '../../src/deploy/record-stream.ts';
import { compiledModule, ROOT, tempDir } from '../helpers.ts';
import { putObject, TEST_AWS_ENV, useLocalS3 } from '../support/s3-proxy.ts';

const BUCKET = 'first';
const servers = useLocalS3(BUCKET);
const run = promisify(execFile);

/** Publishes the content to a prefix; prints the report's foreign count and the records indexed whole. */
const CHILD = `
import { publishContent } from '${compiledModule('src/deploy/publish.ts')}';
import { wholeRecordsIndexed } from '${compiledModule('src/deploy/record-stream.ts')}';
import { s3Store } from '${compiledModule('src/deploy/s3.ts')}';
const [content, endpoint, prefix] = process.argv.slice(1);
const store = () => s3Store({ bucket: '${BUCKET}', endpoint, region: null });
const report = await publishContent(
  {
    contentDir: content,
    settings: { pages: false },
    target: { bucket: '${BUCKET}', prefix, endpoint },
    state: { bucket: '${BUCKET}', key: prefix + '/.weblate-snapshot/state' },
    waitMs: 0,
    cacheControl: null,
    concurrency: 8,
    retries: 2,
    allowBaseUrl: true,
  },
  { store, stateStore: store, sleep: async () => {}, random: () => 0.5, now: Date.now },
);
console.log(JSON.stringify({ ok: report.ok, foreign: report.foreign, indexed: wholeRecordsIndexed() }));
`;

async function firstPublish(content: string, prefix: string): Promise<Record<string, unknown>> {
  const { stdout } = await run(
    process.execPath,
    ['--input-type=module', '-e', CHILD, content, servers.s3.url, prefix],
    { cwd: ROOT, env: { ...process.env, ...TEST_AWS_ENV } },
  );
  return JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, unknown>;
}

describe('a first publish', () => {
  const content = join(tempDir(), 'content');

  it('to an empty prefix counts no foreign key without reading back the record it wrote', async () => {
    await writeSyntheticContent(content, { projects: 1, components: 2, languages: 2 });
    expect(await firstPublish(content, 'empty')).toEqual({ ok: true, foreign: 0, indexed: 0 });
  });

  it('to a prefix holding a file of its own still counts that file', async () => {
    await putObject(servers.s3.url, BUCKET, 'mine/notes.txt', 'kept');
    expect(await firstPublish(content, 'mine')).toMatchObject({ ok: true, foreign: 1 });
  });
});

describe('the count of records indexed whole', () => {
  it('counts each record indexed, as the publish above reads it', () => {
    const outDir = join(tempDir(), 'tree');
    const target = 's3://first/counted';
    const header = { target, settings: 'x', baseUrl: null };
    const scratch = tempDir();
    writeSortedRecord(recordPath(outDir, target), header, ['1 /api/\tindex.json\t-'], scratch);
    const before = wholeRecordsIndexed();
    expect(indexRecord(outDir, target)?.groups.find('/api/')).toBeGreaterThanOrEqual(0);
    expect(indexRecord(outDir, 's3://first/elsewhere')).toBeNull();
    expect(wholeRecordsIndexed() - before).toBe(1);
  });
});
