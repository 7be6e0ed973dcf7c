/**
 * Issue 24: `npm run deploy -- --state`, the deploy record kept in the store
 * for runners that keep nothing. A runner with a fresh build and no state
 * folder uploads only what changed; a damaged state is not trusted (a listing
 * is compared instead, and the reason said); a lease held by another run
 * stops the second with exit 75 and nothing sent.
 */
import { createHash } from 'node:crypto';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LocalS3 } from '../../bench/s3-server.ts';
import { buildDirectory } from '../../src/build.ts';
import { isPublished } from '../../src/hosts/published.ts';
import { FIXTURES, readTree, tempDir } from '../helpers.ts';
import type { Proxy } from '../support/proxy.ts';
import { runCli } from '../support/run-cli.ts';
import { deployWithState } from '../../src/deploy/store-state.ts';
import { s3Store } from '../../src/deploy/s3.ts';
import { listBucket, putObject, TEST_AWS_ENV, useLocalS3 } from '../support/s3-proxy.ts';

const BUCKET = 'snap';
const APP = 'projects/hello/components/app.yaml';
const STATE = '.weblate-snapshot/state';
const noStackTrace = /\n\s+at /;
const servers = useLocalS3(BUCKET);
let s3: LocalS3;
let proxy: Proxy;

beforeAll(() => {
  ({ s3, proxy } = servers);
});

/** A content folder of its own (the minimal fixture). */
function contentCopy(): string {
  const content = join(tempDir(), 'content');
  cpSync(join(FIXTURES, 'minimal/content'), content, { recursive: true });
  return content;
}

/** A build on a runner that starts empty: a new folder, no state beside it. */
async function freshBuild(content: string): Promise<string> {
  const out = join(tempDir(), 'dist');
  expect((await buildDirectory({ contentDir: content, outDir: out })).errors).toEqual([]);
  return out;
}

const deployCli = (out: string, prefix: string, ...more: string[]) =>
  runCli(
    'deploy',
    ['--out', out, '--to', `s3://${BUCKET}/${prefix}`, '--endpoint', proxy.url, ...more],
    { env: TEST_AWS_ENV },
  );

/** The published files of a tree by key, with the MD5 of each (what the store reports as ETag). */
function publishedMd5s(out: string, prefix: string): Map<string, string> {
  const files = new Map<string, string>();
  // Bytes, not text: the PNG widgets are no UTF-8.
  for (const path of readTree(out).keys())
    if (isPublished(path))
      files.set(
        `${prefix}/${path}`,
        createHash('md5')
          .update(readFileSync(join(out, path)))
          .digest('hex'),
      );
  return files;
}

/** The bucket under the prefix holds the tree's published files (and the state and its parts beside them), nothing else. */
async function expectBucketHolds(out: string, prefix: string): Promise<void> {
  const listed = await listBucket(s3.url, BUCKET, `${prefix}/`);
  for (const key of listed.keys())
    if (key === `${prefix}/${STATE}` || key.startsWith(`${prefix}/${STATE}.parts/`))
      listed.delete(key);
  expect(Object.fromEntries(listed)).toEqual(Object.fromEntries(publishedMd5s(out, prefix)));
}

const puts = () => proxy.log.filter((r) => r.method === 'PUT' && !r.url.includes(STATE));
const listings = () => proxy.log.filter((r) => r.method === 'GET' && /[?&]list-type=2/.test(r.url));

function changeCounter(content: string): void {
  const file = join(content, APP);
  writeFileSync(file, readFileSync(file, 'utf8').replace('translated: 4\n', 'translated: 3\n'));
}

