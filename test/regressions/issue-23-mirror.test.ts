/**
 * Issue 23: `mirror` as a user runs it, a real process against the real sidecar as the upstream
 * and the local S3 server: into a bucket, then into a served folder; with --listen, a delivery
 * signed as Weblate signs it refreshes the bucket, and a forged, stale or replayed one is
 * refused with 401 and changes nothing. Exit 75 when the upstream or the store is down, 1 for a
 * bad flag.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_TEMPORARY } from '../../src/cli/command.ts';
import { tempDir } from '../helpers.ts';
import { useMirrorListener } from '../support/mirror-listener.ts';
import { runScript } from '../support/run-script.ts';
import { listBucket, TEST_AWS_ENV, useLocalS3 } from '../support/s3-proxy.ts';
import { useUpstream } from '../support/upstream.ts';
import { signedDelivery, writeWebhookSecret } from '../support/webhook-delivery.ts';
import { AUTH, call } from '../sidecar/support.ts';

const BUCKET = 'mirror';
const servers = useLocalS3(BUCKET);
const noStackTrace = /\n\s+at /;
const BASE = ['--base-url', 'https://l10n.example.org'];
/** No retries, for the runs that meet a server down (s3rver sometimes answers a delete 500: the others retry). */
const NO_RETRIES = ['--retries', '0'];
const GONE = 'l10n/api/translations/beta/docs/he/index.json';

const startUpstream = useUpstream();
const startMirror = useMirrorListener();

const mirror = (args: string[]) => runScript('mirror', args, { env: TEST_AWS_ENV });

