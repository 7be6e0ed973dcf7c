/**
 * Issue 24, item 3: between statistics sweeps an incremental pull trusts the
 * changes feed. Against the real sidecar serving 48 synthetic projects, with
 * a loopback front that answers the changes feed from entries the test
 * appends (the sidecar's own feed is a snapshot's: always empty), every
 * request counted: nothing changed costs at most 20 requests, one translation
 * deleted at most 40 + (components of its project), and the content is what
 * a full pull writes. The sweep still runs every Nth run and catches what the
 * feed did not list; a feed entry that names no component makes the run sweep.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeSyntheticContent } from '../../bench/synthetic.ts';
import { defaultPullDeps, pull, type PullReport } from '../../src/pull/pull.ts';
import { RECORD_FILE } from '../../src/pull/record.ts';
import { readTree, tempDir } from '../helpers.ts';
import { startFeedFront, type FeedFront } from '../../bench/feed-front.ts';
import { runCli } from '../support/run-cli.ts';
import { AUTH, call, startUpstreamSidecar, type UpstreamSidecar } from '../sidecar/support.ts';

// Enough projects that a sweep (a request per project) would break both request bounds below
// (20, and 40 + COMPONENTS), few enough that the full pulls stay short.
const PROJECTS = 48;
const COMPONENTS = 2;

// One sidecar for the file (a start writes and builds 48 projects); each test reads it through a
// feed front of its own, so the feed holds only its own entries, and pulls into folders of its
// own. The tests that delete a translation delete one of a component of their own.
let sidecar: UpstreamSidecar | undefined;
let front: FeedFront | undefined;

beforeAll(async () => {
  const dir = tempDir();
  const space = { dir, content: join(dir, 'content'), out: join(dir, 'served') };
  // No status site: a pull reads the API only, and the sidecar's builds of it only took time.
  await writeSyntheticContent(space.content, {
    projects: PROJECTS,
    components: COMPONENTS,
    languages: 2,
    pages: false,
  });
  sidecar = await startUpstreamSidecar(space);
});

afterAll(async () => {
  await sidecar?.stop();
});

afterEach(async () => {
  await front?.close();
  front = undefined;
});

/** The sidecar through a fresh feed front, with one old entry in the feed (a live instance's history). */
async function upstream() {
  const up = sidecar!;
  front = await startFeedFront(up.origin);
  const apiPath = new URL(up.api).pathname;
  const from = `${front.url}${apiPath}`;
  front.entries.push({
    component: `${up.api}components/project-00001/component-001/`,
    translation: null,
    action: 2,
    timestamp: '2020-01-01T00:00:00Z',
  });
  return {
    from,
    front,
    api: up.api,
    /** A request to the sidecar itself (not through the front). */
    call: (path: string, method: string) => call(`${up.api}${path}`, method, undefined, AUTH),
  };
}

async function pullInto(
  from: string,
  out: string,
  extra: { full?: boolean; sweepEvery?: string } = {},
): Promise<Extract<PullReport, { ok: true }>> {
  const report = await pull(
    { from, outDir: out, http: { retries: 0 }, ...extra },
    defaultPullDeps(),
  );
  if (!report.ok)
    throw new Error(`the pull failed: ${report.message}\n${JSON.stringify(report.errors)}`);
  return report;
}

function content(out: string): Map<string, string> {
  const tree = readTree(out);
  tree.delete(RECORD_FILE);
  return tree;
}

function stamps(out: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const path of readdirSync(out, { recursive: true, encoding: 'utf8' })) {
    const info = statSync(join(out, path), { bigint: true });
    if (info.isFile() && path !== RECORD_FILE) files.set(path, `${info.ino}:${info.mtimeNs}`);
  }
  return files;
}

async function expectSameAsFull(from: string, out: string): Promise<void> {
  const fresh = join(tempDir(), 'full');
  await pullInto(from, fresh, { full: true });
  expect(content(out)).toEqual(content(fresh));
}

/** The component whose translation the feed names once deleted. */
const TRANSLATION = 'project-00007/component-002';
/** The component whose translation is deleted without a feed entry. */
const UNLISTED = 'project-00011/component-002';