describe('deploy --state: the deploy record kept in the store', () => {
  it('lets a runner with a fresh build and no state folder upload only the files that changed', async () => {
    const content = contentCopy();
    const first = await freshBuild(content);
    const firstRun = await deployCli(first, 'fresh', '--state', 'default');
    expect(firstRun.stderr).toContain(
      `Not using the state: there is no state at s3://${BUCKET}/fresh/${STATE} yet`,
    );
    expect(firstRun.code).toBe(0);
    expect((await listBucket(s3.url, BUCKET, 'fresh/')).has(`fresh/${STATE}`)).toBe(true);

    changeCounter(content);
    const second = await freshBuild(content);
    expect(readdirSync(`${second}.state`).filter((f) => f.startsWith('deploy-'))).toEqual([]);
    const before = publishedMd5s(first, 'fresh');
    const changed = [...publishedMd5s(second, 'fresh')].filter(([k, md5]) => before.get(k) !== md5);
    expect(changed.length).toBeGreaterThan(0);
    // A small fixture: one counter moves most of its pages and widgets, never all of it.
    expect(changed.length).toBeLessThan(before.size);
    proxy.log.length = 0;

    const secondRun = await deployCli(second, 'fresh', '--state', 'default');
    expect(secondRun.stderr).toBe('');
    expect(secondRun.code).toBe(0);
    expect(secondRun.stdout).toContain(`${changed.length} files uploaded`);
    expect(
      puts()
        .map((r) => r.url.replace(/^\/snap\/|\?.*$/g, ''))
        .sort(),
    ).toEqual(changed.map(([key]) => key).sort());
    expect(listings()).toEqual([]);
    await expectBucketHolds(second, 'fresh');
    // The lease is given up at the end.
    expect((await listBucket(s3.url, BUCKET, 'fresh/')).has(`fresh/${STATE}.lease`)).toBe(false);
  });

  it('does not trust a damaged state: compares with a listing, says why, and mends the state', async () => {
    const content = contentCopy();
    await deployCli(await freshBuild(content), 'damaged', '--state', `s3://${BUCKET}/states/one`);
    await putObject(s3.url, BUCKET, 'states/one', 'not a state');
    changeCounter(content);
    const out = await freshBuild(content);
    proxy.log.length = 0;

    const run = await deployCli(out, 'damaged', '--state', `s3://${BUCKET}/states/one`);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      `Not using the state: the state at s3://${BUCKET}/states/one is damaged: not gzip data`,
    );
    expect(run.stderr).toContain('comparing the tree with a listing of s3://snap/damaged');
    expect(listings().length).toBeGreaterThan(0);
    await expectBucketHolds(out, 'damaged');

    proxy.log.length = 0;
    const again = await deployCli(out, 'damaged', '--state', `s3://${BUCKET}/states/one`);
    expect(again.stderr).toBe('');
    expect(again.stdout).toContain('0 files uploaded');
    expect(listings()).toEqual([]);
  });

  it('stops a second run while another holds the lease: exit 75, the reason, nothing sent', async () => {
    const out = await freshBuild(contentCopy());
    const until = new Date(Date.now() + 3_600_000).toISOString();
    await putObject(
      s3.url,
      BUCKET,
      `busy/${STATE}.lease`,
      JSON.stringify({ owner: 'other', started: '2026-01-01T00:00:00.000Z', expires: until }),
    );
    proxy.log.length = 0;

    const run = await deployCli(out, 'busy', '--state', 'default');
    expect(run.code).toBe(75);
    expect(run.stderr).toContain(
      `Another run holds the lease on s3://${BUCKET}/busy/${STATE} (taken 2026-01-01T00:00:00.000Z, until ${until}); nothing was done.`,
    );
    expect(run.stderr).not.toMatch(noStackTrace);
    expect(proxy.log.filter((r) => r.method !== 'GET')).toEqual([]);
    expect([...(await listBucket(s3.url, BUCKET, 'busy/')).keys()]).toEqual([
      `busy/${STATE}.lease`,
    ]);
  });

  it('with --wait, waits for the lease to be given up, then deploys', async () => {
    const out = await freshBuild(contentCopy());
    const lease = `waits/${STATE}.lease`;
    const until = new Date(Date.now() + 3_600_000).toISOString();
    const held = { owner: 'other', started: '2026-01-01T00:00:00.000Z', expires: until };
    await putObject(s3.url, BUCKET, lease, JSON.stringify(held));
    const store = () => s3Store({ bucket: BUCKET, endpoint: proxy.url, region: null });
    const waits: number[] = [];
    const report = await deployWithState(
      {
        outDir: out,
        target: { bucket: BUCKET, prefix: 'waits', endpoint: proxy.url },
        state: { bucket: BUCKET, key: `waits/${STATE}` },
        waitMs: 60_000,
        cacheControl: null,
        concurrency: 4,
        retries: 0,
      },
      {
        store,
        stateStore: store,
        // The other run ends during the first wait.
        sleep: async (ms) => {
          waits.push(ms);
          await deleteObject(lease);
        },
        random: () => 0.5,
        now: Date.now,
      },
    );
    expect(report).toMatchObject({ ok: true });
    expect(waits).toEqual([5000]);
    await expectBucketHolds(out, 'waits');
  });

  it('takes over a lease that ran out, and lists the target: that run may have sent files its state does not know', async () => {
    const content = contentCopy();
    await deployCli(await freshBuild(content), 'stale', '--state', 'default');
    await putObject(
      s3.url,
      BUCKET,
      `stale/${STATE}.lease`,
      JSON.stringify({
        owner: 'gone',
        started: '2026-01-01T00:00:00.000Z',
        expires: '2026-01-01T03:00:00.000Z',
      }),
    );
    changeCounter(content);
    const out = await freshBuild(content);

    const run = await deployCli(out, 'stale', '--state', 'default');
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      `Not using the state: the last run at s3://${BUCKET}/stale/${STATE} did not finish (its lease from 2026-01-01T00:00:00.000Z ran out)`,
    );
    await expectBucketHolds(out, 'stale');
    expect((await listBucket(s3.url, BUCKET, 'stale/')).has(`stale/${STATE}.lease`)).toBe(false);
  });

  it.each([
    [['--state', 's3://snap'], '--state expects s3://BUCKET/KEY or default (got "s3://snap")'],
    [['--state', 'default', '--wait', '-1'], '--wait'],
  ])('refuses %j with exit 1 and one line', async (args, message) => {
    const run = await deployCli(join(tempDir(), 'dist'), 'usage', ...args);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(message);
    expect(run.stderr).not.toMatch(noStackTrace);
  });
});

/** Deletes one object straight on the server (another run giving up its lease). */
async function deleteObject(key: string): Promise<void> {
  const store = s3Store({ bucket: BUCKET, endpoint: s3.url, region: null });
  try {
    expect(await store.remove([key])).toEqual([]);
  } finally {
    store.close();
  }
}
