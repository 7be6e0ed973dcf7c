/**
 * Issue 24: every request a deploy makes of the store that may be sent again (a LIST, a GET, a
 * DELETE) is tried again after a 5xx, as uploads are, and the deploy says so: the local S3
 * server behind a proxy that answers some requests 500 once. Once the state could not be
 * written, the older state is deleted even when the store answers that DELETE 500 once, so that
 * the next run does not trust it.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDirectory } from '../../src/build.ts';
import { FIXTURES, tempDir } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';
import { listBucket, TEST_AWS_ENV, useLocalS3 } from '../support/s3-proxy.ts';

const BUCKET = 'retried';
const STATE = '.weblate-snapshot/state';
const APP = 'projects/hello/components/app.yaml';
const servers = useLocalS3(BUCKET);

/** The minimal fixture built into a new folder; `change` edits a counter and builds again. */
async function built() {
  const dir = tempDir();
  const content = join(dir, 'content');
  const out = join(dir, 'dist');
  cpSync(join(FIXTURES, 'minimal/content'), content, { recursive: true });
  expect((await buildDirectory({ contentDir: content, outDir: out })).errors).toEqual([]);
  const change = async () => {
    const app = join(content, APP);
    writeFileSync(app, readFileSync(app, 'utf8').replace('translated: 4\n', 'translated: 3\n'));
    expect((await buildDirectory({ contentDir: content, outDir: out })).errors).toEqual([]);
  };
  return { out, change };
}

const deployCli = (out: string, prefix: string) =>
  runCli(
    'deploy',
    [
      ...['--out', out, '--to', `s3://${BUCKET}/${prefix}`, '--endpoint', servers.proxy.url],
      ...['--state', 'default', '--retries', '2'],
    ],
    { env: TEST_AWS_ENV },
  );

/** The logged path without the SDK's `?x-id=…`. */
const pathOf = (url: string) => url.replace(/\?x-id=\w+$/, '');
const isListing = (url: string) => /[?&]list-type=2/.test(url);
const listsPrefix = (url: string, prefix: string) =>
  new URL(url, 'http://store').searchParams.get('prefix') === `${prefix}/`;

describe('deploy --state: store requests answered 5xx are tried again', () => {
  it('retries a LIST and the GETs of the lease and the state once each answered 500, and says so', async () => {
    const { out } = await built();
    const prefix = 'listed';
    const lease = `/${BUCKET}/${prefix}/${STATE}.lease`;
    const state = `/${BUCKET}/${prefix}/${STATE}`;
    const failed = new Set<string>();
    servers.proxy.fault = ({ method, url }) => {
      const what = isListing(url) ? 'LIST' : `${method} ${pathOf(url)}`;
      const once = what === 'LIST' || what === `GET ${lease}` || what === `GET ${state}`;
      if (!once || failed.has(what)) return null;
      failed.add(what);
      return { status: 500, code: 'InternalError' };
    };

    const result = await deployCli(out, prefix);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.code).toBe(0);
    expect([...failed].sort()).toEqual([`GET ${lease}`, `GET ${state}`, 'LIST'].sort());
    // With no record beside the tree, the target was listed: the listing was answered in the end.
    // (The state's parts are listed too, under their own prefix.)
    const listings = servers.proxy.log.filter(
      (r) => isListing(r.url) && listsPrefix(r.url, prefix),
    );
    expect(listings.map((r) => r.status)).toEqual([500, 200]);
    for (const answered of [
      `GET ${prefix}/${STATE}.lease was answered HTTP 500 InternalError`,
      `GET ${prefix}/${STATE} was answered HTTP 500 InternalError`,
      `LIST ${prefix}/ was answered HTTP 500 InternalError`,
    ])
      expect(result.stderr).toMatch(new RegExp(`^Waiting \\d+\\.\\d s: ${escape(answered)}`, 'm'));
    const keys = await listBucket(servers.s3.url, BUCKET, `${prefix}/`);
    expect(keys.has(`${prefix}/api/index.json`)).toBe(true);
    expect(keys.has(`${prefix}/${STATE}`)).toBe(true);
    expect(keys.has(`${prefix}/${STATE}.lease`)).toBe(false);
  });

  it('deletes the older state when the new one cannot be written, though the DELETE is answered 500 once', async () => {
    const { out, change } = await built();
    const prefix = 'unsaved';
    const state = `/${BUCKET}/${prefix}/${STATE}`;
    expect((await deployCli(out, prefix)).code).toBe(0);
    await change();
    let deletes = 0;
    servers.proxy.fault = ({ method, url }) => {
      if (method === 'PUT' && pathOf(url) === state) return { status: 500, code: 'InternalError' };
      if (method === 'POST' && /[?&]delete/.test(url) && deletes++ === 0)
        return { status: 500, code: 'InternalError' };
      return null;
    };

    const result = await deployCli(out, prefix);
    expect(result.stderr).toContain(`its state could not be written to s3://${BUCKET}/${prefix}/`);
    expect(result.code).not.toBe(0);
    // The older state does not know of the files this run sent: the next run must not trust it.
    const keys = await listBucket(servers.s3.url, BUCKET, `${prefix}/`);
    expect(keys.has(`${prefix}/${STATE}`)).toBe(false);
    expect(keys.has(`${prefix}/${STATE}.lease`)).toBe(false);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
