/**
 * Issue 24: the build cache travels in the store's state. A publish of
 * content (`deploy --content … --to s3://…`) leaves the model and the content
 * files' signatures in the state; the next run, from a fresh copy of the
 * content elsewhere (new times, new folder), reads only the component file
 * whose text changed and leaves the bucket as a fresh full publish would.
 * What the cache cannot vouch for (site.yaml changed) and a damaged cache
 * are read whole, the latter said.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { s3Store } from '../../src/deploy/s3.ts';
import { encodeStateBundle } from '../../src/deploy/state-bundle.ts';
import { changeCounter as changeCounterIn, useContentBucket } from '../support/content-bucket.ts';
import { readStateFiles } from '../support/state-files.ts';

const BUCKET = 'carries-cache';
const APP = 'projects/alpha/components/strings.yaml';
const STATE = '.weblate-snapshot/state';
const { servers, checkout, publish, objectsUnder } = useContentBucket(BUCKET);
const FROM_CACHE = 'the rest vouched for by the build cache in the state';

const changeCounter = (content: string) => changeCounterIn(content, APP);

const md5 = (body: Buffer) => createHash('md5').update(body).digest('base64');

const puts = (prefix: string) =>
  servers.proxy.log
    .filter((r) => r.method === 'PUT' && !r.url.includes(STATE))
    .map((r) => r.url.replace(new RegExp(`^/${BUCKET}/${prefix}/|\\?.*$`, 'g'), ''));

describe('deploy --content: the build cache in the state', () => {
  it('from a fresh checkout reads only the changed component file, and the bucket equals a fresh full publish', async () => {
    const first = await publish('site', checkout());
    expect(first.code).toBe(0);
    expect(first.stdout).not.toContain(FROM_CACHE);
    const before = await objectsUnder('site');

    const content = checkout();
    changeCounter(content);
    servers.proxy.log.length = 0;
    const second = await publish('site', content);
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`; 1 content file read, ${FROM_CACHE}`);
    const now = await objectsUnder('site');
    const changed = Object.keys(now).filter((key) => now[key]!.body !== before[key]?.body);
    expect(changed.length).toBeGreaterThan(0);
    expect(puts('site').sort()).toEqual(changed.sort());

    // A third run from yet another checkout, nothing changed: no content file read, nothing sent.
    servers.proxy.log.length = 0;
    const third = await publish('site', checkout(content));
    expect(third.stdout).toContain(`; 0 content files read, ${FROM_CACHE}`);
    expect(third.stdout).toContain(': 0 files uploaded');
    expect(puts('site')).toEqual([]);

    const fresh = await publish('fresh', content);
    expect(fresh.stdout).not.toContain(FROM_CACHE);
    expect(now).toEqual(await objectsUnder('fresh'));
  });

  it('reads all the content when site.yaml changed, as the cache cannot vouch for the model then', async () => {
    expect((await publish('settings', checkout())).code).toBe(0);
    const content = checkout();
    const site = join(content, 'site.yaml');
    writeFileSync(
      site,
      readFileSync(site, 'utf8').replace(/^base_url: .*$/m, 'base_url: https://moved.example.org'),
    );
    const run = await publish('settings', content, '--allow-base-url');
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain(FROM_CACHE);
    expect(await publish('settings-fresh', content)).toMatchObject({ code: 0 });
    expect(await objectsUnder('settings')).toEqual(await objectsUnder('settings-fresh'));
  });

  it('says a damaged cache in the state is not used, reads all the content, and mends it', async () => {
    const content = checkout();
    expect((await publish('damaged', content)).code).toBe(0);
    // The cache's last byte flipped inside a state whose own sizes and hashes still hold (of one
    // object, as earlier versions wrote it, which is still read).
    const key = `damaged/${STATE}`;
    const store = s3Store({ bucket: BUCKET, endpoint: servers.s3.url, region: null });
    const decoded = await readStateFiles(store, key);
    const cache = Buffer.from(decoded.files.get('build-cache')!);
    cache[cache.length - 1]! ^= 0xff;
    decoded.files.set('build-cache', cache);
    const body = await encodeStateBundle(decoded.target, decoded.files);
    await store.put(key, body, {
      contentType: 'application/octet-stream',
      cacheControl: null,
      md5: md5(body),
    });
    store.close();

    changeCounter(content);
    const run = await publish('damaged', content);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('Not using the build cache in the state: it is damaged');
    expect(run.stdout).not.toContain(FROM_CACHE);
    expect(await publish('damaged-fresh', content)).toMatchObject({ code: 0 });
    expect(await objectsUnder('damaged')).toEqual(await objectsUnder('damaged-fresh'));

    const next = await publish('damaged', checkout(content));
    expect(next.stderr).toBe('');
    expect(next.stdout).toContain(`; 0 content files read, ${FROM_CACHE}`);
  });

  it('reports the same warnings as a full open, naming the files of the checkout it runs on', async () => {
    const warned = checkout();
    const app = join(warned, APP);
    writeFileSync(app, readFileSync(app, 'utf8').replace('    failing_checks_words: 3\n', ''));
    const first = await publish('warned', warned);
    expect(first.stderr).toContain('expected failing_checks_words beside failing_checks');

    // Changed (the warning comes from the file read again), then unchanged (from the cache).
    const changed = checkout(warned);
    changeCounter(changed);
    const unchanged = checkout(changed);
    for (const content of [changed, unchanged]) {
      const run = await publish('warned', content);
      expect(run.stdout).toContain(FROM_CACHE);
      const full = await publish(`warned-full-${content === changed ? 1 : 2}`, content);
      expect(full.stdout).not.toContain(FROM_CACHE);
      expect(run.stderr).toContain(join(content, APP));
      // A fresh prefix has no state yet, which the full publish says first.
      expect(run.stderr).toBe(full.stderr.replace(/^Not using the state: .*\n/, ''));
    }
  });
});
