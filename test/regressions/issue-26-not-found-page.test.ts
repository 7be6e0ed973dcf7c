/**
 * Issue 26, item 4 (the 404): the preview's and the sidecar's HTML 404 under the site's paths was
 * an unstyled page with no way home. Now it is a page of the site: its stylesheet, the instance's
 * name, a link home, the pages' Content-Security-Policy; the API's JSON 404 stays as it was.
 */
import { appendFileSync, cpSync } from 'node:fs';
import { join } from 'node:path';
import { HtmlValidate } from 'html-validate';
import { afterEach, describe, expect, it } from 'vitest';
import { PAGE_POLICY } from '../../src/hosts/published.ts';
import { FIXTURES, scriptArgs, tempDir } from '../helpers.ts';
import { freePort, get, startServer, type Started } from '../e2e/servers.ts';
import { runScript } from '../support/run-script.ts';
import { startSidecar, workspace, type RunningSidecar } from '../sidecar/support.ts';

const running: (Started | RunningSidecar)[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.stop();
});

/** Checks the answers to a miss under the site's paths and under the API, `base` after `origin`. */
async function checkMisses(origin: string, base: string): Promise<void> {
  const miss = await get(`${origin}${base}/projects/nope/`);
  expect([miss.status, miss.headers.get('content-type')]).toEqual([
    404,
    'text/html; charset=utf-8',
  ]);
  expect(miss.headers.get('content-security-policy')).toBe(PAGE_POLICY);
  expect(miss.text).toContain(`<link rel="stylesheet" href="${base}/static/weblate-snapshot.css">`);
  expect(miss.text).toContain('<title>Page not found · Example translations</title>');
  expect(miss.text).toContain(`<a href="${base}/">Go to the home page</a>`);
  const report = await new HtmlValidate({ extends: ['html-validate:recommended'] }).validateString(
    miss.text,
  );
  expect(report.results.flatMap((result) => result.messages.map((m) => m.message))).toEqual([]);
  const api = await get(`${origin}${base}/api/projects/nope/`);
  expect([api.status, api.headers.get('content-type')]).toEqual([404, 'application/json']);
}

describe("a miss under the site's paths", () => {
  it('gets a page of the site from the preview', async () => {
    const dir = tempDir('wsnap-404-');
    const content = join(dir, 'content');
    cpSync(join(FIXTURES, 'minimal/content'), content, { recursive: true });
    appendFileSync(join(content, 'site.yaml'), 'title: Example translations\n');
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const out = join(dir, 'dist');
    const built = await runScript('build', [
      '--content',
      content,
      '--out',
      out,
      '--base-url',
      origin,
    ]);
    expect(built.code, built.stderr).toBe(0);
    running.push(
      await startServer(
        process.execPath,
        [...scriptArgs('serve'), '--out', out, '--port', String(port)],
        `${origin}/`,
      ),
    );
    await checkMisses(origin, '');
  });

  it('gets a page of the site from the sidecar', async () => {
    const space = workspace('minimal');
    appendFileSync(join(space.content, 'site.yaml'), 'title: Example translations\n');
    const sidecar = await startSidecar(space);
    running.push(sidecar);
    await checkMisses(sidecar.origin, new URL(sidecar.api).pathname.replace(/\/api\/$/, ''));
  });
});
