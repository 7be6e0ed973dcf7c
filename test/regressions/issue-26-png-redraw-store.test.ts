/**
 * Issue 26, item 3: a publish to a store (`deploy --content … --to s3://…`) in a new process,
 * whose scratch folder starts empty, draws only the PNG widgets whose drawing changed. The deploy
 * record in the store's state keeps the key of each PNG's drawing beside its MD5; a PNG whose
 * drawing has the key recorded for its file is already at the target and is neither drawn nor
 * sent. The bucket stays what a fresh full publish leaves. A mirror into a bucket publishes the
 * same way, and its deploy step says so too.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFeedFront, type FeedFront } from '../../bench/feed-front.ts';
import { formatLine, parseLine } from '../../src/deploy/record.ts';
import { RecordedDrawings } from '../../src/deploy/recorded-drawings.ts';
import { renderBadge } from '../../src/status-site/badges.ts';
import { renderPng } from '../../src/status-site/png.ts';
import { CHECK_WIDTH } from '../../src/tree/journal.ts';
import { tempDir, writeFiles } from '../helpers.ts';
import { runScript } from '../support/run-script.ts';
import { useContentBucket } from '../support/content-bucket.ts';
import { TEST_AWS_ENV } from '../support/s3-proxy.ts';
import { startUpstreamSidecar, type UpstreamSidecar } from '../sidecar/support.ts';

const BUCKET = 'png-redraw';
const { servers, objectsUnder } = useContentBucket(BUCKET);
const WIDGETS = 'widgets/hello/-/';

let sidecar: UpstreamSidecar | undefined;
let front: FeedFront | undefined;
afterEach(async () => {
  await sidecar?.stop();
  await front?.close();
  sidecar = front = undefined;
});

/** A project of one component whose source has `total` strings, `translated` of them in Czech. */
function writeContent(content: string, total: number, translated: number): void {
  writeFiles(content, {
    'site.yaml': 'base_url: https://snapshot.example.org\npages: true\n',
    'projects/hello/project.yaml': 'name: Hello\n',
    'projects/hello/components/app.yaml': [
      'name: App',
      'source_language: en',
      'repo: https://git.example.org/hello.git',
      'filemask: po/*.po',
      'file_format: po',
      'source:',
      `  total: ${total}`,
      'translations:',
      '  cs:',
      `    translated: ${translated}`,
    ].join('\n'),
  });
}

