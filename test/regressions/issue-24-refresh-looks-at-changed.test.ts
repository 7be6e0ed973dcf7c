/**
 * Issue 24: a refresh of the store target costs what changed. A publish of
 * content that left the target in line with the build cache's model says so
 * in the state; the next run, from a fresh checkout with one counter changed,
 * looks only at the groups the changed component file can reach (their
 * record lines found by bisection), not at every group of the model nor at
 * every page of a list of all translations whose length held, and the
 * bucket still equals a fresh full publish byte for byte. A run cut short
 * does not say so, and the run after it compares every group and sends the
 * rest; a list that lost a page has its last page deleted.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bumpFirstCounter, firstComponent } from '../../bench/processes.ts';
import { writeSyntheticContent } from '../../bench/synthetic.ts';
import { s3Store } from '../../src/deploy/s3.ts';
import { FIXTURES, tempDir } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';
import { readStateFiles } from '../support/state-files.ts';
import { readBucket, TEST_AWS_ENV, useLocalS3 } from '../support/s3-proxy.ts';

const BUCKET = 'refresh-changed';
const APP = 'projects/alpha/components/strings.yaml';
const STATE = '.weblate-snapshot/state';
const servers = useLocalS3(BUCKET);

/** A fresh copy of `content` (or of the features fixture), as a new checkout has it. */
function checkout(content = join(FIXTURES, 'features/content')): string {
  const copy = join(tempDir(), 'content');
  cpSync(content, copy, { recursive: true });
  return copy;
}

function changeCounter(content: string, from: number, to: number): void {
  const file = join(content, APP);
  const text = readFileSync(file, 'utf8');
  expect(text).toContain(`translated: ${from}\n`);
  writeFileSync(file, text.replace(`translated: ${from}\n`, `translated: ${to}\n`));
}

const publish = (prefix: string, content: string, flags: string[] = []) =>
  runCli(
    'deploy',
    [
      ...['--content', content, '--to', `s3://${BUCKET}/${prefix}`],
      ...['--endpoint', servers.proxy.url, ...flags],
    ],
    { env: TEST_AWS_ENV },
  );

async function objectsUnder(prefix: string) {
  const objects = await readBucket(servers.s3.url, BUCKET, `${prefix}/`);
  return Object.fromEntries(
    [...objects]
      .filter(([key]) => !key.includes('/.weblate-snapshot/'))
      .map(([key, object]) => [key.slice(prefix.length + 1), object]),
  );
}

/** The groups the deploy record in the state at `prefix` holds (one line each after the header, as written whole). */
async function recordedGroups(prefix: string): Promise<number> {
  const store = s3Store({ bucket: BUCKET, endpoint: servers.s3.url, region: null });
  try {
    const { files } = await readStateFiles(store, `${prefix}/${STATE}`);
    const record = files.get('deploy-record')!.toString('utf8');
    return record.split('\n').filter((line) => line !== '').length - 1;
  } finally {
    store.close();
  }
}

function unchangedGroups(stdout: string): number {
  const match = /, (\d+) groups? unchanged\.\n$/.exec(stdout);
  expect(match, stdout).not.toBeNull();
  return Number(match![1]);
}

