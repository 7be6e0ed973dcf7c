/**
 * Issue 26: from 5.10 Weblate has no stats exports: `/exports/stats/<p>/[<c>/]` gets its HTML 404
 * like any path it has no route for, with or without the slash (APPEND_SLASH finds no route to
 * add one for). A tree of such a release holds no export files, and the preview, nginx, the
 * CloudFront Function, Netlify, Cloudflare Pages and serve.json answer those paths as any other
 * missing page, with no rule of their own (rules count against the hosts' limits); a 4.x tree
 * keeps its exports on every host.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDirectory } from '../../src/build.ts';
import { renderCloudflareHeaders, renderCloudflareRedirects } from '../../src/hosts/cloudflare.ts';
import { renderCloudFrontFunction } from '../../src/hosts/cloudfront.ts';
import { renderNetlifyRedirects } from '../../src/hosts/netlify.ts';
import { renderNginxConfig } from '../../src/hosts/nginx.ts';
import { renderServeConfig } from '../../src/hosts/serve.ts';
import { startPreview } from '../../src/preview/preview.ts';
import type { Settings } from '../../src/model/types.ts';
import { buildInMemory, FIXTURES, tempDir, testSettings } from '../helpers.ts';
import { buildFor, freePort, get, startNginxForTree, type Started } from '../e2e/servers.ts';
import { netlifyFileFor } from '../support/netlify-rules.ts';

/** Export paths of the fixtures' project `hello` and its component `app`, as readers ask them. */
const ASKED = [
  '/exports/stats/hello',
  '/exports/stats/hello/',
  '/exports/stats/hello/?format=csv',
  '/exports/stats/hello/index.json',
  '/exports/stats/hello/index.csv',
  '/exports/stats/hello/app',
  '/exports/stats/hello/app/',
  '/exports/stats/hello/app/?format=csv',
];

const BASES = [
  ['at the root', 'https://l10n.example.org', ''],
  ['under /mirror', 'https://l10n.example.org/mirror', '/mirror'],
] as const;

/** Each host's own files, rendered for `settings`. */
function hostFiles(settings: Settings) {
  return {
    netlify: renderNetlifyRedirects(settings),
    cloudflare: renderCloudflareRedirects(settings),
    cloudflareHeaders: renderCloudflareHeaders(settings),
    serve: renderServeConfig(settings),
    nginx: renderNginxConfig(settings),
    cloudfront: renderCloudFrontFunction(settings),
  };
}

/**
 * The preview of the release's fixture built under `baseUrl`: each path's status and where a 301
 * sends it (a tree's answers are the preview's; the sidecar routes with the same code).
 */
async function previewAnswers(release: string, baseUrl: string, paths: readonly string[]) {
  const out = join(tempDir(), 'dist');
  const contentDir = join(FIXTURES, `release-${release}/content`);
  const built = await buildDirectory({
    contentDir,
    outDir: out,
    settings: { baseUrl, pages: true },
  });
  expect(built.errors).toEqual([]);
  const started = await startPreview({ outDir: out, port: 0 });
  if (!started.ok) throw new Error(started.message);
  const origin = new URL(started.preview.url).origin;
  try {
    const answers: Record<string, string> = {};
    for (const path of paths) {
      const answer = await fetch(`${origin}${path}`, { redirect: 'manual' });
      const type = answer.headers.get('content-type')?.split(';')[0];
      answers[path] =
        `${answer.status} ${answer.status === 301 ? answer.headers.get('location') : type}`;
      await answer.arrayBuffer();
    }
    return answers;
  } finally {
    await started.preview.close();
  }
}

/** The CloudFront Function's viewer request for a GET of `url`: the request it passes on, or its own answer. */
function viewerRequest(settings: Settings, url: string) {
  const handler = runInNewContext(`${renderCloudFrontFunction(settings)}\nhandler;`, {}) as (
    event: unknown,
  ) => { uri?: string; statusCode?: number };
  const { pathname, searchParams } = new URL(url, 'https://l10n.example.org');
  const querystring = Object.fromEntries([...searchParams].map(([k, value]) => [k, { value }]));
  return handler({
    version: '1.0',
    context: { eventType: 'viewer-request' },
    viewer: { ip: '127.0.0.1' },
    request: { method: 'GET', uri: pathname, querystring, headers: {}, cookies: {} },
  });
}

