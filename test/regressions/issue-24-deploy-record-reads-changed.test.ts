/**
 * Issue 24: a deploy after one counter changed read the whole deploy record and compared every
 * group of the manifest with it, so at 100,000 translations twenty objects took seconds. A deploy
 * that ends in line with the manifest now marks where the manifest stood; the next one reads only
 * the groups the manifest changed since (its `groupsRead` figure), finding their lines in the
 * record by bisection, and still publishes exactly the tree. Against s3rver on loopback.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeSyntheticContent } from '../../bench/synthetic.ts';
import { bumpFirstCounter } from '../../bench/processes.ts';
import { buildDirectory } from '../../src/build.ts';
import { deploy, type DeployReport } from '../../src/deploy/deploy.ts';
import { s3Store } from '../../src/deploy/s3.ts';
import { isPublished } from '../../src/hosts/published.ts';
import { checkedLine } from '../../src/tree/journal.ts';
import { readTree, tempDir } from '../helpers.ts';
import { listBucket, useLocalS3 } from '../support/s3-proxy.ts';

const BUCKET = 'record';
const servers = useLocalS3(BUCKET);

/** What a deploy after one counter changed reads and sends at most (every group is well above it). */
const CHANGED = 40;

/** A synthetic instance of 3 projects, built, with a rebuild after a counter of one component changed. */
async function built() {
  const dir = tempDir();
  const content = join(dir, 'content');
  const out = join(dir, 'dist');
  // No status site: the groups of the API alone are more than twice the bound above.
  await writeSyntheticContent(content, { projects: 3, components: 3, languages: 3, pages: false });
  const build = async (full = false) =>
    expect((await buildDirectory({ contentDir: content, outDir: out, full })).errors).toEqual([]);
  await build();
  const component = join(content, 'projects/project-00002/components/component-002.yaml');
  const changeCounter = async () => {
    writeFileSync(component, bumpFirstCounter(readFileSync(component, 'utf8')));
    await build();
  };
  return { out, build, changeCounter };
}

function run(out: string, prefix: string): Promise<DeployReport> {
  const endpoint = servers.proxy.url;
  return deploy(
    {
      outDir: out,
      target: { bucket: BUCKET, prefix, endpoint },
      cacheControl: 'public, max-age=60',
      concurrency: 4,
      retries: 0,
      allowBaseUrl: true,
    },
    {
      store: () => s3Store({ bucket: BUCKET, endpoint, region: null }),
      sleep: async () => undefined,
      random: () => 0.5,
    },
  );
}

