/**
 * Issue 26, item 4 (404 pages on every host): S3 website hosting and CloudFront serve `404.html`
 * with the Content-Type stored with it. With the status site on, that file is now the site's
 * HTML page, and `npm run deploy` must store it as HTML (it stored it as JSON, by its name),
 * with the API's JSON 404 beside the API as JSON. Deployed to a real S3-protocol server on
 * loopback, from a tree on disk and from a content folder with no tree.
 */
import { appendFileSync, cpSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDirectory } from '../../src/build.ts';
import { deploy, type DeployOptions } from '../../src/deploy/deploy.ts';
import { publishContent } from '../../src/deploy/publish.ts';
import { s3Store } from '../../src/deploy/s3.ts';
import { FIXTURES, tempDir } from '../helpers.ts';
import { readBucket, useLocalS3 } from '../support/s3-proxy.ts';

const BUCKET = 'notfound';
const servers = useLocalS3(BUCKET);

/** The minimal fixture (the status site on, as its base URL is its web URL) copied for a test. */
function content(): string {
  const dir = join(tempDir('wsnap-404-deploy-'), 'content');
  cpSync(join(FIXTURES, 'minimal/content'), dir, { recursive: true });
  appendFileSync(join(dir, 'site.yaml'), 'title: Example translations\n');
  return dir;
}

const options = (prefix: string): Omit<DeployOptions, 'outDir'> => ({
  target: { bucket: BUCKET, prefix, endpoint: servers.proxy.url },
  cacheControl: 'public, max-age=60',
  concurrency: 4,
  retries: 0,
});

const deps = () => ({
  store: () => s3Store({ bucket: BUCKET, endpoint: servers.proxy.url, region: null }),
  sleep: async () => undefined,
  random: () => 0.5,
  backoff: { backoffMs: 1, maxBackoffMs: 2 },
});

/** The two 404 pages as the bucket holds them under `prefix`. */
async function notFoundObjects(prefix: string) {
  const objects = await readBucket(servers.s3.url, BUCKET, `${prefix}/`);
  const page = objects.get(`${prefix}/404.html`)!;
  const api = objects.get(`${prefix}/api/404.html`)!;
  expect(page.body).toContain('<title>Page not found · Example translations</title>');
  expect(api.body).toBe('{"detail":"Not found."}\n');
  return [page.contentType, api.contentType];
}

describe("npm run deploy of a tree with the status site's 404 page", () => {
  it('stores 404.html as HTML and api/404.html as JSON', async () => {
    const out = join(tempDir('wsnap-404-deploy-'), 'dist');
    expect((await buildDirectory({ contentDir: content(), outDir: out })).errors).toEqual([]);
    const report = await deploy({ outDir: out, ...options('tree') }, deps());
    expect(report.ok).toBe(true);
    expect(await notFoundObjects('tree')).toEqual(['text/html; charset=utf-8', 'application/json']);
  });

  it('stores them so from a content folder with no tree too', async () => {
    const report = await publishContent(
      {
        contentDir: content(),
        state: { bucket: BUCKET, key: 'content/.weblate-snapshot/state' },
        waitMs: 0,
        ...options('content'),
      },
      {
        ...deps(),
        stateStore: () => s3Store({ bucket: BUCKET, endpoint: servers.proxy.url, region: null }),
        now: Date.now,
      },
    );
    expect(report).toMatchObject({ ok: true });
    expect(await notFoundObjects('content')).toEqual([
      'text/html; charset=utf-8',
      'application/json',
    ]);
  });
});
