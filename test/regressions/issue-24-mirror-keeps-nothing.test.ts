/**
 * Issue 24: `mirror --to s3://…` on a runner that keeps nothing. A first run
 * from an empty folder pulls the upstream (the sidecar behind a front that
 * keeps its URL and serves a changes feed) and publishes it with no tree on
 * disk, keeping its state in the store; one counter changes upstream; a
 * second run from a new empty folder gets the pulled content, the deploy
 * record and the build cache back from that state, uploads only the objects that changed, and
 * leaves the bucket equal, byte for byte, to a fresh full publish of the
 * changed upstream. Its scratch folder holds the content, the record
 * and the build cache, never the tree, and is gone after the run.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFeedFront, type FeedFront } from '../../bench/feed-front.ts';
import { EXIT_TEMPORARY } from '../../src/cli/command.ts';
import { DEFAULT_CACHE_CONTROL } from '../../src/deploy/deploy.ts';
import { s3Store } from '../../src/deploy/s3.ts';
import { refreshMirror, type MirrorStepReport } from '../../src/mirror/mirror.ts';
import { FIXTURES, tempDir } from '../helpers.ts';
import { useContentBucket } from '../support/content-bucket.ts';
import { runScript } from '../support/run-script.ts';
import { listBucket, putObject, TEST_AWS_ENV } from '../support/s3-proxy.ts';
import { startUpstreamSidecar, type UpstreamSidecar, type Workspace } from '../sidecar/support.ts';

const BUCKET = 'keeps-nothing';
const STATE = '/.weblate-snapshot/state';
const APP = 'projects/alpha/components/strings.yaml';
const BASE = ['--base-url', 'https://l10n.example.org'];
const { servers, objectsUnder } = useContentBucket(BUCKET);

let sidecar: UpstreamSidecar | undefined;
let front: FeedFront | undefined;
afterEach(async () => {
  await sidecar?.stop();
  await front?.close();
  sidecar = front = undefined;
});

/** The features fixture served by the sidecar behind a front whose URL outlives a restart. */
async function upstream(): Promise<{ from: string; space: Workspace }> {
  const dir = tempDir();
  const space = { dir, content: join(dir, 'content'), out: join(dir, 'served') };
  cpSync(join(FIXTURES, 'features/content'), space.content, { recursive: true });
  sidecar = await startUpstreamSidecar(space);
  front = await startFeedFront(sidecar.origin);
  return { from: `${front.url}${new URL(sidecar.api).pathname}`, space };
}

/** One counter changed in the upstream's content, the sidecar started again on it, the feed told. */
async function changeCounter(space: Workspace): Promise<void> {
  await sidecar!.stop();
  const file = join(space.content, APP);
  const text = readFileSync(file, 'utf8');
  expect(text).toContain('translated: 4\n');
  writeFileSync(file, text.replace('translated: 4\n', 'translated: 3\n'));
  sidecar = await startUpstreamSidecar(space);
  front!.upstream = sidecar.origin;
  front!.record({
    component: `${sidecar.api}components/alpha/strings/`,
    translation: null,
    action: 2,
  });
}

/** `mirror --to s3://BUCKET/PREFIX --work WORK` as a user runs it. */
const mirrorCli = (from: string, prefix: string, work: string, more: string[] = []) =>
  runScript(
    'mirror',
    [
      ...['--from', from, '--to', `s3://${BUCKET}/${prefix}`, '--endpoint', servers.proxy.url],
      ...['--work', work, ...BASE, ...more],
    ],
    { env: TEST_AWS_ENV },
  );