describe('an incremental pull between sweeps, 48 projects upstream', () => {
  it('with nothing changed upstream makes at most 20 requests and rewrites no file', async () => {
    const up = await upstream();
    const out = join(tempDir(), 'mirror');
    await pullInto(up.from, out);
    const before = stamps(out);
    up.front.log.length = 0;

    const again = await pullInto(up.from, out);
    expect(up.front.log.length).toBeLessThanOrEqual(20);
    expect(again.requests).toBe(up.front.log.length);
    expect(again.swept).toBe(false);
    expect(again.kept).toBe(PROJECTS * COMPONENTS);
    expect(up.front.log.filter((url) => url.includes('/statistics/'))).toEqual([]);
    expect(stamps(out)).toEqual(before);
  });

  it('after one translation is deleted and the feed names its component, makes at most 40 + (components of its project) requests and writes what a full pull writes', async () => {
    const up = await upstream();
    const out = join(tempDir(), 'mirror');
    await pullInto(up.from, out);
    const component = readFileSync(
      join(out, `projects/${TRANSLATION.replace('/', '/components/')}.yaml`),
      'utf8',
    );
    const language = /^ {2}([a-zA-Z_@]+):\n/m.exec(
      component.split('translations:\n')[1] ?? '',
    )?.[1];
    expect(language).toBeDefined();
    expect((await up.call(`translations/${TRANSLATION}/${language}/`, 'DELETE')).status).toBe(204);
    up.front.record({
      component: `${up.api}components/${TRANSLATION}/`,
      translation: null,
      action: 2,
    });
    up.front.log.length = 0;

    const report = await pullInto(up.from, out);
    expect(up.front.log.length).toBeLessThanOrEqual(40 + COMPONENTS);
    expect(report.swept).toBe(false);
    expect(up.front.log).toContain(
      `${new URL(up.from).pathname}components/${TRANSLATION}/translations/`,
    );
    expect(
      readFileSync(join(out, `projects/${TRANSLATION.replace('/', '/components/')}.yaml`), 'utf8'),
    ).not.toContain(`\n  ${language}:\n`);
    await expectSameAsFull(up.from, out);
  });

  it('sweeps every Nth run as the record keeps it, catching what the feed did not list; an entry naming no component makes a run sweep', async () => {
    const up = await upstream();
    const out = join(tempDir(), 'mirror');
    await pullInto(up.from, out, { sweepEvery: '3' });
    // Deleted without a feed entry: only the statistics show it.
    const path = `projects/${UNLISTED.replace('/', '/components/')}.yaml`;
    const language = /^ {2}([a-zA-Z_@]+):\n/m.exec(
      readFileSync(join(out, path), 'utf8').split('translations:\n')[1] ?? '',
    )?.[1];
    expect((await up.call(`translations/${UNLISTED}/${language}/`, 'DELETE')).status).toBe(204);

    const first = await pullInto(up.from, out);
    const second = await pullInto(up.from, out);
    expect([first.swept, second.swept]).toEqual([false, false]);
    expect(readFileSync(join(out, path), 'utf8')).toContain(`\n  ${language}:\n`);
    const third = await pullInto(up.from, out);
    expect(third.swept).toBe(true);
    expect(readFileSync(join(out, path), 'utf8')).not.toContain(`\n  ${language}:\n`);
    await expectSameAsFull(up.from, out);

    const quiet = await pullInto(up.from, out);
    expect(quiet.swept).toBe(false);
    up.front.record({ component: null, translation: null, action: 19 });
    const placed = await pullInto(up.from, out);
    expect(placed.swept).toBe(true);
  });

  it('refuses a --sweep-every that is neither runs nor hours, naming the flag', async () => {
    const out = join(tempDir(), 'mirror');
    const run = await runCli('pull', [
      '--from',
      'http://127.0.0.1:9/api/',
      '--out',
      out,
      '--sweep-every',
      'weekly',
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('--sweep-every expects a number of runs (such as 12) or of hours');
    expect(run.stderr).toContain('"weekly"');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
