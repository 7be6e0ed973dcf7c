/**
 * Issue 24: a verify of a target whose state is kept under its prefix
 * (`--state default`) counts the state object and its lease as the tool's
 * own, not as foreign keys "this tree never had"; a key someone else put
 * there still counts. For a deploy of a tree and a publish of content alike.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDirectory } from '../../src/build.ts';
import { publishContent } from '../../src/deploy/publish.ts';
import { s3Store } from '../../src/deploy/s3.ts';
import { tempDir } from '../helpers.ts';
import { useContentBucket } from '../support/content-bucket.ts';
import { runCli } from '../support/run-cli.ts';
import { putObject, TEST_AWS_ENV } from '../support/s3-proxy.ts';

const BUCKET = 'verify-keys';
const STATE = '.weblate-snapshot/state';
const { servers, checkout } = useContentBucket(BUCKET);
const contentCopy = () => checkout('minimal');

const deployCli = (out: string, prefix: string, ...more: string[]) =>
  runCli(
    'deploy',
    ['--out', out, '--to', `s3://${BUCKET}/${prefix}`, '--endpoint', servers.s3.url, ...more],
    { env: TEST_AWS_ENV },
  );

describe('--verify with the state under the prefix', () => {
  it('deploy: counts neither the state nor its lease as foreign, and a key put by hand still', async () => {
    const out = join(tempDir(), 'dist');
    expect((await buildDirectory({ contentDir: contentCopy(), outDir: out })).errors).toEqual([]);
    expect((await deployCli(out, 'tree', '--state', 'default')).code).toBe(0);
    // A lease left by a run that is still going would be listed too: one that ran out is taken over.
    const gone = { owner: 'x', started: '2020-01-01T00:00:00Z', expires: '2020-01-01T00:30:00Z' };
    await putObject(servers.s3.url, BUCKET, `tree/${STATE}.lease`, JSON.stringify(gone));

    const verified = await deployCli(out, 'tree', '--state', 'default', '--verify');
    expect(verified.code).toBe(0);
    expect(verified.stdout).toMatch(/^Verified /);
    expect(verified.stdout).not.toContain('never had');

    await putObject(servers.s3.url, BUCKET, 'tree/robots.txt', 'User-agent: *\n');
    const again = await deployCli(out, 'tree', '--state', 'default', '--verify');
    expect(again.stdout).toContain('; 1 key under the prefix that this tree never had, left alone');
  });

  it('publish of content: the same count', async () => {
    const content = contentCopy();
    const store = () => s3Store({ bucket: BUCKET, endpoint: servers.s3.url, region: null });
    const publish = () =>
      publishContent(
        {
          contentDir: content,
          target: { bucket: BUCKET, prefix: 'content', endpoint: servers.s3.url },
          state: { bucket: BUCKET, key: `content/${STATE}` },
          waitMs: 0,
          cacheControl: null,
          concurrency: 4,
          retries: 0,
          verify: true,
        },
        { store, stateStore: store, sleep: async () => {}, random: () => 0.5, now: Date.now },
      );
    expect(await publish()).toMatchObject({ ok: true, foreign: 0 });
    expect(await publish()).toMatchObject({ ok: true, foreign: 0 });
    await putObject(servers.s3.url, BUCKET, 'content/robots.txt', 'User-agent: *\n');
    expect(await publish()).toMatchObject({ ok: true, foreign: 1 });
  });
});