describe('mirror --to s3://… with nothing kept between runs', () => {
  it('refreshes from the state in the store at the cost of what changed, leaving the bucket as a fresh full publish', async () => {
    const { from, space } = await upstream();
    const firstWork = join(tempDir(), 'first');
    const first = await mirrorCli(from, 'site', firstWork);
    expect(first.stderr).not.toMatch(/error|warning/i);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^pull: .*\ndeploy: [1-9]\d* files uploaded/);
    expect(readdirSync(firstWork)).toEqual([]);
    const before = await objectsUnder('site');
    expect(Object.keys(before).length).toBeGreaterThan(20);

    await changeCounter(space);
    servers.proxy.log.length = 0;
    // The second run, in this process, so that its scratch folder is measured at each step.
    const work = join(tempDir(), 'second');
    const target = { bucket: BUCKET, prefix: 'site', endpoint: servers.proxy.url };
    const store = () => s3Store({ bucket: BUCKET, endpoint: servers.proxy.url, region: null });
    const steps: MirrorStepReport[] = [];
    let peak = 0;
    const outcome = await refreshMirror(
      {
        from,
        projects: [],
        work,
        target: { kind: 's3', target },
        settings: { baseUrl: 'https://l10n.example.org' },
        deploy: { cacheControl: DEFAULT_CACHE_CONTROL, concurrency: 4, retries: 0 },
        http: { retries: 0 },
      },
      { store, stateStore: store },
      undefined,
      (step) => {
        steps.push(step);
        peak = Math.max(peak, diskUse(work));
      },
    );
    expect(outcome).toEqual({ ok: true });
    const [pulled, deployed] = steps;
    // The pull came back from the state: only the component the feed named was read again.
    expect(pulled).toMatchObject({ step: 'pull', report: { files: 1 } });
    expect(pulled!.step === 'pull' && pulled!.report.kept).toBeGreaterThan(0);

    const now = await objectsUnder('site');
    const changed = Object.keys(now).filter((key) => now[key]!.body !== before[key]?.body);
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.length).toBeLessThan(Object.keys(now).length);
    const puts = servers.proxy.log
      .filter((r) => r.method === 'PUT' && !r.url.includes(STATE))
      .map((r) => r.url.replace(/^\/keeps-nothing\/site\/|\?.*$/g, ''));
    expect(puts.sort()).toEqual(changed.sort());
    expect(deployed).toMatchObject({ step: 'deploy', report: { uploaded: changed.length } });

    // The scratch folder held the content, the record and the build cache, never the tree, and is gone.
    const published = Object.values(now).reduce((sum, o) => sum + Buffer.byteLength(o.body), 0);
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThan(diskUse(space.content) + 128 * 1024);
    expect(peak).toBeLessThan(published / 2);
    expect(readdirSync(work)).toEqual([]);

    const fresh = await mirrorCli(from, 'fresh', join(tempDir(), 'fresh'));
    expect(fresh.code).toBe(0);
    expect(now).toEqual(await objectsUnder('fresh'));
  });
});

describe('mirror --state: the state of a mirror elsewhere in the store', () => {
  const STATE_KEY = 'states/mirror-one';
  const stateFlag = ['--state', `s3://${BUCKET}/${STATE_KEY}`];

  it('does not trust a damaged state: says why, pulls everything, compares with a listing, and mends it', async () => {
    const { from } = await upstream();
    expect((await mirrorCli(from, 'mended', join(tempDir(), 'a'), stateFlag)).code).toBe(0);
    const listed = await listBucket(servers.s3.url, BUCKET, 'states/');
    // The root, and its parts beside it.
    const keys = [...listed.keys()];
    expect(keys.filter((key) => !key.startsWith(`${STATE_KEY}.parts/`))).toEqual([STATE_KEY]);
    expect(keys.length).toBeGreaterThan(1);
    await putObject(servers.s3.url, BUCKET, STATE_KEY, 'not a state');

    const damaged = await mirrorCli(from, 'mended', join(tempDir(), 'b'), stateFlag);
    expect(damaged.code).toBe(0);
    expect(damaged.stderr).toContain(
      `Not using the state: the state at s3://${BUCKET}/${STATE_KEY} is damaged`,
    );
    expect(damaged.stdout).toMatch(/^pull: .*\ndeploy: 0 files uploaded/);

    const next = await mirrorCli(from, 'mended', join(tempDir(), 'c'), stateFlag);
    expect(next.code).toBe(0);
    expect(next.stderr).not.toContain('Not using the state');
    expect(next.stdout).toMatch(/^pull: .*, 0 files written, [1-9]\d* components kept/);
  });

  it('stops while another run holds the lease: exit 75, the reason, nothing pulled or sent', async () => {
    const { from } = await upstream();
    const lease = { owner: 'other', started: new Date().toISOString() };
    const expires = new Date(Date.now() + 3_600_000).toISOString();
    await putObject(
      servers.s3.url,
      BUCKET,
      `${STATE_KEY}-held.lease`,
      JSON.stringify({ ...lease, expires }),
    );
    const held = ['--state', `s3://${BUCKET}/${STATE_KEY}-held`];
    const run = await mirrorCli(from, 'held', join(tempDir(), 'd'), held);
    expect(run.code).toBe(EXIT_TEMPORARY);
    expect(run.stderr).toContain('Another run holds the lease');
    expect(run.stdout).toBe('');
    expect(front!.log).toEqual([]);
    expect(servers.proxy.log.filter((r) => r.method === 'PUT')).toEqual([]);
  });
});

/** Bytes a folder takes on disk, as du counts them. */
function diskUse(dir: string): number {
  return Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]);
}
