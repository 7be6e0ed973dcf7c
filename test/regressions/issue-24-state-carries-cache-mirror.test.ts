/**
 * Issue 24: a long-running `mirror --listen --to s3://…` keeps its scratch
 * folder between refreshes while the state in the store is the one it wrote:
 * a delivery then costs a listing of the state's key instead of reading the
 * state object, and the bucket still follows the upstream. When another run
 * wrote the state meanwhile, the next refresh reads it again.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers.ts';
import { useMirrorListener } from '../support/mirror-listener.ts';
import { runScript } from '../support/run-script.ts';
import { listBucket, TEST_AWS_ENV, useLocalS3 } from '../support/s3-proxy.ts';
import { useUpstream } from '../support/upstream.ts';
import { signedDelivery, writeWebhookSecret } from '../support/webhook-delivery.ts';
import { AUTH, call } from '../sidecar/support.ts';

const BUCKET = 'keeps-scratch';
const servers = useLocalS3(BUCKET);
const BASE = ['--base-url', 'https://l10n.example.org'];
const STATE_PATH = `/${BUCKET}/l10n/.weblate-snapshot/state`;

const startUpstream = useUpstream();
const startMirror = useMirrorListener();

/** A delivery of a change to a translation of beta/docs, as Weblate's add-on sends it. */
function delivery(key: Buffer, translation: string) {
  const body = JSON.stringify({
    change_id: randomBytes(4).readUInt32LE(),
    action: 'Translation changed',
    project: 'beta',
    component: 'docs',
    translation,
  });
  return { body, headers: signedDelivery(key, body).headers };
}

/** Requests that read the state object itself (not its lease, not a listing). */
const stateReads = () =>
  servers.proxy.log.filter((r) => r.method === 'GET' && r.url.split('?')[0] === STATE_PATH);

describe('mirror --listen --to s3://…: the scratch folder kept between refreshes', () => {
  it('does not read the state again while it is the one this process wrote, and does once another run wrote it', async () => {
    const up = await startUpstream();
    const dir = tempDir();
    const { key, file: secretFile } = writeWebhookSecret(dir);
    const work = join(dir, 'work');
    const to = ['--to', `s3://${BUCKET}/l10n`, '--endpoint', servers.proxy.url];
    const { url, output, stop } = await startMirror(
      [
        ...['--from', up.api, ...to, '--work', work, ...BASE],
        ...['--listen', '0', '--webhook-secret-file', secretFile],
      ],
      'deploy',
    );
    // The first refresh found no state (one read), and keeps its scratch folder.
    expect(stateReads()).toHaveLength(1);
    expect(readdirSync(work)).toHaveLength(1);

    // Each wait reads on from where the last one matched.
    const refreshed = () =>
      output.waitFor(/Refreshing of beta\/docs\.\n(.*\n)*?deploy: [^\n]*\n/, 'the refresh');
    const gone = (translation: string) =>
      `l10n/api/translations/beta/docs/${translation}/index.json`;
    const remove = async (translation: string) => {
      const path = `${up.api}translations/beta/docs/${translation}/`;
      expect((await call(path, 'DELETE', undefined, AUTH)).status).toBe(204);
      const sent = delivery(key, translation);
      const answer = await fetch(url, { method: 'POST', ...sent });
      expect(answer.status).toBe(202);
    };

    servers.proxy.log.length = 0;
    expect((await listBucket(servers.s3.url, BUCKET, 'l10n/')).has(gone('he'))).toBe(true);
    await remove('he');
    await refreshed();
    expect((await listBucket(servers.s3.url, BUCKET, 'l10n/')).has(gone('he'))).toBe(false);
    expect(stateReads()).toEqual([]);
    expect(servers.proxy.log.some((r) => r.method === 'PUT' && r.url.startsWith(STATE_PATH))).toBe(
      true,
    );

    // Another run (a one-off mirror from elsewhere) writes the state: the next delivery reads it.
    const other = await runScript(
      'mirror',
      ['--from', up.api, ...to, '--work', join(dir, 'other'), ...BASE],
      { env: TEST_AWS_ENV },
    );
    expect(other.code).toBe(0);
    servers.proxy.log.length = 0;
    await remove('de');
    await refreshed();
    expect(stateReads()).toHaveLength(1);
    const keys = await listBucket(servers.s3.url, BUCKET, 'l10n/');
    expect(keys.has(gone('de'))).toBe(false);
    expect(keys.has('l10n/api/projects/beta/index.json')).toBe(true);

    // The scratch folder goes when the mirror stops.
    await stop();
    expect(existsSync(work) ? readdirSync(work) : []).toEqual([]);
  });
});
