/**
 * Issue 24: a long-running `mirror --listen --to s3://…` keeps its scratch
 * folder between refreshes while the state in the store is the one it wrote:
 * a delivery then costs a listing of the state's key instead of reading the
 * state object, and the bucket still follows the upstream. When another run
 * wrote the state meanwhile, the next refresh reads it again.
 */
import { spawn } from 'node:child_process';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { cpSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES, scriptArgs, tempDir } from '../helpers.ts';
import { childOutput, type ChildOutput } from '../support/child-output.ts';
import { runScript } from '../support/run-script.ts';
import { listBucket, TEST_AWS_ENV, useLocalS3 } from '../support/s3-proxy.ts';
import { AUTH, call, startSidecar, type RunningSidecar } from '../sidecar/support.ts';

const BUCKET = 'keeps-scratch';
const servers = useLocalS3(BUCKET);
const BASE = ['--base-url', 'https://l10n.example.org'];
const STATE_PATH = `/${BUCKET}/l10n/.weblate-snapshot/state`;

let sidecar: RunningSidecar | undefined;
let mirrorChild: { stop: () => Promise<void> } | undefined;
afterEach(async () => {
  await mirrorChild?.stop();
  await sidecar?.stop();
  mirrorChild = sidecar = undefined;
});

async function upstream(): Promise<RunningSidecar> {
  const dir = tempDir();
  const space = { dir, content: join(dir, 'content'), out: join(dir, 'served') };
  cpSync(join(FIXTURES, 'features/content'), space.content, { recursive: true });
  sidecar = await startSidecar(space);
  return sidecar;
}

/** A delivery as Weblate's add-on signs it. */
function delivery(key: Buffer, translation: string) {
  const body = JSON.stringify({
    change_id: randomBytes(4).readUInt32LE(),
    action: 'Translation changed',
    project: 'beta',
    component: 'docs',
    translation,
  });
  const id = randomUUID().replaceAll('-', '');
  const seconds = Math.floor(Date.now() / 1000);
  const signature = createHmac('sha256', key).update(`${id}.${seconds}.${body}`).digest('base64');
  const headers = {
    'Content-Type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': `${seconds}`,
    'webhook-signature': `v1,${signature}`,
  };
  return { body, headers };
}

/** `mirror --listen 0` as a process, once its first refresh is over. */
async function startMirror(args: string[]): Promise<{ url: string; output: ChildOutput }> {
  const child = spawn(process.execPath, [...scriptArgs('mirror'), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...TEST_AWS_ENV },
  });
  const output = childOutput(child);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  mirrorChild = {
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
  const [, url] = await output.waitFor(/deliveries at (http:\/\/\S+\/)\n/, 'the listener');
  await output.waitFor(/^deploy: /m, 'the first refresh');
  return { url: url!, output };
}

/** Requests that read the state object itself (not its lease, not a listing). */
const stateReads = () =>
  servers.proxy.log.filter((r) => r.method === 'GET' && r.url.split('?')[0] === STATE_PATH);

describe('mirror --listen --to s3://…: the scratch folder kept between refreshes', () => {
  it('does not read the state again while it is the one this process wrote, and does once another run wrote it', async () => {
    const up = await upstream();
    const dir = tempDir();
    const key = randomBytes(32);
    writeFileSync(join(dir, 'secret'), `whsec_${key.toString('base64')}\n`);
    const work = join(dir, 'work');
    const to = ['--to', `s3://${BUCKET}/l10n`, '--endpoint', servers.proxy.url];
    const { url, output } = await startMirror([
      ...['--from', up.api, ...to, '--work', work, ...BASE],
      ...['--listen', '0', '--webhook-secret-file', join(dir, 'secret')],
    ]);
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
    await mirrorChild!.stop();
    expect(existsSync(work) ? readdirSync(work) : []).toEqual([]);
  });
});
