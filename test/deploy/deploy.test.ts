/**
 * Deploying a built tree to a real S3-protocol server on loopback (s3rver in
 * a process of its own, bench/s3-server.ts), through a proxy that logs every
 * request the server sees and can inject failures: a first deploy, a counter
 * changed (only the files whose bytes changed go up, nothing is listed), a
 * translation removed (its keys deleted, after the uploads), retries on
 * throttling and 5xx, an interrupted deploy resumed, --verify, and keys
 * this tree never had left alone.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Proxy } from '../support/proxy.ts';
import type { LocalS3 } from '../../bench/s3-server.ts';
import { buildDirectory } from '../../src/build.ts';
import { deploy, type DeployOptions, type DeployReport } from '../../src/deploy/deploy.ts';
import { s3Store } from '../../src/deploy/s3.ts';
import { isPublished } from '../../src/hosts/published.ts';
import { FIXTURES, readTree, tempDir } from '../helpers.ts';
import { listBucket, putObject, readBucket, useLocalS3 } from '../support/s3-proxy.ts';

const BUCKET = 'snap';
const APP = 'projects/hello/components/app.yaml';
const STRINGS = 'projects/alpha/components/strings.yaml';

const servers = useLocalS3(BUCKET);
let s3: LocalS3;
let proxy: Proxy;

beforeAll(() => {
  ({ s3, proxy } = servers);
});

/** A built copy of a fixture (by default the minimal one), to be deployed under its own prefix. */
async function builtCopy(prefix: string, fixture = 'minimal', options: { pages?: boolean } = {}) {
  const dir = tempDir();
  const content = join(dir, 'content');
  const out = join(dir, 'dist');
  cpSync(join(FIXTURES, fixture, 'content'), content, { recursive: true });
  if (options.pages !== undefined)
    appendFileSync(join(content, 'site.yaml'), `pages: ${options.pages}\n`);
  expect((await buildDirectory({ contentDir: content, outDir: out })).errors).toEqual([]);
  const rebuild = async () =>
    expect((await buildDirectory({ contentDir: content, outDir: out })).errors).toEqual([]);
  return { content, out, prefix, rebuild };
}

function run(
  out: string,
  prefix: string,
  options: Partial<DeployOptions> = {},
): Promise<DeployReport> {
  return deploy(
    {
      outDir: out,
      target: { bucket: BUCKET, prefix, endpoint: proxy.url },
      cacheControl: 'public, max-age=60',
      concurrency: 4,
      retries: 3,
      ...options,
    },
    {
      store: () => s3Store({ bucket: BUCKET, endpoint: proxy.url, region: null }),
      sleep: async () => undefined,
      random: () => 0.5,
      backoff: { backoffMs: 1, maxBackoffMs: 2 },
    },
  );
}

/** Removes the minimal fixture's one translation (Czech): its files and the language leave the tree. */
function removeTranslation(content: string): void {
  const app = join(content, APP);
  writeFileSync(
    app,
    readFileSync(app, 'utf8').replace(/translations:\n[\s\S]*$/, 'translations: {}\n'),
  );
}

/** The published files of a tree, by the key each takes under `prefix`. */
function expectedObjects(out: string, prefix: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const [path, text] of readTree(out))
    if (isPublished(path)) files.set(`${prefix}/${path}`, text);
  return files;
}

/** The bucket holds the tree's published files under the prefix, and nothing else: keys and ETags (MD5) compared. */
async function expectBucketHoldsTree(out: string, prefix: string): Promise<void> {
  const objects = await listBucket(s3.url, BUCKET, `${prefix}/`);
  const expected = expectedObjects(out, prefix);
  expect([...objects.keys()]).toEqual([...expected.keys()].sort());
  // The bytes as the file holds them: the PNG widgets are no UTF-8 text.
  for (const key of expected.keys()) {
    const bytes = readFileSync(join(out, key.slice(prefix.length + 1)));
    expect(objects.get(key), key).toBe(createHash('md5').update(bytes).digest('hex'));
  }
}

