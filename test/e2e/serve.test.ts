/**
 * The real serve CLI (`npx serve dist`) with the serve.json the build wrote:
 * the CLI validates the file when it starts, then every resource must come
 * back as its file with JSON headers and its Allow. What serve cannot do is
 * checked too, as the hosting table in docs/hosting.md states it: a language
 * code with `@` fails through its rewrites (it percent-encodes the `@`), and
 * `?page=N` is ignored, and a preflight gets the file with the CORS header
 * alone.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, tempDir } from '../helpers.ts';
import { CURRENT_FIXTURE } from '../unit/hosts/tree.ts';
import {
  buildFor,
  checkEveryResource,
  freePort,
  get,
  PREFLIGHT_REQUEST,
  startServer,
  type BuiltFixture,
  type Started,
} from './servers.ts';

const SERVE_CLI = join(
  dirname(createRequire(import.meta.url).resolve('serve/package.json')),
  'build/main.js',
);

describe('npx serve with the generated serve.json', () => {
  const out = join(tempDir('wsnap-e2e-'), 'dist');
  let built: BuiltFixture;
  let server: Started | undefined;

  beforeAll(async () => {
    const port = await freePort();
    built = await buildFor(join(FIXTURES, 'features/content'), port, out);
    const args = [
      SERVE_CLI,
      out,
      '--listen',
      `tcp://127.0.0.1:${port}`,
      '--no-clipboard',
      '--no-port-switching',
    ];
    server = await startServer(process.execPath, args, `${built.origin}/`);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('serves every resource whose path has no @ as its file, with JSON headers and its Allow', async () => {
    const withAt = (path: string) => path.includes('@');
    const served = await checkEveryResource(built, { allow: true, skip: withAt });
    expect(served).toBe(
      3 * built.tree.resources.filter((resource) => !withAt(resource.path)).length,
    );
  });

  it('cannot serve a language code with @ through its rewrites, only by the file name', async () => {
    expect((await get(`${built.origin}${built.tree.base}/api/languages/ca@valencia/`)).status).toBe(
      404,
    );
    expect((await get(`${built.origin}/api/languages/ca@valencia/index.json`)).status).toBe(200);
  });

  it('ignores ?page=N, answering page 1', async () => {
    const api = `${built.origin}${built.tree.base}/api`;
    const first = await get(`${api}/components/`);
    expect((await get(`${api}/components/?page=2`)).text).toBe(first.text);
  });

  it("answers an unknown path with the JSON body of 404.html, or serve's own JSON error to Accept: application/json", async () => {
    const served = await get(`${built.origin}${built.tree.base}/api/nope/`);
    expect(served.status).toBe(404);
    expect(served.headers.get('content-type')).toBe('application/json');
    expect(served.text).toBe('{"detail":"Not found."}\n');
    const asJson = await get(`${built.origin}${built.tree.base}/api/nope/`, {
      headers: { Accept: 'application/json' },
    });
    expect(asJson.status).toBe(404);
    expect(JSON.parse(asJson.text)).toEqual({
      error: { code: 'not_found', message: 'The requested path could not be found' },
    });
  });

  it("sends the CORS header with the API's files and its 404, but answers a preflight with the file, without the preflight's headers", async () => {
    const api = `${built.origin}${built.tree.base}/api`;
    expect((await get(`${api}/nope/`)).headers.get('access-control-allow-origin')).toBe('*');
    const preflight = await get(`${api}/projects/`, {
      method: 'OPTIONS',
      headers: PREFLIGHT_REQUEST,
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toBeNull();
    expect(preflight.text).toBe(readFileSync(join(out, 'api/projects/index.json'), 'utf8'));
  });

  it('answers POST with the file, as it knows no methods', async () => {
    const served = await get(`${built.origin}${built.tree.base}/api/projects/`, { method: 'POST' });
    expect(served.status).toBe(200);
    expect(served.text).toBe(readFileSync(join(out, 'api/projects/index.json'), 'utf8'));
  });
});

describe('npx serve with the serve.json of the 2026.8 flavour', () => {
  const out = join(tempDir('wsnap-e2e-'), 'dist');
  let built: BuiltFixture;
  let server: Started | undefined;

  beforeAll(async () => {
    const port = await freePort();
    built = await buildFor(CURRENT_FIXTURE[1], port, out);
    const args = [
      SERVE_CLI,
      out,
      '--listen',
      `tcp://127.0.0.1:${port}`,
      '--no-clipboard',
      '--no-port-switching',
    ];
    server = await startServer(process.execPath, args, `${built.origin}/`);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('accepts the file (the CLI checks it) and serves every resource outside categories with JSON headers and its Allow', async () => {
    const inCategory = (path: string) => path.includes('%252F');
    const served = await checkEveryResource(built, { allow: true, skip: inCategory });
    expect(served).toBe(
      3 * built.tree.resources.filter((resource) => !inCategory(resource.path)).length,
    );
  });

  it('serves a component inside categories by its file name only: its rewrites encode the % again, as they do @', async () => {
    const api = `${built.origin}${built.tree.base}/api`;
    expect((await get(`${api}/components/docs/guides%252Fmanual/`)).status).toBe(404);
    const byName = await get(`${built.origin}/api/components/docs/guides%252Fmanual/index.json`);
    expect(byName.status).toBe(200);
    expect(byName.headers.get('allow')).toBe('GET, PUT, PATCH, DELETE, HEAD, OPTIONS');
    expect(JSON.parse(byName.text).slug).toBe('manual');
  });
});
