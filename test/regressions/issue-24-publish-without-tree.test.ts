/**
 * Issue 24: `npm run deploy -- --content DIR`, a snapshot published straight
 * from content to a store, with no tree on disk and its state in the store.
 * The bucket equals, byte for byte, a deploy of the tree built on disk; one
 * counter changed upstream costs only the files that changed and leaves the
 * bucket as a fresh full publish would; the run's local disk use stays
 * bounded (its scratch folder measured after every upload).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDirectory } from '../../src/build.ts';
import { publishContent } from '../../src/deploy/publish.ts';
import { s3Store } from '../../src/deploy/s3.ts';
import { tempDir } from '../helpers.ts';
import { changeCounter as changeCounterIn, useContentBucket } from '../support/content-bucket.ts';
import { runCli } from '../support/run-cli.ts';
import { putObject, TEST_AWS_ENV } from '../support/s3-proxy.ts';

const BUCKET = 'snap';
const APP = 'projects/hello/components/app.yaml';
const STATE = '.weblate-snapshot/state';
const { servers, checkout: contentCopy, publish, objectsUnder } = useContentBucket(BUCKET);

/** A deploy of a tree (`--out`) to the prefix, with `more` flags. */
const deployCli = (prefix: string, ...more: string[]) =>
  runCli('deploy', ['--to', `s3://${BUCKET}/${prefix}`, '--endpoint', servers.proxy.url, ...more], {
    env: TEST_AWS_ENV,
  });

const puts = () => servers.proxy.log.filter((r) => r.method === 'PUT' && !r.url.includes(STATE));

const changeCounter = (content: string) => changeCounterIn(content, APP);

describe('deploy --content: publishing with no tree on disk', () => {
  it('fills the bucket byte for byte as a deploy of the tree built on disk does, and that deploy then sends nothing', async () => {
    const content = contentCopy();
    const published = await publish('content', content);
    expect(published.code).toBe(0);
    expect(published.stdout).toMatch(
      /^Published .* to s3:\/\/snap\/content at .*: \d+ files uploaded/,
    );

    const out = join(tempDir(), 'dist');
    expect((await buildDirectory({ contentDir: content, outDir: out })).errors).toEqual([]);
    expect((await deployCli('tree', '--out', out)).code).toBe(0);
    const fromContent = await objectsUnder('content');
    expect(Object.keys(fromContent).length).toBeGreaterThan(20);
    expect(fromContent).toEqual(await objectsUnder('tree'));

    // The record a publish leaves is the one a deploy of the tree reads.
    servers.proxy.log.length = 0;
    const after = await deployCli('content', '--out', out, '--state', 'default');
    expect(after.stderr).toBe('');
    expect(after.stdout).toContain('0 files uploaded');
    expect(puts()).toEqual([]);
  });

  it('after one counter changed upstream, uploads only what changed and leaves the bucket as a fresh full publish', async () => {
    const content = contentCopy('minimal');
    expect((await publish('refresh', content)).code).toBe(0);
    const before = await objectsUnder('refresh');
    changeCounter(content);
    servers.proxy.log.length = 0;

    const refresh = await publish('refresh', content);
    expect(refresh.stderr).toBe('');
    expect(refresh.code).toBe(0);
    const now = await objectsUnder('refresh');
    const changed = Object.keys(now).filter((key) => now[key]!.body !== before[key]?.body);
    expect(changed.length).toBeGreaterThan(0);
    // A small fixture: one counter moves most of its pages and widgets, never all of it.
    expect(changed.length).toBeLessThan(Object.keys(now).length);
    expect(
      puts()
        .map((r) => r.url.replace(/^\/snap\/refresh\/|\?.*$/g, ''))
        .sort(),
    ).toEqual(changed.sort());
    expect(refresh.stdout).toContain(`${changed.length} files uploaded`);

    expect((await publish('full', content)).code).toBe(0);
    expect(now).toEqual(await objectsUnder('full'));
  });

  it('removes the keys of a translation that left, after the uploads', async () => {
    const content = contentCopy('minimal');
    expect((await publish('removed', content)).code).toBe(0);
    const app = join(content, APP);
    writeFileSync(
      app,
      readFileSync(app, 'utf8').replace(/translations:\n[\s\S]*$/, 'translations: {}\n'),
    );
    servers.proxy.log.length = 0;
    const run = await publish('removed', content);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain(' 0 keys deleted');
    const methods = servers.proxy.log.filter((r) => !r.url.includes(STATE)).map((r) => r.method);
    expect(methods.lastIndexOf('PUT')).toBeLessThan(methods.indexOf('POST'));

    expect((await publish('removed-full', content)).code).toBe(0);
    expect(await objectsUnder('removed')).toEqual(await objectsUnder('removed-full'));
  });

  it('with --verify mends an object changed behind its back; with another Cache-Control sends every object again', async () => {
    const content = contentCopy('minimal');
    expect((await publish('mend', content)).code).toBe(0);
    const published = await objectsUnder('mend');
    const [victim] = Object.keys(published).filter((key) => key.endsWith('index.json'));
    await putObject(servers.s3.url, BUCKET, `mend/${victim!}`, 'changed by hand');
    servers.proxy.log.length = 0;

    const verified = await publish('mend', content, '--verify');
    expect(verified.code).toBe(0);
    expect(puts().map((r) => r.url.replace(/^\/snap\/mend\/|\?.*$/g, ''))).toEqual([victim]);
    expect(await objectsUnder('mend')).toEqual(published);

    servers.proxy.log.length = 0;
    const recached = await publish('mend', content, '--cache-control', 'no-cache');
    expect(recached.code).toBe(0);
    expect(puts()).toHaveLength(Object.keys(published).length);
    const now = await objectsUnder('mend');
    expect(Object.values(now).every((o) => o.cacheControl === 'no-cache')).toBe(true);
  });

  it('keeps no more than its state on local disk, whatever it publishes', async () => {
    const content = contentCopy();
    const spoolDir = tempDir();
    let peak = 0;
    const report = await publishContent(
      {
        contentDir: content,
        target: { bucket: BUCKET, prefix: 'disk', endpoint: servers.proxy.url },
        state: { bucket: BUCKET, key: `disk/${STATE}` },
        waitMs: 0,
        cacheControl: null,
        concurrency: 4,
        retries: 0,
        spoolDir,
        onUpload: () => (peak = Math.max(peak, diskUse(spoolDir))),
      },
      {
        store: () => s3Store({ bucket: BUCKET, endpoint: servers.proxy.url, region: null }),
        stateStore: () => s3Store({ bucket: BUCKET, endpoint: servers.proxy.url, region: null }),
        sleep: async () => undefined,
        random: () => 0.5,
        now: Date.now,
      },
    );
    expect(report).toMatchObject({ ok: true });
    if (report.errors) throw new Error('content errors');
    expect(report.uploaded).toBeGreaterThan(20);
    expect(peak).toBeGreaterThan(0);
    // The spool holds no published file: less than a tenth of what went up (the folder's own blocks included).
    expect(peak).toBeLessThan(report.bytes / 10 + 16 * 1024);
    expect(readdirSync(spoolDir)).toEqual([]);
  });
});

/** Bytes a folder takes on disk, as du counts them. */
function diskUse(dir: string): number {
  return Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]);
}
