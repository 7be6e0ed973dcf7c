/**
 * Issue 13, item 8: a browser's preflight (OPTIONS with
 * Access-Control-Request-Method) got a 405 from the preview while Allow
 * listed OPTIONS, and the sidecar answered it with DRF's metadata and no
 * CORS header, so a page on another origin could send neither a read with
 * a token nor a write. Weblate answers it in django-cors-headers' middleware,
 * before anything else: 200, an empty body, `*` for the origin, the
 * library's methods and headers, a day's lifetime. Now both do, for every
 * path under the API (even one no route has, as the middleware does), in
 * both flavours, and every other answer under the API carries
 * `Access-Control-Allow-Origin: *`. An OPTIONS without
 * Access-Control-Request-Method is answered as before.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, scriptArgs, tempDir } from '../helpers.ts';
import { buildFor, freePort, get, startServer, type Started } from '../e2e/servers.ts';
import { AUTH, startSidecar, workspace, type RunningSidecar } from '../sidecar/support.ts';

const PREFLIGHT = {
  Origin: 'https://docs.example.net',
  'Access-Control-Request-Method': 'PATCH',
  'Access-Control-Request-Headers': 'authorization, content-type',
};

const PREFLIGHT_ANSWER = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'DELETE, GET, OPTIONS, PATCH, POST, PUT',
  'access-control-allow-headers':
    'accept, authorization, content-type, user-agent, x-csrftoken, x-requested-with',
  'access-control-max-age': '86400',
  'content-length': '0',
};

async function expectPreflightAnswered(url: string): Promise<void> {
  const served = await get(url, { method: 'OPTIONS', headers: PREFLIGHT });
  expect(served.status, url).toBe(200);
  expect(served.text, url).toBe('');
  expect(
    Object.fromEntries([...served.headers].filter(([name]) => name in PREFLIGHT_ANSWER)),
    url,
  ).toEqual(PREFLIGHT_ANSWER);
}

describe.each([
  ['4.x', join(FIXTURES, 'features/content')],
  ['2026.8', join(FIXTURES, 'current/content')],
])('the preview of a %s tree', (flavour, contentDir) => {
  const out = join(tempDir('wsnap-preflight-'), 'dist');
  let api: string;
  let server: Started | undefined;

  beforeAll(async () => {
    const port = await freePort();
    const built = await buildFor(contentDir, port, out);
    api = `${built.origin}${built.tree.base}/api`;
    server = await startServer(
      process.execPath,
      [...scriptArgs('serve'), '--out', out, '--port', String(port)],
      `${api}/`,
    );
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers a preflight 200 with the CORS headers and no body, on a resource and on a path no route has', async () => {
    await expectPreflightAnswered(`${api}/languages/`);
    await expectPreflightAnswered(`${api}/projects/nope/`);
  });

  it('sends Access-Control-Allow-Origin: * with every answer under the API, errors included', async () => {
    for (const url of [
      `${api}/`,
      `${api}/languages/`,
      `${api}/nope/`,
      `${api}/languages/?page=99`,
    ]) {
      expect((await get(url)).headers.get('access-control-allow-origin'), url).toBe('*');
    }
    const put = await get(`${api}/languages/`, { method: 'PUT', body: '{}' });
    expect(put.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers an OPTIONS that is no preflight as before: 405 with the Allow of the resource', async () => {
    const served = await get(`${api}/languages/`, { method: 'OPTIONS' });
    expect([served.status, served.headers.get('allow'), flavour]).toEqual([
      405,
      'GET, POST, HEAD, OPTIONS',
      flavour,
    ]);
  });
});

describe.each([
  ['4.x', 'features'],
  ['2026.8', 'current'],
])('the sidecar of a %s tree', (_, fixture) => {
  const space = workspace(fixture);
  let sidecar: RunningSidecar;
  beforeAll(async () => {
    sidecar = await startSidecar(space);
  });
  afterAll(async () => sidecar.stop());

  it('answers a preflight 200 with the CORS headers and no body, before it asks for a key', async () => {
    await expectPreflightAnswered(`${sidecar.api}languages/cs/`);
    await expectPreflightAnswered(`${sidecar.api}nope/`);
  });

  it('sends Access-Control-Allow-Origin: * with reads, writes and errors under the API', async () => {
    expect((await get(`${sidecar.api}languages/`)).headers.get('access-control-allow-origin')).toBe(
      '*',
    );
    expect((await get(`${sidecar.api}nope/`)).headers.get('access-control-allow-origin')).toBe('*');
    const anonymous = await get(`${sidecar.api}languages/cs/`, { method: 'PATCH', body: '{}' });
    expect([anonymous.status, anonymous.headers.get('access-control-allow-origin')]).toEqual([
      401,
      '*',
    ]);
    const written = await get(`${sidecar.api}languages/cs/`, {
      method: 'PATCH',
      body: JSON.stringify({ name: 'Czech' }),
      headers: { ...AUTH, 'Content-Type': 'application/json', Origin: PREFLIGHT.Origin },
    });
    expect([written.status, written.headers.get('access-control-allow-origin')]).toEqual([
      200,
      '*',
    ]);
  });

  it('answers an OPTIONS that is no preflight as before: the metadata of the resource', async () => {
    const served = await get(`${sidecar.api}languages/`, { method: 'OPTIONS' });
    expect(served.status).toBe(200);
    expect(JSON.parse(served.text).name).toBe('Language List');
    expect(served.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS');
  });
});