/** `deploy --content` in a process of its own (no renderings in memory, an empty scratch folder): its --json summary. */
async function publish(prefix: string, content: string): Promise<Record<string, unknown>> {
  const to = `s3://${BUCKET}/${prefix}`;
  const args = ['--content', content, '--to', to, '--endpoint', servers.proxy.url, '--json'];
  const run = await runScript('deploy', args, { env: TEST_AWS_ENV });
  expect(run.stderr.replace(/^Not using the state: .*\n/, '')).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

/** The PNGs whose bytes differ between two publishes. */
function changedPngs(before: Awaited<ReturnType<typeof objectsUnder>>, after: typeof before) {
  return Object.keys(after)
    .filter((path) => path.endsWith('.png') && after[path]!.body !== before[path]?.body)
    .sort();
}

const PROJECT_PNGS = 8;

describe('deploy --content in a new process: PNG widgets drawn again', () => {
  it('draws only the PNGs whose drawing changed, and the bucket equals a fresh full publish', async () => {
    const content = join(tempDir(), 'content');
    writeContent(content, 10_000, 5_050);
    const first = await publish('site', content);
    expect(first).toMatchObject({ ok: true, pngsDrawn: PROJECT_PNGS });
    const published = await objectsUnder('site');

    // 5,051 of 10,000 is still "50%": the widget folder is rendered again, no drawing moved.
    writeContent(content, 10_000, 5_051);
    const same = await publish('site', content);
    expect(same).toMatchObject({ ok: true, pngsDrawn: 0 });
    const fresh = await publish('fresh-1', content);
    expect(fresh.pngsDrawn).toBe(PROJECT_PNGS);
    expect(await objectsUnder('site')).toEqual(await objectsUnder('fresh-1'));
    expect(changedPngs(published, await objectsUnder('site'))).toEqual([]);

    // 10,001 strings, 5,051 of them "50%" still: only the widgets that show the strings move.
    writeContent(content, 10_001, 5_051);
    const strings = await publish('site', content);
    expect(await publish('fresh-2', content)).toMatchObject({ pngsDrawn: PROJECT_PNGS });
    const now = await objectsUnder('site');
    expect(now).toEqual(await objectsUnder('fresh-2'));
    const moved = changedPngs(published, now);
    expect(moved).toEqual(
      ['287x66-black.png', '287x66-grey.png', '287x66-white.png', 'open-graph.png'].map(
        (name) => WIDGETS + name,
      ),
    );
    expect(strings).toMatchObject({ ok: true, pngsDrawn: moved.length });

    // Nothing changed since: no group is rendered, nothing drawn or sent.
    expect(await publish('site', content)).toMatchObject({ uploaded: 0, pngsDrawn: 0 });
  }, 180_000);

  it('keeps a drawing key beside the MD5 in the record, and reads a line of an earlier version without one', () => {
    const drawings = new Map([['status-badge.png', 'k3y_-A']]);
    const files = new Map([
      ['status-badge.png', 'bWQ1/+=='],
      ['index.html', 'aHRtbA=='],
    ]);
    const line = formatLine('/widgets/hello/-/', { fingerprint: 7, files, drawings });
    expect(line.slice(CHECK_WIDTH)).toBe(
      '7 /widgets/hello/-/\tstatus-badge.png bWQ1/+==:k3y_-A\tindex.html aHRtbA==\n',
    );
    expect(parseLine(line.slice(CHECK_WIDTH, -1))).toEqual([
      '/widgets/hello/-/',
      { fingerprint: 7, files, drawings },
    ]);
    const earlier = parseLine('7 /widgets/hello/-/\tstatus-badge.png bWQ1/+==');
    expect(earlier).toEqual([
      '/widgets/hello/-/',
      { fingerprint: 7, files: new Map([['status-badge.png', 'bWQ1/+==']]) },
    ]);
  });

  it('leaves undrawn only a drawing recorded for its own file, while its group is rendered', () => {
    const drawings = new RecordedDrawings();
    const [half, most] = [renderBadge(50), renderBadge(60)];
    const drawn = renderPng(half, drawings);
    const key = drawings.drawingOf([drawn])!.key;
    expect(drawings.drawingOf([drawn])).toEqual({ key, standIn: false });
    expect(drawn.byteLength).toBeGreaterThan(0);

    drawings.rendering(new Map([['status-badge.png', key]]));
    const undrawn = renderPng(half, drawings);
    expect(undrawn.byteLength).toBe(0);
    expect(drawings.drawingOf([undrawn])).toEqual({ key, standIn: true });
    expect(drawings.misplaced([{ data: [undrawn] }], ['status-badge.png'])).toBe(false);
    // The same drawing in another file of the group, whose record holds another key: drawn after all.
    expect(drawings.misplaced([{ data: [undrawn] }], ['88x31-white.png'])).toBe(true);
    expect(renderPng(most, drawings).byteLength).toBeGreaterThan(0);

    drawings.rendering(new Map());
    expect(Buffer.from(renderPng(half, drawings))).toEqual(Buffer.from(drawn));
  });
});

describe('mirror --to s3://… in a new process: PNG widgets drawn again', () => {
  /** `mirror` in a process of its own, from an empty work folder: its deploy step's --json record. */
  async function mirror(from: string, prefix: string): Promise<Record<string, unknown>> {
    const args = [
      ...['--from', from, '--to', `s3://${BUCKET}/${prefix}`, '--endpoint', servers.proxy.url],
      ...['--work', join(tempDir(), 'work'), '--base-url', 'https://snapshot.example.org'],
      '--json',
    ];
    const run = await runScript('mirror', args, { env: TEST_AWS_ENV });
    expect(run.stderr.replace(/^Not using the state: .*\n/, '')).toBe('');
    expect(run.code).toBe(0);
    const { steps } = JSON.parse(run.stdout) as { steps: Record<string, unknown>[] };
    return steps.find((step) => step.step === 'deploy')!;
  }

  it('draws no PNG when a counter moves and no drawing does', async () => {
    const dir = tempDir();
    const space = { dir, content: join(dir, 'content'), out: join(dir, 'served') };
    writeContent(space.content, 10_000, 5_050);
    sidecar = await startUpstreamSidecar(space);
    front = await startFeedFront(sidecar.origin);
    const from = `${front.url}${new URL(sidecar.api).pathname}`;
    expect(await mirror(from, 'mirror')).toMatchObject({ pngsDrawn: PROJECT_PNGS });

    await sidecar.stop();
    writeContent(space.content, 10_000, 5_051);
    sidecar = await startUpstreamSidecar(space);
    front.upstream = sidecar.origin;
    front.record({
      component: `${sidecar.api}components/hello/app/`,
      translation: null,
      action: 2,
    });
    const second = await mirror(from, 'mirror');
    expect(second.uploaded).toBeGreaterThan(0);
    expect(second.pngsDrawn).toBe(0);
    expect(await mirror(from, 'mirror-fresh')).toMatchObject({ pngsDrawn: PROJECT_PNGS });
    expect(await objectsUnder('mirror')).toEqual(await objectsUnder('mirror-fresh'));
  }, 180_000);
});
