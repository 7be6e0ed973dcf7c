/**
 * The status site's paths served by real processes on 127.0.0.1 from real
 * files: a fixture built with the status site on, plus a hand-made site in
 * its tree (test/support/status-site.ts: a page, badge, chart and export at every
 * kind of path of each flavour). The preview and the sidecar answer every
 * request as Weblate's URLs do (folders with and without the slash, charts
 * at a language's prefix, `?format=csv` with its file name, the 4.x widget
 * paths redirected in 2026.8, HTML 404s), and keep the API and its CORS
 * answers as they were; nginx answers the same from its generated
 * configuration, and the serve CLI what its serve.json lets it.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WeblateVersion } from '../../src/model/defaults.ts';
import { FIXTURES, readTree, scriptArgs, tempDir } from '../helpers.ts';
import { startSidecar, workspace, type RunningSidecar } from '../sidecar/support.ts';
import {
  builtStatusSiteCases,
  casesFor,
  checkServedStatusSite,
  statusSiteCases,
  writeStatusSite,
  type StatusSiteCase,
  type StatusSiteNeed,
} from '../support/status-site.ts';
import {
  buildFor,
  freePort,
  get,
  nginxArgs,
  nginxMainConfig,
  PREFLIGHT_REQUEST,
  startServer,
  type Started,
  startNginxForTree,
} from './servers.ts';

const EVERY_NEED: StatusSiteNeed[] = [
  'no-slash',
  'csv-query',
  'alias',
  'alias-look-first',
  'redirect',
  'folder',
  'disposition',
  'html-404',
];

const flavours = [
  ['4.x', '4', 'minimal', []],
  ['2026.8, under /mirror', '2026.8', 'current', ['--pages', 'on']],
] as const satisfies readonly (readonly [string, WeblateVersion, string, readonly string[]])[];

type StatusSite = Awaited<ReturnType<typeof buildStatusSite>>;

/** Builds a fixture for a loopback port with the status site on, and puts the hand-made site in its tree. */
async function buildStatusSite(fixture: string, version: WeblateVersion, args: readonly string[]) {
  const out = join(tempDir('wsnap-site-'), 'dist');
  const port = await freePort();
  const built = await buildFor(join(FIXTURES, fixture, 'content'), port, out, [...args]);
  writeStatusSite(out, version);
  return { ...built, port, base: built.tree.base };
}

const statusSites = new Map<string, Promise<StatusSite>>();

/**
 * The tree of `buildStatusSite` for a fixture, built once for the file: the preview, serve and
 * nginx each serve it in turn on its port (each stops before the next starts), and none writes
 * into it.
 */
function builtStatusSite(
  fixture: string,
  version: WeblateVersion,
  args: readonly string[],
): Promise<StatusSite> {
  if (!statusSites.has(fixture)) statusSites.set(fixture, buildStatusSite(fixture, version, args));
  return statusSites.get(fixture)!;
}

