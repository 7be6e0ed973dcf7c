/**
 * Issue 25, item 2 on the other hosts: from 5.0 a chart at a language's prefix
 * (`/widget/<p>/-/<l>/multi-auto.svg`, `/widget/<p>/<c>/<l>/…`) is that language's own chart, a
 * file of the tree. Netlify (at the root and under a base path), Cloudflare Pages, the CloudFront
 * Function and the real `npx serve` with the build's serve.json serve that file, where they
 * answered the project's or component's chart before; a "2026.8" tree keeps its aliases.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderCloudflareRedirects } from '../../src/hosts/cloudflare.ts';
import { renderCloudFrontFunction } from '../../src/hosts/cloudfront.ts';
import { renderNetlifyRedirects } from '../../src/hosts/netlify.ts';
import { buildInMemory, FIXTURES, tempDir, testSettings } from '../helpers.ts';
import { buildFor, freePort, get, startServer, type Started } from '../e2e/servers.ts';
import { netlifyFileFor } from '../support/netlify-rules.ts';

const CONTENT = join(FIXTURES, 'release-5.10/content');
/** A chart in the widget folder of a project's language or of a translation. */
const LANGUAGE_CHART = /^widget\/[^/]+\/[^/]+\/[^/]+\/(multi|horizontal)-[a-z]+\.svg$/;

async function languageCharts(baseUrl: string) {
  const built = await buildInMemory(CONTENT, { baseUrl, pages: true });
  expect(built.report.errors).toEqual([]);
  const charts = [...built.files.keys()].filter((file) => LANGUAGE_CHART.test(file));
  expect(charts).toContain('widget/hello/-/cs/multi-auto.svg');
  expect(charts).toContain('widget/hello/app/de/multi-auto.svg');
  return { files: new Map(built.files), charts };
}

describe.each([
  ['at the root', 'https://l10n.example.org', ''],
  ['under /mirror', 'https://l10n.example.org/mirror', '/mirror'],
])('a 5.10 tree %s', (_, baseUrl, base) => {
  const settings = testSettings({ baseUrl, weblateVersion: '5.10', pages: true });

  it.each([
    ['Netlify', renderNetlifyRedirects, false],
    ['Cloudflare Pages', renderCloudflareRedirects, true],
  ] as const)(
    'on %s answers each chart at a language prefix with its own file',
    async (__, render, rulesFirst) => {
      const { files, charts } = await languageCharts(baseUrl);
      files.set('_redirects', render(settings));
      const wrong = charts.filter(
        (file) => netlifyFileFor(files, `${base}/${file}`, { rulesFirst }).file !== file,
      );
      expect(wrong).toEqual([]);
    },
  );

  it('through the CloudFront Function keeps each chart at a language prefix as its own key', async () => {
    const { charts } = await languageCharts(baseUrl);
    const handler = runInNewContext(`${renderCloudFrontFunction(settings)}\nhandler;`, {}) as (
      event: unknown,
    ) => { uri: string };
    const keyOf = (uri: string) =>
      handler({
        version: '1.0',
        context: { eventType: 'viewer-request' },
        viewer: { ip: '127.0.0.1' },
        request: { method: 'GET', uri, querystring: {}, headers: {}, cookies: {} },
      }).uri;
    const wrong = charts.filter((file) => keyOf(`${base}/${file}`) !== `${base}/${file}`);
    expect(wrong).toEqual([]);
    // The flavour "2026.8" draws no chart of a language's own: the project's answers there.
    const legacy = testSettings({ baseUrl, weblateVersion: '2026.8', pages: true });
    const legacyHandler = runInNewContext(`${renderCloudFrontFunction(legacy)}\nhandler;`, {});
    expect(
      legacyHandler({
        version: '1.0',
        context: { eventType: 'viewer-request' },
        viewer: { ip: '127.0.0.1' },
        request: {
          method: 'GET',
          uri: `${base}/widget/hello/-/cs/multi-auto.svg`,
          querystring: {},
          headers: {},
          cookies: {},
        },
      }).uri,
    ).toBe(`${base}/widget/hello/multi-auto.svg`);
  });
});

describe('npx serve with the serve.json of a 5.10 tree under /mirror', () => {
  const out = join(tempDir('wsnap-language-chart-serve-'), 'dist');
  let origin = '';
  let server: Started | undefined;

  beforeAll(async () => {
    const port = await freePort();
    origin = (await buildFor(CONTENT, port, out)).origin;
    const cli = join(
      dirname(createRequire(import.meta.url).resolve('serve/package.json')),
      'build/main.js',
    );
    const args = [
      cli,
      out,
      '--listen',
      `tcp://127.0.0.1:${port}`,
      '--no-clipboard',
      '--no-port-switching',
    ];
    server = await startServer(process.execPath, args, `${origin}/`);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers a chart at a language prefix with that language’s chart', async () => {
    for (const file of [
      'widget/hello/-/cs/multi-auto.svg',
      'widget/hello/app/de/horizontal-red.svg',
    ]) {
      const served = await get(`${origin}/mirror/${file}`);
      expect(served.status, file).toBe(200);
      expect(served.text, file).toBe(readFileSync(join(out, file), 'utf8'));
    }
    const project = await get(`${origin}/mirror/widget/hello/multi-auto.svg`);
    expect(project.text).toBe(readFileSync(join(out, 'widget/hello/multi-auto.svg'), 'utf8'));
  });
});
