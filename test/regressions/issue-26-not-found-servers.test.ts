/**
 * Issue 26, item 4 (404 pages on every host), with real servers on 127.0.0.1: with the status
 * site on, nginx answered a missing page with nginx's own unstyled page and any other path with
 * the API's JSON; `npx serve` answered every miss with the JSON `404.html`; the preview and the
 * sidecar a path outside both the API and the site's paths with JSON. Now each answers the site's
 * 404 page (status 404, HTML, its title and a link home from the base URL's path) outside the
 * API, and nginx, the preview and the sidecar keep the API's JSON 404 under it. serve has one
 * 404 page for every miss, so under the API it sends the HTML page too, as Weblate answers a
 * path that names no route.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_POLICY } from '../../src/hosts/published.ts';
import { FIXTURES, scriptArgs, tempDir } from '../helpers.ts';
import {
  buildFor,
  freePort,
  get,
  nginxArgs,
  nginxMainConfig,
  startServer,
  type BuiltFixture,
  type Started,
} from '../e2e/servers.ts';
import { startSidecar, workspace, type RunningSidecar } from '../sidecar/support.ts';

const SERVE_CLI = join(
  dirname(createRequire(import.meta.url).resolve('serve/package.json')),
  'build/main.js',
);
const nginxFound = spawnSync('nginx', ['-v']).status === 0;
if (!nginxFound && !process.env.CI)
  console.warn('\n*** nginx is not installed: its 404 checks are SKIPPED. ***\n');

/** The tree of each flavour with the status site, and its base path. */
const TREES = [
  ['4.x at the root', 'minimal', [], ''],
  ['2026.8 under /mirror', 'current', ['--pages', 'on'], '/mirror'],
] as const;

/** The site's 404 page: status, type, title and the way home. */
async function expectSitePage(url: string, base: string, policy = true): Promise<void> {
  const miss = await get(url);
  expect([miss.status, miss.headers.get('content-type')], url).toEqual([
    404,
    'text/html; charset=utf-8',
  ]);
  expect(miss.text, url).toMatch(/<title>Page not found · [^<]+<\/title>/);
  expect(miss.text, url).toContain(`<a href="${base}/">Go to the home page</a>`);
  if (policy) expect(miss.headers.get('content-security-policy'), url).toBe(PAGE_POLICY);
}

/** The API's JSON 404, in the tree's flavour. */
async function expectApiJson(url: string): Promise<void> {
  const miss = await get(url);
  expect([miss.status, miss.headers.get('content-type')], url).toEqual([404, 'application/json']);
  expect(miss.text, url).toContain('"Not found."');
}

/** Starts a server, runs the checks against it, and stops it (the next test takes the same port). */
async function whileServing(
  command: string,
  args: string[],
  ready: string,
  check: () => Promise<void>,
) {
  const server: Started = await startServer(command, args, ready);
  try {
    await check();
  } finally {
    await server.stop();
  }
}

describe.each(TREES)('a tree of %s', (_, fixture, args, base) => {
  let built: BuiltFixture;
  const work = tempDir('wsnap-404-');
  beforeAll(async () => {
    built = await buildFor(
      join(FIXTURES, fixture, 'content'),
      await freePort(),
      join(work, 'dist'),
      [...args],
    );
  });

  it.runIf(nginxFound)(
    "is answered by nginx with the site's 404 page outside the API and JSON under it",
    async () => {
      const prefix = join(work, 'nginx');
      mkdirSync(join(prefix, 'temp'), { recursive: true });
      const conf = readFileSync(join(built.out, 'hosts/nginx/weblate-snapshot.conf'), 'utf8');
      writeFileSync(
        join(prefix, 'weblate-snapshot.conf'),
        conf.replace(/^( {4}root ).*;$/m, `$1${built.out};`),
      );
      writeFileSync(join(prefix, 'nginx.conf'), nginxMainConfig(prefix, ['weblate-snapshot.conf']));
      const origin = built.origin;
      await whileServing('nginx', nginxArgs(prefix), `${origin}/`, async () => {
        await expectSitePage(`${origin}${base}/projects/nope/`, base);
        await expectSitePage(`${origin}${base}/static/nope.css`, base);
        await expectSitePage(`${origin}${base}/nope`, base);
        await expectSitePage(`${origin}/elsewhere/`, base);
        await expectApiJson(`${origin}${base}/api/projects/nope/`);
        await expectApiJson(`${origin}${base}/api/nope/`);
      });
    },
  );

  it("is answered by npx serve with the site's 404 page for every miss", async () => {
    const origin = built.origin;
    const listen = `tcp://127.0.0.1:${new URL(origin).port}`;
    const cli = [SERVE_CLI, built.out, '--listen', listen, '--no-clipboard', '--no-port-switching'];
    await whileServing(process.execPath, cli, `${origin}/`, async () => {
      await expectSitePage(`${origin}${base}/projects/nope/`, base);
      await expectSitePage(`${origin}${base}/api/nope/`, base);
    });
  });

  it("is answered by the preview with the site's 404 page outside both the API and the site", async () => {
    const origin = built.origin;
    const preview = [...scriptArgs('serve'), '--out', built.out, '--port', new URL(origin).port];
    await whileServing(process.execPath, preview, `${origin}/`, async () => {
      await expectSitePage(`${origin}${base}/nope/`, base);
      await expectSitePage(`${origin}/elsewhere/`, base);
      await expectApiJson(`${origin}${base}/api/nope/`);
    });
  });
});

describe('the sidecar of a tree with the status site', () => {
  let sidecar: RunningSidecar;
  beforeAll(async () => {
    sidecar = await startSidecar(workspace('minimal'));
  });
  afterAll(async () => {
    await sidecar?.stop();
  });

  it("answers a path outside both the API and the site with the site's 404 page", async () => {
    await expectSitePage(`${sidecar.origin}/nope/`, '');
    await expectApiJson(`${sidecar.origin}/api/nope/`);
  });
});