describe.each(BASES)('a 5.10 tree %s', (_, baseUrl, base) => {
  const settings = testSettings({ baseUrl, weblateVersion: '5.10', pages: true });

  it('holds no export files, and the preview answers every export path with the site’s 404', async () => {
    const built = await buildInMemory(join(FIXTURES, 'release-5.10/content'), {
      baseUrl,
      pages: true,
    });
    expect(built.report.errors).toEqual([]);
    expect([...built.files.keys()].filter((file) => file.startsWith('exports/'))).toEqual([]);
    const paths = ASKED.map((url) => `${base}${url}`);
    const answers = await previewAnswers('5.10', baseUrl, paths);
    expect(answers).toEqual(Object.fromEntries(paths.map((path) => [path, '404 text/html'])));
  });

  it('has no host rule for the exports, so each host answers them as any missing page', async () => {
    const files = hostFiles(settings);
    for (const [host, text] of Object.entries(files))
      expect(text.includes('exports/') || text.includes('exports\\/'), host).toBe(false);

    const built = await buildInMemory(join(FIXTURES, 'release-5.10/content'), {
      baseUrl,
      pages: true,
    });
    const netlify = new Map([...built.files, ['_redirects', files.netlify]]);
    const cloudflare = new Map([...built.files, ['_redirects', files.cloudflare]]);
    for (const url of ASKED) {
      expect(netlifyFileFor(netlify, `${base}${url}`), url).toEqual({ status: 404, file: null });
      expect(netlifyFileFor(cloudflare, `${base}${url}`, { rulesFirst: true }), url).toEqual({
        status: 404,
        file: null,
      });
      // The function leaves the path as asked: a key the bucket does not hold, the site's 404 page.
      expect(viewerRequest(settings, `${base}${url}`), url).toMatchObject({
        uri: `${base}${url.split('?')[0]}`,
      });
    }
  });
});

describe.each(BASES)('a 4.18 tree %s', (_, baseUrl, base) => {
  const settings = testSettings({ baseUrl, weblateVersion: '4.18', pages: true });

  it('keeps its exports on the preview and every host', async () => {
    const folder = `${base}/exports/stats/hello`;
    expect(await previewAnswers('4.18', baseUrl, [folder, `${folder}/`])).toEqual({
      [folder]: `301 ${folder}/`,
      [`${folder}/`]: '200 application/json',
    });
    for (const [host, text] of Object.entries(hostFiles(settings)))
      expect(/exports(\\)?\//.test(text), host).toBe(true);
    expect(viewerRequest(settings, `${base}/exports/stats/hello/app/?format=csv`)).toMatchObject({
      uri: `${base}/exports/stats/hello/app/index.csv`,
    });
  });
});

describe.runIf(spawnSync('nginx', ['-v']).status === 0 || process.env.CI)(
  'nginx of a 5.10 tree under /mirror',
  () => {
    const work = tempDir('wsnap-exports-nginx-');
    let origin = '';
    let server: Started | undefined;

    beforeAll(async () => {
      const out = join(work, 'dist');
      const built = await buildFor(join(FIXTURES, 'release-5.10/content'), await freePort(), out);
      origin = built.origin;
      server = await startNginxForTree(out, join(work, 'nginx'), origin);
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('answers every export path with the site’s 404, as the preview does', async () => {
      const answers: Record<string, string> = {};
      for (const url of ASKED) {
        const answer = await get(`${origin}/mirror${url}`, { redirect: 'manual' });
        answers[url] = `${answer.status} ${answer.headers.get('content-type')?.split(';')[0]}`;
      }
      expect(answers).toEqual(Object.fromEntries(ASKED.map((url) => [url, '404 text/html'])));
    });
  },
);