describe('deploy --content: a refresh looks at what changed', () => {
  it('after one counter changed, compares only the groups it can reach, and the bucket equals a fresh full publish', async () => {
    expect((await publish('site', checkout())).code).toBe(0);
    const groups = await recordedGroups('site');

    const content = checkout();
    changeCounter(content, 4, 3);
    const refresh = await publish('site', content);
    expect(refresh.stderr).toBe('');
    expect(refresh.code).toBe(0);
    expect(refresh.stdout).toMatch(/: [1-9]\d* files? uploaded/);
    // Looking at every group, all but the few changed would be counted unchanged.
    expect(unchangedGroups(refresh.stdout)).toBeLessThan(groups / 2);

    expect((await publish('fresh', content)).code).toBe(0);
    expect(await objectsUnder('site')).toEqual(await objectsUnder('fresh'));
  });

  it('after a run cut short, compares every group again and sends the rest', async () => {
    expect((await publish('cut', checkout())).code).toBe(0);
    const groups = await recordedGroups('cut');

    const content = checkout();
    changeCounter(content, 4, 3);
    // Every upload but the state's is refused: nothing of the change reaches the bucket.
    servers.proxy.fault = ({ method, url }) =>
      method === 'PUT' && !url.includes(STATE) ? { status: 403, code: 'AccessDenied' } : null;
    const cut = await publish('cut', content);
    expect(cut.code).toBe(1);
    servers.proxy.fault = null;

    const next = await publish('cut', checkout(content));
    expect(next.stderr).toBe('');
    expect(next.code).toBe(0);
    expect(unchangedGroups(next.stdout)).toBeGreaterThan(groups / 2);
    expect((await publish('cut-fresh', content)).code).toBe(0);
    expect(await objectsUnder('cut')).toEqual(await objectsUnder('cut-fresh'));
  });

  it('compares only the pages of the list of all translations that hold the changed component', async () => {
    // 2 × 5 components of 11 translations: 110, in 22 pages of 5 or in one of 1,000. Without the
    // status site, which is not what this case checks: its files only made each publish longer.
    const pristine = join(tempDir(), 'content');
    const scale = { projects: 2, components: 5, languages: 10, pages: false };
    await writeSyntheticContent(pristine, scale);
    const unchanged: number[] = [];
    for (const size of ['5', '1000']) {
      const prefix = `pages-${size}`;
      const flags = ['--page-size', size];
      expect((await publish(prefix, checkout(pristine), flags)).code).toBe(0);
      const content = checkout(pristine);
      const component = firstComponent(content);
      writeFileSync(component, bumpFirstCounter(readFileSync(component, 'utf8')));
      const refresh = await publish(prefix, content, flags);
      expect(refresh.code).toBe(0);
      unchanged.push(unchangedGroups(refresh.stdout));
      expect((await publish(`${prefix}-fresh`, content, flags)).code).toBe(0);
      expect(await objectsUnder(prefix)).toEqual(await objectsUnder(`${prefix}-fresh`));
    }
    // Smaller pages add pages of the changed component's own lists (15 more groups); looking at
    // every page of the list of all translations would add 13 more.
    expect(unchanged[0]! - unchanged[1]!).toBeLessThan(21);
  });

  it('deletes the page a shorter list no longer has, as a fresh full publish leaves it', async () => {
    const pristine = checkout();
    mkdirSync(join(pristine, 'projects/gamma'));
    writeFileSync(join(pristine, 'projects/gamma/project.yaml'), 'name: Gamma\nid: 3\n');
    const app = join(pristine, APP);
    writeFileSync(
      app,
      readFileSync(app, 'utf8').replace('links: [beta]\n', 'links: [beta, gamma]\n'),
    );
    const flags = ['--page-size', '1'];
    expect((await publish('links', pristine, flags)).code).toBe(0);
    const secondPage = 'api/components/alpha/strings/links/~page/2/index.json';
    expect(Object.keys(await objectsUnder('links'))).toContain(secondPage);

    const content = checkout(pristine);
    const shorter = join(content, APP);
    writeFileSync(
      shorter,
      readFileSync(shorter, 'utf8').replace('links: [beta, gamma]\n', 'links: [beta]\n'),
    );
    const refresh = await publish('links', content, flags);
    expect(refresh.code).toBe(0);
    expect(refresh.stdout).toMatch(/, [1-9]\d* keys? deleted/);
    expect((await publish('links-fresh', content, flags)).code).toBe(0);
    expect(await objectsUnder('links')).toEqual(await objectsUnder('links-fresh'));
    expect(Object.keys(await objectsUnder('links'))).not.toContain(secondPage);
  });
});
