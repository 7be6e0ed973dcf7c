/**
 * Issue 26, item 4 (the hosts): no host sent a Content-Security-Policy with the status site's
 * pages. Now nginx, the serve CLI, the preview, Netlify and Cloudflare Pages (`_headers`) and the
 * CloudFront Function send the pages' policy with every page, and the API's answers stay as they
 * were. Real nginx, serve and preview processes on 127.0.0.1 over a built tree of each flavour.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { PAGE_POLICY } from '../../src/hosts/published.ts';
import { FIXTURES, scriptArgs, tempDir } from '../helpers.ts';
import {
  buildFor,
  freePort,
  get,
  startServer,
  type Started,
  startNginxForTree,
} from '../e2e/servers.ts';

const flavours = [
  ['4.x', 'minimal', [], '/projects/hello/'],
  ['2026.8, under /mirror', 'current', ['--pages', 'on'], '/mirror/projects/docs/guides/'],
] as const;

const SERVE_CLI = join(
  dirname(createRequire(import.meta.url).resolve('serve/package.json')),
  'build/main.js',
);

const servers: Started[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
});

async function built(fixture: string, args: readonly string[]) {
  const port = await freePort();
  const out = join(tempDir('wsnap-policy-'), 'dist');
  return { port, ...(await buildFor(join(FIXTURES, fixture, 'content'), port, out, [...args])) };
}

/** The policy a page, the stylesheet and the API root are answered with. */
async function policies(origin: string, page: string): Promise<(string | null)[]> {
  const base = page.startsWith('/mirror/') ? '/mirror' : '';
  const answers = await Promise.all(
    [`${base}/`, page, `${base}/static/weblate-snapshot.css`, `${base}/api/`].map((path) =>
      get(`${origin}${path}`),
    ),
  );
  expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
  return answers.map((answer) => answer.headers.get('content-security-policy'));
}

const SENT = [PAGE_POLICY, PAGE_POLICY, null, null];

describe.each(flavours)('the pages of a %s tree', (_, fixture, args, page) => {
  it.runIf(spawnSync('nginx', ['-v']).status === 0)('carry the policy through nginx', async () => {
    const site = await built(fixture, args);
    servers.push(await startNginxForTree(site.out, join(dirname(site.out), 'nginx'), site.origin));
    expect(await policies(site.origin, page)).toEqual(SENT);
  });

  it('carry the policy through the preview', async () => {
    const site = await built(fixture, args);
    const serve = [...scriptArgs('serve'), '--out', site.out, '--port', String(site.port)];
    servers.push(await startServer(process.execPath, serve, `${site.origin}/`));
    expect(await policies(site.origin, page)).toEqual(SENT);
  });

  it.runIf(fixture === 'minimal')('carry the policy through the serve CLI', async () => {
    const site = await built(fixture, args);
    const cli = [
      SERVE_CLI,
      site.out,
      '--listen',
      `tcp://127.0.0.1:${site.port}`,
      '--no-clipboard',
      '--no-port-switching',
    ];
    servers.push(await startServer(process.execPath, cli, `${site.origin}/`));
    const answer = await get(`${site.origin}${page}`);
    expect(answer.headers.get('content-security-policy')).toBe(PAGE_POLICY);
    const css = await get(`${site.origin}/static/weblate-snapshot.css`);
    expect(css.headers.get('content-security-policy')).toBeNull();
  });

  it('are given the policy by the _headers of Netlify and Cloudflare Pages', async () => {
    const site = await built(fixture, args);
    for (const file of ['hosts/netlify/_headers', 'hosts/cloudflare/_headers']) {
      const rules = rulesOf(readFileSync(join(site.out, file), 'utf8'));
      const base = page.startsWith('/mirror/') ? '/mirror' : '';
      for (const path of [`${base}/`, `${base}/projects/*`, `${base}/languages/*`])
        expect(rules.get(path), `${file} ${path}`).toContain(
          `Content-Security-Policy: ${PAGE_POLICY}`,
        );
      // The stylesheet, badges and API files are not pages.
      expect(rules.get(`${base}/static/*`) ?? []).not.toContain(
        `Content-Security-Policy: ${PAGE_POLICY}`,
      );
    }
  });

  it('are given the policy by the CloudFront Function, an HTML answer only', async () => {
    const site = await built(fixture, args);
    const source = readFileSync(join(site.out, 'hosts/cloudfront/function.js'), 'utf8');
    const handler = runInNewContext(`${source}\nhandler;`, {}) as (event: unknown) => any;
    const respond = (uri: string, type: string) =>
      handler({
        version: '1.0',
        context: { eventType: 'viewer-response' },
        viewer: { ip: '127.0.0.1' },
        request: { method: 'GET', uri, querystring: {}, headers: {}, cookies: {} },
        response: { statusCode: 200, headers: { 'content-type': { value: type } }, cookies: {} },
      }).headers['content-security-policy']?.value;
    expect(respond(`${page}index.html`, 'text/html; charset=utf-8')).toBe(PAGE_POLICY);
    expect(respond(page.replace(/projects\/.*/, 'api/index.json'), 'application/json')).toBe(
      undefined,
    );
  });
});

/** A `_headers` file as its rules: each path with its header lines. */
function rulesOf(text: string): Map<string, string[]> {
  const rules = new Map<string, string[]>();
  let current: string[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    if (!line.startsWith(' ')) rules.set(line, (current = rules.get(line) ?? []));
    else current.push(line.trim());
  }
  return rules;
}