describe.each(flavours)(
  'the preview of a %s tree with the status site',
  (_, version, fixture, args) => {
    let site: StatusSite;
    let server: Started | undefined;
    beforeAll(async () => {
      site = await builtStatusSite(fixture, version, args);
      const serve = [...scriptArgs('serve'), '--out', site.out, '--port', String(site.port)];
      server = await startServer(process.execPath, serve, `${site.origin}${site.base}/api/`);
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('answers every request of the site as Weblate does, HTML 404s included', async () => {
      const checked = await checkServedStatusSite(site.origin, statusSiteCases(version), {
        base: site.base,
        disposition: true,
        html404: true,
      });
      expect(checked).toBe(statusSiteCases(version).length);
    });

    it('answers only GET and HEAD there, and no CORS: Weblate sends it under /api/ only', async () => {
      const page = `${site.origin}${site.base}/projects/demo/`;
      const head = await get(page, { method: 'HEAD' });
      expect([head.status, head.text, head.headers.get('content-type')]).toEqual([
        200,
        '',
        'text/html; charset=utf-8',
      ]);
      expect(head.headers.get('access-control-allow-origin')).toBeNull();
      const post = await get(page, { method: 'POST', body: 'x' });
      expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
      const preflight = await get(page, { method: 'OPTIONS', headers: PREFLIGHT_REQUEST });
      expect(preflight.status).toBe(405);
    });

    it("keeps the API's JSON 404, and answers a path outside both with the site's 404 page", async () => {
      const api = await get(`${site.origin}${site.base}/api/projects/nope/`);
      expect([
        api.status,
        api.headers.get('content-type'),
        api.headers.get('access-control-allow-origin'),
      ]).toEqual([404, 'application/json', '*']);
      const elsewhere = await get(`${site.origin}${site.base}/elsewhere/`);
      expect([elsewhere.status, elsewhere.headers.get('content-type')]).toEqual([
        404,
        'text/html; charset=utf-8',
      ]);
    });
  },
);

describe.each(flavours)(
  'the sidecar of a %s tree with the status site',
  (_, version, fixture, args) => {
    const space = workspace(fixture);
    let sidecar: RunningSidecar;
    let base: string;
    beforeAll(async () => {
      sidecar = await startSidecar(space, { args: [...args] });
      base = new URL(sidecar.api).pathname.replace(/\/api\/$/, '');
      writeStatusSite(space.out, version);
    });
    afterAll(async () => sidecar.stop());

    it('answers every request of the site as Weblate does, HTML 404s included', async () => {
      const checked = await checkServedStatusSite(sidecar.origin, statusSiteCases(version), {
        base,
        disposition: true,
        html404: true,
      });
      expect(checked).toBe(statusSiteCases(version).length);
    });

    it('refuses writes to the site and keeps the API answering', async () => {
      const post = await get(`${sidecar.origin}${base}/`, { method: 'PUT', body: 'x' });
      expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
      expect((await get(sidecar.api)).status).toBe(200);
    });
  },
);

const SERVE_CLI = join(
  dirname(createRequire(import.meta.url).resolve('serve/package.json')),
  'build/main.js',
);

describe.each(flavours)(
  'npx serve with the serve.json of a %s tree with the status site',
  (_, version, fixture, args) => {
    let site: StatusSite;
    let server: Started | undefined;
    // serve cannot map the query or set a header per file; its rewrites percent-encode @.
    const can: StatusSiteNeed[] = ['no-slash', 'alias', 'redirect', 'folder'];
    const cases = () => casesFor(version, can).filter((entry) => !entry.url.includes('@'));
    beforeAll(async () => {
      site = await builtStatusSite(fixture, version, args);
      const cli = [
        SERVE_CLI,
        site.out,
        '--listen',
        `tcp://127.0.0.1:${site.port}`,
        '--no-clipboard',
        '--no-port-switching',
      ];
      server = await startServer(process.execPath, cli, `${site.origin}/`);
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('answers what its rewrites, redirects and header rules can', async () => {
      expect(
        await checkServedStatusSite(site.origin, cases(), { base: site.base, html404: true }),
      ).toBe(cases().length);
    });

    it("serves the CSV only by its path, and the site's 404 page for any miss", async () => {
      const csv = await get(`${site.origin}${site.base}/exports/stats/demo/?format=csv`);
      expect(csv.headers.get('content-type')).toBe('application/json');
      // serve has one 404 page: under the API too, as Weblate answers a path that names no route.
      for (const path of ['/projects/nope/', '/api/nope/']) {
        const miss = await get(`${site.origin}${site.base}${path}`);
        expect([miss.status, miss.headers.get('content-type')]).toEqual([
          404,
          'text/html; charset=utf-8',
        ]);
        expect(miss.text).toContain('<title>Page not found');
      }
    });
  },
);

describe('npx serve at the root of a 2026.8 tree with the status site', () => {
  let origin: string;
  let server: Started | undefined;
  beforeAll(async () => {
    const out = join(tempDir('wsnap-site-'), 'dist');
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    await buildFor(join(FIXTURES, 'current/content'), port, out, [
      '--base-url',
      origin,
      '--pages',
      'on',
    ]);
    writeStatusSite(out, '2026.8');
    const cli = [
      SERVE_CLI,
      out,
      '--listen',
      `tcp://127.0.0.1:${port}`,
      '--no-clipboard',
      '--no-port-switching',
    ];
    server = await startServer(process.execPath, cli, `${origin}/`);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("serves a chart at the language of a component outside categories, not one inside (serve's rewrites chain)", async () => {
    const [outside, inside] = casesFor('2026.8', ['alias-look-first']).filter((entry) =>
      entry.needs.includes('alias-look-first'),
    );
    expect(await checkServedStatusSite(origin, [outside!], { base: '' })).toBe(1);
    expect((await get(`${origin}${inside!.url}`)).status).toBe(404);
    // The component's own chart inside categories keeps its file.
    expect((await get(`${origin}/widget/demo/docs/guides/manual/horizontal-blue.svg`)).status).toBe(
      200,
    );
  });
});

const nginxFound = spawnSync('nginx', ['-v']).status === 0;

describe.runIf(nginxFound).each(flavours)(
  'nginx serving a %s tree with the status site',
  (_, version, fixture, args) => {
    let site: StatusSite;
    let server: Started | undefined;
    beforeAll(async () => {
      site = await builtStatusSite(fixture, version, args);
      server = await startNginxForTree(site.out, join(dirname(site.out), 'nginx'), site.origin);
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('answers every request of the site as Weblate does', async () => {
      const cases = casesFor(version, EVERY_NEED);
      expect(
        await checkServedStatusSite(site.origin, cases, {
          base: site.base,
          disposition: true,
          html404: true,
        }),
      ).toBe(cases.length);
    });

    it('keeps the API, its CORS and its preflight, and sends no CORS header with the site', async () => {
      const api = await get(`${site.origin}${site.base}/api/projects/nope/`);
      expect([api.status, api.headers.get('access-control-allow-origin')]).toEqual([404, '*']);
      const format = await get(`${site.origin}${site.base}/api/?format=csv`);
      expect([format.status, format.headers.get('content-type')]).toEqual([
        404,
        'application/json',
      ]);
      const preflight = await get(`${site.origin}${site.base}/api/`, {
        method: 'OPTIONS',
        headers: PREFLIGHT_REQUEST,
      });
      expect(preflight.status).toBe(200);
      const page = await get(`${site.origin}${site.base}/projects/demo/?format=xml`);
      expect([page.status, page.headers.get('access-control-allow-origin')]).toEqual([200, null]);
    });
  },
);

/** The requests for the status site the build wrote into a tree (no hand-made files), and its files' bytes. */
function builtCases(
  out: string,
  version: WeblateVersion,
): { cases: StatusSiteCase[]; read: (file: string) => string | undefined } {
  const files = readTree(out);
  return { cases: builtStatusSiteCases(files.keys(), version), read: (file) => files.get(file) };
}

describe.each(flavours)(
  'the status site the build writes for a %s tree, served for real',
  (_, version, fixture, args) => {
    let origin: string;
    let base: string;
    let out: string;
    const servers: Started[] = [];
    const sidecarSpace = workspace(fixture);
    let sidecar: RunningSidecar;
    beforeAll(async () => {
      out = join(tempDir('wsnap-built-site-'), 'dist');
      const port = await freePort();
      const built = await buildFor(join(FIXTURES, fixture, 'content'), port, out, [...args]);
      origin = built.origin;
      base = built.tree.base;
      const serve = [...scriptArgs('serve'), '--out', out, '--port', String(port)];
      servers.push(await startServer(process.execPath, serve, `${origin}${base}/api/`));
      sidecar = await startSidecar(sidecarSpace, { args: [...args] });
    });
    afterAll(async () => {
      for (const server of servers) await server.stop();
      await sidecar?.stop();
    });

    it('has the preview answer every page, badge, chart and export as Weblate does', async () => {
      const { cases, read } = builtCases(out, version);
      const count = (need: StatusSiteNeed) =>
        cases.filter((entry) => entry.needs.includes(need)).length;
      expect(cases.length).toBeGreaterThan(version === '4' ? 60 : 200);
      expect([count('alias') > 0, count('csv-query') > 0, count('no-slash') > 0]).toEqual([
        true,
        true,
        true,
      ]);
      if (version !== '4')
        expect([count('redirect') > 0, count('alias-look-first') > 0]).toEqual([true, true]);
      expect(
        await checkServedStatusSite(origin, cases, {
          base,
          disposition: true,
          html404: true,
          read,
        }),
      ).toBe(cases.length);
    });

    it('has the sidecar answer them from the tree it keeps', async () => {
      const { cases, read } = builtCases(sidecarSpace.out, version);
      const sidecarBase = new URL(sidecar.api).pathname.replace(/\/api\/$/, '');
      expect(
        await checkServedStatusSite(sidecar.origin, cases, {
          base: sidecarBase,
          disposition: true,
          html404: true,
          read,
        }),
      ).toBe(cases.length);
    });

    it.runIf(nginxFound)(
      'has nginx answer them with the configuration the build wrote',
      async () => {
        const port = await freePort();
        const prefix = join(dirname(out), 'nginx');
        mkdirSync(join(prefix, 'temp'), { recursive: true });
        const generated = readFileSync(join(out, 'hosts/nginx/weblate-snapshot.conf'), 'utf8')
          .replace(/^( {4}root ).*;$/m, `$1${out};`)
          .replace(/^( {4}listen ).*;$/m, `$1127.0.0.1:${port};`);
        writeFileSync(join(prefix, 'weblate-snapshot.conf'), generated);
        writeFileSync(
          join(prefix, 'nginx.conf'),
          nginxMainConfig(prefix, ['weblate-snapshot.conf']),
        );
        servers.push(await startServer('nginx', nginxArgs(prefix), `http://127.0.0.1:${port}/`));
        const { cases, read } = builtCases(out, version);
        const checked = await checkServedStatusSite(`http://127.0.0.1:${port}`, cases, {
          base,
          disposition: true,
          html404: true,
          read,
        });
        expect(checked).toBe(cases.length);
      },
    );
  },
);
