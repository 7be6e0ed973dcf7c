/**
 * The sidecar's reads over real HTTP: every resource as a good host serves it
 * (the checks the preview and nginx pass), OPTIONS metadata, HEAD, the JSON
 * errors with their Allow, `?page=last`, and request-targets that try to leave
 * the tree.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/api/routes.ts';
import { freePort, itServesTheSnapshot, rawExchange, type BuiltFixture } from '../e2e/servers.ts';
import { fixtureTree } from '../unit/hosts/tree.ts';
import {
  call,
  expectJson,
  rawBody,
  rawRequest,
  startSidecar,
  workspace,
  type RunningSidecar,
} from './support.ts';

const fixtures = [
  ['features (pagination: path, API under /mirror, ca@valencia)', 'features', '/mirror'],
  ['query-pagination (?page=N, page size 1)', 'query-pagination', ''],
] as const;

describe.each(fixtures)('the sidecar over %s', (_, fixture, base) => {
  const space = workspace(fixture);
  let built: BuiltFixture;
  let sidecar: RunningSidecar;

  beforeAll(async () => {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}${base}`;
    sidecar = await startSidecar(space, { args: ['--base-url', baseUrl, '--port', String(port)] });
    built = {
      origin: `http://127.0.0.1:${port}`,
      out: space.out,
      tree: await fixtureTree(space.content, { baseUrl }),
    };
  });
  afterAll(async () => {
    expect(await sidecar.stop()).toBe(0);
  });

  itServesTheSnapshot(() => built);
});

describe('the sidecar answers', () => {
  const space = workspace();
  let sidecar: RunningSidecar;
  beforeAll(async () => {
    writeFileSync(join(space.dir, 'secret.json'), '{"secret":"outside the tree"}\n');
    sidecar = await startSidecar(space);
  });
  afterAll(async () => sidecar.stop());

  it('OPTIONS on every kind of route with its name, description, renders and parses, and its Allow', async () => {
    const paths: Record<string, string> = {
      root: '',
      project: 'projects/alpha/',
      component: 'components/alpha/strings/',
      translation: 'translations/alpha/strings/cs/',
      language: 'languages/de/',
      'language-statistics': 'languages/de/statistics/',
      languages: 'languages/',
      users: 'users/',
    };
    for (const [kind, path] of Object.entries(paths)) {
      const route = ROUTES.find((candidate) => candidate.kind === kind)!;
      const served = await call(sidecar.api + path, 'OPTIONS');
      expectJson(served, 200, {
        name: route.name,
        description: route.description,
        renders: ['application/json', 'text/html'],
        parses: ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'],
      });
      expect(served.headers.get('allow'), kind).toBe(route.allow);
      expect(served.headers.get('vary'), kind).toBe('Accept');
    }
  });

  it('HEAD with the headers of GET and no body', async () => {
    const get = await call(`${sidecar.api}languages/`);
    const head = await call(`${sidecar.api}languages/`, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    for (const name of ['content-type', 'content-length', 'allow', 'vary'])
      expect(head.headers.get(name), name).toBe(get.headers.get(name));
  });

  it('a method the resource does not allow: 405 naming it, with Allow', async () => {
    for (const [method, path, allow] of [
      ['POST', 'components/', 'GET, HEAD, OPTIONS'],
      ['PUT', 'translations/alpha/strings/cs/', 'GET, DELETE, HEAD, OPTIONS'],
      ['DELETE', 'languages/', 'GET, POST, HEAD, OPTIONS'],
      ['PATCH', '', 'GET, HEAD, OPTIONS'],
    ] as const) {
      const served = await call(sidecar.api + path, method);
      expectJson(served, 405, { detail: `Method "${method}" not allowed.` });
      expect(served.headers.get('allow')).toBe(allow);
    }
    const trace = await rawRequest(
      sidecar.origin,
      `TRACE /mirror/api/languages/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    expect(trace.status).toBe(405);
    expect(rawBody(trace.text)).toBe('{"detail":"Method \\"TRACE\\" not allowed."}\n');
  });

  it('the errors of a known route with its Allow; an unknown path without', async () => {
    const missing = await call(`${sidecar.api}languages/fr/`);
    expectJson(missing, 404, { detail: 'Not found.' });
    expect(missing.headers.get('allow')).toBe('GET, PUT, PATCH, DELETE, HEAD, OPTIONS');
    const format = await call(`${sidecar.api}projects/?format=xml`);
    expectJson(format, 404, { detail: 'Not found.' });
    expect(format.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS');
    for (const page of ['0', '99', 'two', '-1', '1.0'])
      expectJson(await call(`${sidecar.api}languages/?page=${page}`), 404, {
        detail: 'Invalid page.',
      });
    const unknown = await call(`${sidecar.api}nope/`);
    expectJson(unknown, 404, { detail: 'Not found.' });
    expect(unknown.headers.get('allow')).toBeNull();
    expectJson(await call(`${sidecar.origin}/api/`), 404, { detail: 'Not found.' });
  });

  it('?page=last (DRF takes it), and ?page= ignored where a resource has no pages', async () => {
    const list = JSON.parse((await call(`${sidecar.api}languages/`)).text);
    const last = await call(`${sidecar.api}languages/?page=last`);
    expect(last.status).toBe(200);
    const body = JSON.parse(last.text);
    expect(body.next).toBeNull();
    expect(body.count).toBe(list.count);
    expect((await call(`${sidecar.api}languages/de/?page=7`)).status).toBe(200);
  });

  it.each([
    '/mirror/api/languages/../../secret.json',
    '/mirror/api/%2e%2e/%2e%2e/secret.json',
    '/mirror/api/languages/..%2F..%2Fsecret.json',
    '/mirror/api/languages/%2E%2E%5C%2E%2E%5Csecret.json',
    '/mirror/api/languages/de%00/',
    '/mirror/api/languages/%ZZ/',
    '/mirror/api/languages//de/',
    '/mirror/api/languages/./de/',
    '/mirror/api/languages\\de/',
    `/mirror/api/languages/${'a'.repeat(300)}/`,
    '*',
    'http://127.0.0.1/mirror/api/../../secret.json',
  ])('refuses %s with a JSON 404', async (target) => {
    const served = await rawRequest(
      sidecar.origin,
      `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    expect(served.status).toBe(404);
    expect(rawBody(served.text)).toBe('{"detail":"Not found."}\n');
  });

  it('answers a request-target over 8 KiB 414 and over 16 KiB of headers 431, never a 500', async () => {
    const long = await rawRequest(
      sidecar.origin,
      `GET /mirror/api/${'a/'.repeat(5000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    expect(long.status).toBe(414);
    const huge = await rawRequest(
      sidecar.origin,
      `GET /mirror/api/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    expect(huge.status).toBe(431);
    expect(huge.text).toMatch(/\r\ncontent-type: application\/json\r\n/i);
    expect(rawBody(huge.text)).toBe('{"detail":"Request header fields too large."}\n');
  });

  // Regression: request 1258 of the fuzz test's seed 424242 (a target with `"`, then a 1 MiB body)
  // once came back with no answer at all. Node's parser refused the request line and its default
  // handler closed the socket with the body unread: a reset, which can drop the 400 unread.
  it('answers a request the HTTP parser refuses with a JSON 400, reading what the client still sends before it closes', async () => {
    const body = Buffer.alloc(6 * 1024 * 1024, 'x');
    const head = `PATCH "U}n~Soi/zg>_V{bW/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: ${body.length}\r\n\r\n`;
    const served = await rawExchange(sidecar.origin, head, body);
    expect(served.status).toBe(400);
    expect(served.text).toMatch(/\r\ncontent-type: application\/json\r\n/i);
    expect(rawBody(served.text)).toBe(
      '{"detail":"Bad request: the request line or its headers could not be parsed."}\n',
    );
    expect({ sentWhole: served.sentWhole, reset: served.reset }).toEqual({
      sentWhole: true,
      reset: false,
    });
  });

  it('serves a resource with and without its trailing slash and as index.json', async () => {
    const slash = await call(`${sidecar.api}languages/ca@valencia/`);
    expect(slash.status).toBe(200);
    for (const form of [
      'languages/ca@valencia',
      'languages/ca%40valencia/',
      'languages/ca@valencia/index.json',
    ]) {
      expect((await call(sidecar.api + form)).text, form).toBe(slash.text);
    }
  });
});