/** The bucket holds the tree's published files, byte for byte (ETags are MD5s), and nothing else. */
async function expectBucketHoldsTree(out: string, prefix: string): Promise<void> {
  const expected = new Map<string, string>();
  for (const path of readTree(out).keys())
    if (isPublished(path))
      expected.set(
        `${prefix}/${path}`,
        createHash('md5')
          .update(readFileSync(join(out, path)))
          .digest('hex'),
      );
  const listed = await listBucket(servers.s3.url, BUCKET, `${prefix}/`);
  expect(new Map([...listed].map(([key, etag]) => [key, etag.replace(/"/g, '')]))).toEqual(
    expected,
  );
}

function recordFile(out: string): string {
  const state = `${out}.state`;
  return join(
    state,
    readdirSync(state).find((name) => name.startsWith('deploy-'))!,
  );
}

describe('deploy after one counter changed: the record read for what changed only', () => {
  it('reads the record entries of the changed groups only, and publishes exactly the tree', async () => {
    const { out, changeCounter } = await built();
    const first = await run(out, 'changed');
    expect(first.ok).toBe(true);
    const groups = first.groupsRead;
    expect(groups).toBeGreaterThan(2 * CHANGED);

    await changeCounter();
    const refresh = await run(out, 'changed');
    expect(refresh).toMatchObject({ ok: true, deleted: 0 });
    expect(refresh.uploaded).toBeGreaterThan(0);
    expect(refresh.uploaded).toBeLessThanOrEqual(CHANGED);
    expect(refresh.groupsRead).toBeGreaterThan(0);
    expect(refresh.groupsRead).toBeLessThanOrEqual(CHANGED);
    expect(refresh.unchangedGroups + refresh.groupsRead).toBeGreaterThanOrEqual(groups);
    await expectBucketHoldsTree(out, 'changed');

    // Nothing changed since: nothing read, nothing sent.
    expect(await run(out, 'changed')).toMatchObject({ ok: true, uploaded: 0, groupsRead: 0 });
  });

  it('reads everything again once the manifest was written whole since the last deploy', async () => {
    const { out, build, changeCounter } = await built();
    const first = await run(out, 'whole');
    expect(first.ok).toBe(true);
    // Lines appended to the manifest, deployed, then the manifest written whole without them.
    await changeCounter();
    expect((await run(out, 'whole')).groupsRead).toBeLessThanOrEqual(CHANGED);
    await build(true);
    const again = await run(out, 'whole');
    expect(again).toMatchObject({ ok: true, uploaded: 0 });
    expect(again.groupsRead).toBe(first.groupsRead);
  });

  it('reads a record of version 2 whole, then writes it as version 3 and reads only what changed', async () => {
    const { out, changeCounter } = await built();
    const first = await run(out, 'earlier');
    expect(first.ok).toBe(true);
    const file = recordFile(out);
    writeFileSync(file, asVersion2(readFileSync(file, 'utf8')));
    await changeCounter();
    const converted = await run(out, 'earlier');
    expect(converted).toMatchObject({ ok: true });
    expect(converted.uploaded).toBeLessThanOrEqual(CHANGED);
    expect(converted.groupsRead).toBe(first.groupsRead);
    expect(readFileSync(file, 'utf8')).toMatch(/^\S+ weblate-snapshot deploy record 3\t/);
    await changeCounter();
    const refresh = await run(out, 'earlier');
    expect(refresh.groupsRead).toBeLessThanOrEqual(CHANGED);
    await expectBucketHoldsTree(out, 'earlier');
  });

  it('reads everything after a deploy cut short, which leaves no mark, and sends only the rest', async () => {
    const { out, changeCounter } = await built();
    const first = await run(out, 'cut');
    expect(first.ok).toBe(true);
    await changeCounter();
    let puts = 0;
    servers.proxy.fault = ({ method }) =>
      method === 'PUT' && ++puts === 3 ? { status: 403, code: 'AccessDenied' } : null;
    try {
      expect((await run(out, 'cut')).ok).toBe(false);
    } finally {
      servers.proxy.fault = null;
    }
    const resumed = await run(out, 'cut');
    expect(resumed.ok).toBe(true);
    expect(resumed.groupsRead).toBe(first.groupsRead);
    expect(resumed.uploaded).toBeGreaterThan(0);
    expect(resumed.uploaded).toBeLessThanOrEqual(CHANGED);
    await expectBucketHoldsTree(out, 'cut');
    expect((await run(out, 'cut')).groupsRead).toBe(0);
  });

  it('sends everything again when a line it looks up fails its check, as for any damaged record', async () => {
    const { out, changeCounter } = await built();
    const first = await run(out, 'damaged');
    await changeCounter();
    const file = recordFile(out);
    const text = readFileSync(file, 'utf8');
    // The changed component's statistics: a line the next deploy finds by bisection.
    const key = ' /api/components/project-00002/component-002/statistics/\t';
    const at = text.indexOf(key);
    expect(at).toBeGreaterThan(0);
    const end = text.indexOf('\n', at);
    const flipped = text[end - 1] === 'A' ? 'B' : 'A';
    writeFileSync(file, `${text.slice(0, end - 1)}${flipped}${text.slice(end)}`);
    const refresh = await run(out, 'damaged');
    expect(refresh).toMatchObject({ ok: true, uploaded: first.uploaded });
    await expectBucketHoldsTree(out, 'damaged');
  });
});

/** A record of version 3 as version 2 wrote it: the old header, lines as written, no marks. */
function asVersion2(text: string): string {
  const [header = '', ...lines] = text.split('\n');
  const value = JSON.parse(header.slice(header.indexOf('\t') + 1)) as { sorted?: unknown };
  delete value.sorted;
  return (
    checkedLine(`weblate-snapshot deploy record 2\t${JSON.stringify(value)}`) +
    lines
      .filter((line) => line && !line.slice(9).startsWith('= '))
      .map((line) => `${line}\n`)
      .join('')
  );
}