async function post(url: string, body: string, headers: Record<string, string>) {
  const response = await fetch(url, { method: 'POST', body, headers });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('weblate-snapshot mirror', () => {
  it('mirrors the sidecar into a bucket with a line a step, then only what changed', async () => {
    const up = await startUpstream();
    const work = join(tempDir(), 'work');
    const to = ['--to', `s3://${BUCKET}/once`, '--endpoint', servers.s3.url];
    const first = await mirror(['--from', up.api, ...to, '--work', work, ...BASE]);
    expect(first.stderr).not.toMatch(/error|warning/i);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^pull: .*\ndeploy: \d+ files uploaded/);
    // What the next run needs is kept in the store, beside the prefix; the working folder is left empty.
    expect(readdirSync(work)).toEqual([]);
    const keys = await listBucket(servers.s3.url, BUCKET, 'once/');
    expect(keys.has('once/api/projects/beta/index.json')).toBe(true);
    expect(keys.has('once/.weblate-snapshot/state')).toBe(true);
    const again = await mirror(['--from', up.api, ...to, '--work', work, ...BASE]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/deploy: 0 files uploaded .*, 0 keys deleted/);
  });

  it('mirrors into a folder a web server serves, leaving its other files alone', async () => {
    const up = await startUpstream();
    const dir = tempDir();
    const www = join(dir, 'www');
    const result = await mirror(['--from', up.api, '--to', www, '--work', join(dir, 'w'), ...BASE]);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('deploy:');
    const beta = JSON.parse(readFileSync(join(www, 'api/projects/beta/index.json'), 'utf8'));
    expect(beta.url).toBe('https://l10n.example.org/api/projects/beta/');
    writeFileSync(join(www, 'robots.txt'), 'User-agent: *\n');
    expect(
      (await call(`${up.api}translations/beta/docs/he/`, 'DELETE', undefined, AUTH)).status,
    ).toBe(204);
    const again = await mirror(['--from', up.api, '--to', www, '--work', join(dir, 'w'), ...BASE]);
    expect(again.code).toBe(0);
    expect(existsSync(join(www, 'api/translations/beta/docs/he/index.json'))).toBe(false);
    expect(readFileSync(join(www, 'robots.txt'), 'utf8')).toBe('User-agent: *\n');
  });

  it('refreshes on a signed delivery and refuses a forged, stale or replayed one with 401', async () => {
    const up = await startUpstream();
    const dir = tempDir();
    const { key, file: secretFile } = writeWebhookSecret(dir);
    const { url, output } = await startMirror(
      [
        ...['--from', up.api, '--to', `s3://${BUCKET}/l10n`, '--endpoint', servers.s3.url],
        ...['--work', join(dir, 'work'), '--listen', '0', '--webhook-secret-file', secretFile],
        ...BASE,
      ],
      'deploy',
    );
    expect((await listBucket(servers.s3.url, BUCKET, 'l10n/')).has(GONE)).toBe(true);
    expect(
      (await call(`${up.api}translations/beta/docs/he/`, 'DELETE', undefined, AUTH)).status,
    ).toBe(204);
    const body = JSON.stringify({
      change_id: 7,
      action: 'Translation changed',
      project: 'beta',
      component: 'docs',
      translation: 'he',
    });

    const forged = signedDelivery(randomBytes(32), body);
    const stale = signedDelivery(key, body, { seconds: Date.now() / 1000 - 3600 });
    for (const headers of [forged.headers, stale.headers, { 'Content-Type': 'application/json' }]) {
      const answer = await post(url, body, headers);
      expect(answer.status).toBe(401);
      expect(answer.body.detail).toEqual(expect.any(String));
    }
    expect(output.text()).not.toContain('Refreshing of');

    const good = signedDelivery(key, body);
    expect(await post(url, body, good.headers)).toEqual({
      status: 202,
      body: { accepted: good.id },
    });
    const replayed = await post(url, body, good.headers);
    expect(replayed.status).toBe(401);
    expect(replayed.body.detail).toContain('before');
    // Only the named component is read again and written; the rest is kept from the last pull.
    await output.waitFor(
      /Refreshing of beta\/docs\.\npull: [^\n]*, 1 file written, [1-9]\d* components kept[^\n]*\n(.*\n)*?deploy: /,
      'the refresh',
    );
    expect((await listBucket(servers.s3.url, BUCKET, 'l10n/')).has(GONE)).toBe(false);
    expect(output.text().match(/Refreshing of/g)).toHaveLength(1);
  });

  it('answers other bad requests 4xx in JSON, never 500', async () => {
    const up = await startUpstream();
    const dir = tempDir();
    const { key, file: secretFile } = writeWebhookSecret(dir);
    const { url } = await startMirror(
      [
        ...['--from', up.api, '--to', join(dir, 'www'), '--work', join(dir, 'work')],
        ...['--listen', '0', '--webhook-secret-file', secretFile, ...BASE],
      ],
      'build',
    );
    const get = await fetch(url);
    expect(get.status).toBe(405);
    const elsewhere = await fetch(`${url}hooks`, { method: 'POST', body: '{}' });
    expect(elsewhere.status).toBe(404);
    const notJson = signedDelivery(key, '[1, 2]');
    expect((await post(url, '[1, 2]', notJson.headers)).status).toBe(400);
    const big = 'x'.repeat(2 * 1024 * 1024);
    expect((await post(url, big, signedDelivery(key, big).headers)).status).toBe(413);
  });

  it('takes the store from AWS_ENDPOINT_URL_S3 without --endpoint, as deploy does', async () => {
    const up = await startUpstream();
    const work = join(tempDir(), 'work');
    const result = await runScript(
      'mirror',
      ['--from', up.api, '--to', `s3://${BUCKET}/from-env`, '--work', work, ...BASE],
      { env: { ...TEST_AWS_ENV, AWS_ENDPOINT_URL_S3: servers.s3.url } },
    );
    expect(result.stderr).not.toMatch(noStackTrace);
    expect(result.code).toBe(0);
    const keys = await listBucket(servers.s3.url, BUCKET, 'from-env/');
    expect(keys.has('from-env/api/projects/beta/index.json')).toBe(true);
  });

  it('exits 75 when the upstream is down and when the store is down', async () => {
    const up = await startUpstream();
    const dir = tempDir();
    const down = await mirror([
      ...['--from', 'http://127.0.0.1:9/api/', '--to', join(dir, 'www'), '--work', join(dir, 'a')],
      ...BASE,
      ...NO_RETRIES,
    ]);
    expect(down.code).toBe(EXIT_TEMPORARY);
    expect(down.stderr).toContain('http://127.0.0.1:9/api/ failed once');
    expect(down.stderr).not.toMatch(noStackTrace);
    const store = await mirror([
      ...['--from', up.api, '--to', `s3://${BUCKET}/down`, '--endpoint', 'http://127.0.0.1:9'],
      ...['--work', join(dir, 'b'), ...BASE, ...NO_RETRIES],
    ]);
    expect(store.code).toBe(EXIT_TEMPORARY);
    // The lease on the state comes first: nothing is pulled while the store is down.
    expect(store.stdout).toBe('');
    expect(store.stderr).toContain('127.0.0.1:9');
    expect(store.stderr).not.toMatch(noStackTrace);
  });

  it.each([
    [
      ['--from', 'http://127.0.0.1:9/api/', '--to', 'x', '--every', '10 minutes'],
      '--every expects',
    ],
    [
      ['--from', 'http://127.0.0.1:9/api/', '--to', 'x', '--listen', '0'],
      '--listen needs --webhook-secret-file',
    ],
    [['--from', 'http://127.0.0.1:9/api/', '--to', 'x', '--bogus'], 'unknown flag --bogus'],
  ])('exits 1 for a bad flag: %j', async (args, message) => {
    const result = await mirror(args);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toMatch(noStackTrace);
  });
});