const requests = (method: string) => proxy.log.filter((r) => r.method === method);
/** A logged path without the SDK's `?x-id=…`. */
const pathOf = (url: string) => url.replace(/\?x-id=\w+$/, '');
const listings = () => proxy.log.filter((r) => r.method === 'GET' && /[?&]list-type=2/.test(r.url));

describe('npm run deploy to an S3-protocol server', () => {
  it('puts every published file of the tree under the prefix, with its Content-Type and Cache-Control, and lists nothing', async () => {
    const { out } = await builtCopy('first/deploy', 'features');
    const report = await run(out, 'first/deploy');
    expect(report).toMatchObject({ ok: true, deleted: 0 });

    const objects = await readBucket(s3.url, BUCKET, 'first/deploy/');
    const expected = expectedObjects(out, 'first/deploy');
    expect(report.uploaded).toBe(expected.size);
    expect([...objects.keys()]).toEqual([...expected.keys()].sort());
    for (const [key, text] of expected) {
      expect(objects.get(key), key).toEqual({
        body: text,
        contentType: 'application/json',
        cacheControl: 'public, max-age=60',
      });
    }
    expect([...objects.keys()]).toContain('first/deploy/404.html');
    expect([...objects.keys()].some((key) => /serve\.json|\/hosts\//.test(key))).toBe(false);
    expect(proxy.log.every((r) => r.method === 'PUT')).toBe(true);
    expect(requests('PUT')).toHaveLength(expected.size);
  });

  it.each([
    ['the API alone', false, 'translated: 4\n', 'translated: 3\n', 20],
    [
      'the API and the status site (a figure that moves no percent)',
      true,
      'translated: 4\n',
      'translated: 4\n    have_comment: 1\n',
      30,
    ],
  ])(
    'after one counter changed, uploads only the files whose bytes changed, without listing: %s',
    async (_, pages, from, to, most) => {
      const { content, out, rebuild } = await builtCopy('counter', 'minimal', { pages });
      await run(out, 'counter');
      const before = readTree(out);
      const app = join(content, APP);
      writeFileSync(app, readFileSync(app, 'utf8').replace(from, to));
      await rebuild();
      const changed = [...readTree(out)]
        .filter(([path, text]) => before.get(path) !== text)
        .map(([path]) => `/${BUCKET}/counter/${path}`);
      proxy.log.length = 0;

      const report = await run(out, 'counter');
      expect(report).toMatchObject({ ok: true, uploaded: changed.length, deleted: 0 });
      expect(changed.length).toBeGreaterThan(0);
      expect(changed.length).toBeLessThanOrEqual(most);
      if (pages) expect(changed).toContain(`/${BUCKET}/counter/projects/hello/app/cs/index.html`);
      expect(proxy.log.map((r) => `${r.method} ${pathOf(r.url)}`).sort()).toEqual(
        changed.map((url) => `PUT ${url}`).sort(),
      );
      expect(listings()).toEqual([]);
      await expectBucketHoldsTree(out, 'counter');

      proxy.log.length = 0;
      expect(await run(out, 'counter')).toMatchObject({ ok: true, uploaded: 0, deleted: 0 });
      expect(proxy.log).toEqual([]);
    },
  );

  it("deletes a removed translation's keys once the files that changed with it are up", async () => {
    const { content, out, rebuild } = await builtCopy('removed');
    await run(out, 'removed');
    const before = expectedObjects(out, 'removed');
    removeTranslation(content);
    await rebuild();
    const after = expectedObjects(out, 'removed');
    proxy.log.length = 0;

    const report = await run(out, 'removed');
    expect(report.ok).toBe(true);
    const gone = [...before.keys()].filter((key) => !after.has(key));
    expect(gone).toEqual(
      expect.arrayContaining(
        ['', 'statistics/', 'units/'].map(
          (p) => `removed/api/translations/hello/app/cs/${p}index.json`,
        ),
      ),
    );
    expect(report.deleted).toBe(gone.length);
    await expectBucketHoldsTree(out, 'removed');
    // One DeleteObjects request (s3rver sometimes answers one with a 500: it deletes the keys of a request in parallel and
    // trips over the folders it empties; the retry then succeeds), after the last upload.
    const deletes = proxy.log.filter((r) => r.method === 'POST' && /[?&]delete/.test(r.url));
    expect(deletes.filter((r) => r.status === 200)).toHaveLength(1);
    expect(proxy.log.findIndex((r) => r.method === 'POST')).toBeGreaterThan(
      proxy.log.findLastIndex((r) => r.method === 'PUT'),
    );
    expect(listings()).toEqual([]);
  });

  it('retries throttled and failed requests with backoff, and gives up with the reason after the last retry', async () => {
    const { out } = await builtCopy('retried');
    const faults: Record<string, number> = {};
    proxy.fault = ({ method, url: logged }) => {
      const url = pathOf(logged);
      if (method !== 'PUT') return null;
      const seen = (faults[url] = (faults[url] ?? 0) + 1);
      if (url.endsWith('/api/index.json'))
        return seen <= 2 ? { status: 503, code: 'SlowDown' } : null;
      if (url.endsWith('/api/projects/index.json'))
        return seen === 1 ? { status: 500, code: 'InternalError' } : null;
      if (url.endsWith('/api/languages/index.json')) return seen === 1 ? 'drop' : null;
      return null;
    };
    const waits: string[] = [];
    expect(await run(out, 'retried', { onNotice: (text) => waits.push(text) })).toMatchObject({
      ok: true,
    });
    expect(waits).toHaveLength(4);
    expect(waits[0]).toMatch(
      /^Waiting 0\.0 s: PUT retried\/api\/\S+ (was answered HTTP \d+ \w+|failed: \w+)/,
    );
    await expectBucketHoldsTree(out, 'retried');

    proxy.fault = ({ method }) => (method === 'PUT' ? { status: 503, code: 'SlowDown' } : null);
    const { out: other } = await builtCopy('given-up');
    const failed = await run(other, 'given-up', { retries: 2, concurrency: 1 });
    expect(failed.ok).toBe(false);
    expect(failed).toMatchObject({ uploaded: 0, deleted: 0 });
    expect(failed.ok ? '' : failed.message).toMatch(
      /^PUT given-up\/api\/\S+ was answered HTTP 503 SlowDown: Injected by the test \(3 attempts\)\nStopped with 0 of \d+ files uploaded, nothing deleted\. /,
    );
  });

  it('resumes an interrupted deploy: what went up is not sent again, and nothing is deleted before every file is up', async () => {
    const { content, out, rebuild } = await builtCopy('resumed', 'features');
    await run(out, 'resumed');
    // Another version of the tree: a translation removed (keys to delete) and counters changed (files to upload).
    const docs = join(content, 'projects/beta/components/docs.yaml');
    writeFileSync(docs, readFileSync(docs, 'utf8').replace('  he:\n    id: 202\n', ''));
    const strings = join(content, STRINGS);
    writeFileSync(
      strings,
      readFileSync(strings, 'utf8').replaceAll('translated: 4\n', 'translated: 2\n'),
    );
    await rebuild();
    proxy.log.length = 0;
    let puts = 0;
    proxy.fault = ({ method }) => (method === 'PUT' && ++puts > 5 ? 'drop' : null);

    const cut = await run(out, 'resumed', { retries: 0, concurrency: 1 });
    expect(cut.ok).toBe(false);
    expect(cut.ok ? '' : cut.message).toMatch(
      /Stopped with 5 of \d+ files uploaded, nothing deleted\. .*run the same command again/,
    );
    expect(proxy.log.filter((r) => r.method === 'POST')).toEqual([]);
    const firstRun = requests('PUT')
      .filter((r) => r.status === 200)
      .map((r) => r.url);
    expect(firstRun).toHaveLength(5);

    proxy.fault = null;
    proxy.log.length = 0;
    const resumed = await run(out, 'resumed');
    expect(resumed).toMatchObject({
      ok: true,
      uploaded: cut.uploads.length - 5,
      deleted: cut.deletes.length,
    });
    expect(
      requests('PUT')
        .map((r) => r.url)
        .filter((url) => firstRun.includes(url)),
    ).toEqual([]);
    await expectBucketHoldsTree(out, 'resumed');
  });

  it('stops between uploads when asked (Ctrl+C), and the same command goes on from there', async () => {
    const { out } = await builtCopy('stopped');
    const stop = new AbortController();
    const cut = await run(out, 'stopped', {
      concurrency: 1,
      signal: stop.signal,
      onProgress: (p) => (p.uploaded === 10 ? stop.abort() : undefined),
    });
    expect(cut).toMatchObject({ ok: false, uploaded: 10 });
    expect(cut.ok ? '' : cut.message).toMatch(
      /^Interrupted with 10 of \d+ files uploaded, nothing deleted\./,
    );
    proxy.log.length = 0;
    expect(await run(out, 'stopped')).toMatchObject({
      ok: true,
      uploaded: cut.uploads.length - 10,
    });
    await expectBucketHoldsTree(out, 'stopped');
  });

  it('with --verify, lists the prefix (page by page), puts back what differs, and leaves keys it never made', async () => {
    const { out } = await builtCopy('verified');
    await run(out, 'verified');
    const stranger = 'verified/api/projects/alpha/notes.txt';
    await putObject(s3.url, BUCKET, stranger, 'not ours\n');
    await putObject(s3.url, BUCKET, 'verified/api/index.json', '{"tampered":true}\n');
    await putObject(s3.url, BUCKET, 'elsewhere/api/index.json', 'outside the prefix\n');
    proxy.log.length = 0;

    const report = await deploy(
      {
        outDir: out,
        target: { bucket: BUCKET, prefix: 'verified', endpoint: proxy.url },
        cacheControl: 'public, max-age=60',
        concurrency: 4,
        retries: 0,
        verify: true,
      },
      {
        store: () =>
          s3Store({ bucket: BUCKET, endpoint: proxy.url, region: null, listPageSize: 10 }),
        sleep: async () => undefined,
        random: () => 0.5,
      },
    );
    expect(report).toMatchObject({ ok: true, uploaded: 1, deleted: 0, foreign: 1 });
    expect(report.uploads).toEqual(['api/index.json']);
    expect(listings().length).toBeGreaterThan(2);
    const objects = await readBucket(s3.url, BUCKET, 'verified/');
    expect(objects.get(stranger)?.body).toBe('not ours\n');
    expect(objects.get('verified/api/index.json')?.body).toBe(
      readFileSync(join(out, 'api/index.json'), 'utf8'),
    );
    expect((await readBucket(s3.url, BUCKET, 'elsewhere/')).size).toBe(1);
  });

  it('never deletes keys it did not put there, even under its prefix', async () => {
    const { content, out, rebuild } = await builtCopy('foreign');
    await run(out, 'foreign');
    await putObject(s3.url, BUCKET, 'foreign/api/translations/hello/app/cs/notes.txt', 'kept\n');
    removeTranslation(content);
    await rebuild();
    expect(await run(out, 'foreign')).toMatchObject({ ok: true });
    const objects = await listBucket(s3.url, BUCKET, 'foreign/');
    expect([...objects.keys()].filter((key) => key.includes('/cs/'))).toEqual([
      'foreign/api/translations/hello/app/cs/notes.txt',
    ]);
  });

  it('refuses a folder that is not a built tree, before any request', async () => {
    const report = await run(join(tempDir(), 'nothing'), 'none');
    expect(report).toMatchObject({ ok: false });
    expect(report.ok ? '' : report.message).toMatch(
      / is not a tree built by npm run build \(expected its manifest in .*\.state\/\); build it first\.$/,
    );
    expect(proxy.log).toEqual([]);
  });
});
