/**
 * End-to-end helpers: build a fixture with the real build command (in the
 * test's process: the servers under test are what runs as processes) for a
 * loopback port, start a real server process on that port, wait until it
 * answers, and check what it serves against the files: one
 * request per resource and form, and a crawl that follows every link.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { childOutput } from '../support/child-output.ts';
import { runCli } from '../support/run-cli.ts';
import { collectLinks, isPage, type ListPage } from '../helpers.ts';
import { requestsFor, fixtureBase, fixtureTree, type FixtureTree } from '../unit/hosts/tree.ts';

/** A port nothing listens on at the moment. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

export interface BuiltFixture {
  origin: string;
  out: string;
  tree: FixtureTree;
}

/**
 * Builds a fixture into `out` with `npm run build`'s script, its links
 * pointing at 127.0.0.1:port (plus the fixture's own base path).
 */
export async function buildFor(
  contentDir: string,
  port: number,
  out: string,
  extraArgs: string[] = [],
): Promise<BuiltFixture> {
  const origin = `http://127.0.0.1:${port}`;
  const baseUrl = origin + (await fixtureBase(contentDir));
  const built = await runCli('build', [
    ...['--content', contentDir, '--out', out, '--base-url', baseUrl],
    ...extraArgs,
  ]);
  if (built.code !== 0) throw new Error(`the build of ${contentDir} failed:\n${built.stderr}`);
  return { origin, out, tree: await fixtureTree(contentDir, { baseUrl }) };
}

export interface Started {
  child: ChildProcess;
  output(): string;
  /** Sends SIGTERM (unless it has ended) and waits for the exit; its exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts a process and waits until `readyUrl` answers at all (any status), trying every 100 ms
 * while the process runs: on a busy disk a start can take many seconds, so the test's timeout
 * is the bound (the tries stop after 5 minutes, longer than any). The caller stops it.
 */
export async function startServer(
  command: string,
  args: string[],
  readyUrl: string,
): Promise<Started> {
  const child = spawn(command, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_UPDATE_CHECK: '1' },
  });
  const output = childOutput(child);
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return exited;
  };
  for (let attempt = 0; attempt < 3000; attempt++) {
    if (child.exitCode !== null) break;
    const answered = await fetch(readyUrl).then(
      () => true,
      () => false,
    );
    if (answered) return { child, output: output.text, stop };
    await new Promise((done) => setTimeout(done, 100));
  }
  await stop();
  throw new Error(`${command} did not answer ${readyUrl}:\n${output.text()}`);
}

/**
 * Sends bytes as they are on a new connection and returns the status, the
 * response text, and whether the connection ended cleanly for the client: the
 * whole request reached the server's socket (the write completed) and the
 * server closed with a FIN, not a reset that can discard an answer unread.
 */
export function rawExchange(
  origin: string,
  head: string,
  body: Buffer,
): Promise<{ status: number; text: string; sentWhole: boolean; reset: boolean }> {
  const { hostname, port } = new URL(origin);
  return new Promise((done) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let sentWhole = false;
    let reset = false;
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => (reset = true));
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      done({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text, sentWhole, reset });
    });
    socket.write(
      Buffer.concat([Buffer.from(head, 'latin1'), body]),
      (error) => (sentWhole = !error),
    );
  });
}

/** The body of a raw response (after the blank line). */
export function rawBody(text: string): string {
  return text.slice(text.indexOf('\r\n\r\n') + 4);
}

export interface Served {
  status: number;
  headers: Headers;
  text: string;
}

export async function get(url: string, init: RequestInit = {}): Promise<Served> {
  const response = await fetch(url, { redirect: 'manual', ...init });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** The Accept headers a client may send; the answer must be JSON for each. */
const ACCEPTS = ['application/json', 'text/html,application/xhtml+xml', '*/*'];

/**
 * Asks for every resource of the site in each form a client uses (with and
 * without the trailing slash, with `?format=api`, `?page=N` for query pages)
 * and checks status, Content-Type, Allow, Vary, Access-Control-Allow-Origin
 * and the body against the file.
 * `skip` leaves out resources a server is known not to serve.
 */
export async function checkEveryResource(
  built: BuiltFixture,
  options: { allow: boolean; skip?: (path: string) => boolean },
): Promise<number> {
  let checked = 0;
  for (const resource of built.tree.resources) {
    if (options.skip?.(resource.path)) continue;
    const body = readFileSync(join(built.out, resource.file), 'utf8');
    for (const [i, [path, query]] of requestsFor(built.tree, resource).entries()) {
      const url = `${built.origin}${path}${query ? `?${query}` : ''}`;
      const served = await get(url, { headers: { Accept: ACCEPTS[i % ACCEPTS.length]! } });
      expect(served.status, url).toBe(200);
      expect(served.headers.get('content-type'), url).toBe('application/json');
      expect(served.headers.get('vary') ?? '', url).toMatch(/^Accept\b/);
      if (options.allow) expect(served.headers.get('allow'), url).toBe(resource.allow);
      expect(served.headers.get('access-control-allow-origin'), url).toBe('*');
      expect(served.text, url).toBe(body);
      checked++;
    }
  }
  return checked;
}

/** An error body of the settings' flavour, written out: DRF's `{"detail": …}` in 4.x, drf-standardized-errors' in 2026.8. */
export function errorBodyOf(built: BuiltFixture, code: string, detail: string): string {
  const escaped = detail.replaceAll('"', '\\"');
  return built.tree.settings.weblateVersion === '4'
    ? `{"detail":"${escaped}"}\n`
    : `{"type":"client_error","errors":[{"code":"${code}","detail":"${escaped}","attr":null}]}\n`;
}

/**
 * Checks the JSON errors: unknown paths, pages past the end, invalid pages,
 * other methods (a 405 in 4.x; in 2026.8 a 401 for an anonymous write, as
 * Weblate checks permissions before methods).
 */
export async function checkErrors(built: BuiltFixture): Promise<void> {
  const api = `${built.origin}${built.tree.base}/api`;
  const expectJson = async (served: Served, status: number, body: string) => {
    expect(served.status).toBe(status);
    expect(served.headers.get('content-type')).toBe('application/json');
    expect(served.headers.get('access-control-allow-origin')).toBe('*');
    expect(served.text).toBe(body);
  };
  for (const url of [
    `${api}/nope/`,
    `${api}/projects/nope/`,
    `${api}/languages/cs/nope/`,
    `${api}/?format=xml`,
  ]) {
    await expectJson(
      await get(url, { headers: { Accept: 'application/json' } }),
      404,
      errorBodyOf(built, 'not_found', 'Not found.'),
    );
  }
  for (const url of [
    `${api}/languages/?page=99`,
    `${api}/languages/?page=0`,
    `${api}/languages/?page=two`,
  ]) {
    await expectJson(await get(url), 404, errorBodyOf(built, 'not_found', 'Invalid page.'));
  }
  // PUT, which Weblate does not allow on a list either (the sidecar answers the POST it allows).
  const put = await get(`${api}/languages/`, {
    method: 'PUT',
    body: '{}',
    headers: { 'Content-Type': 'application/json' },
  });
  if (built.tree.settings.weblateVersion === '4') {
    await expectJson(
      put,
      405,
      errorBodyOf(built, 'method_not_allowed', 'Method "PUT" not allowed.'),
    );
  } else {
    await expectJson(
      put,
      401,
      errorBodyOf(built, 'not_authenticated', 'Authentication credentials were not provided.'),
    );
    expect(put.headers.get('www-authenticate')).toBe('Token');
  }
  expect(put.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS');
  const head = await get(`${api}/projects/`, { method: 'HEAD' });
  expect(head.status).toBe(200);
  expect(head.text).toBe('');
}

/**
 * Starting from the API root, follows every API link of every response (all
 * but `file_url`) and checks each answers 200 with JSON; then walks every
 * list from its first page along `next` and checks it ends, never repeats a
 * page, and yields `count` items. Returns how many URLs it fetched.
 */
export async function crawl(built: BuiltFixture): Promise<{ urls: number; lists: number }> {
  const prefix = `${built.origin}${built.tree.base}/api/`;
  const bodies = new Map<string, unknown>();
  const queue = [prefix];
  const current = built.tree.settings.weblateVersion !== '4';
  // 2026.8 links to what it refuses an anonymous reader (checked for its 401 or 403), and to project metrics (outside the snapshot).
  const refused = new Map<string, number>();
  const refusedKeys: Record<string, number> = current
    ? { repository_url: 403, reports_url: 401, machinery_settings: 401, reports: 401, memory: 401 }
    : {};
  const outside = new Set(current ? ['file_url', 'metrics_url'] : ['file_url']);
  const fetchJson = async (url: string) => {
    if (!bodies.has(url)) {
      const served = await get(url);
      expect(served.status, url).toBe(200);
      expect(served.headers.get('content-type'), url).toBe('application/json');
      bodies.set(url, JSON.parse(served.text));
    }
    return bodies.get(url);
  };
  for (let guard = 0; queue.length > 0 && guard < 20_000; guard++) {
    const url = queue.shift()!;
    if (bodies.has(url)) continue;
    collectLinks(await fetchJson(url), (key, link) => {
      if (refusedKeys[key] !== undefined) refused.set(link, refusedKeys[key]);
      else if (!outside.has(key) && link.startsWith(prefix) && !bodies.has(link)) queue.push(link);
    });
  }
  expect(queue).toEqual([]);
  for (const [url, status] of refused) {
    const served = await get(url);
    expect(served.status, url).toBe(status);
    expect(served.headers.get('content-type'), url).toBe('application/json');
  }
  let lists = 0;
  for (const [url, body] of [...bodies]) {
    if (!isPage(body) || body.previous !== null) continue;
    lists++;
    const seen = new Set([url]);
    let page = body;
    let items = page.results.length;
    for (let guard = 0; page.next !== null && guard < 10_000; guard++) {
      expect(seen.has(page.next), `${url} repeats ${page.next}`).toBe(false);
      seen.add(page.next);
      page = (await fetchJson(page.next)) as ListPage;
      items += page.results.length;
    }
    expect(page.next, url).toBeNull();
    expect(items, url).toBe(body.count);
  }
  return { urls: bodies.size, lists };
}

/** A browser's preflight: a write with a token, from a page on another origin. */
export const PREFLIGHT_REQUEST = {
  Origin: 'https://docs.example.net',
  'Access-Control-Request-Method': 'PATCH',
  'Access-Control-Request-Headers': 'authorization, content-type',
};

/** What Weblate (django-cors-headers) answers a preflight under the API with: 200, no body, these headers. */
export const PREFLIGHT_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'DELETE, GET, OPTIONS, PATCH, POST, PUT',
  'access-control-allow-headers':
    'accept, authorization, content-type, user-agent, x-csrftoken, x-requested-with',
  'access-control-max-age': '86400',
};

/** Checks a preflight under the API (a resource and a path no route has) is answered as Weblate answers it. */
export async function checkPreflight(built: BuiltFixture): Promise<void> {
  const api = `${built.origin}${built.tree.base}/api`;
  for (const url of [`${api}/languages/`, `${api}/projects/nope/`]) {
    const served = await get(url, { method: 'OPTIONS', headers: PREFLIGHT_REQUEST });
    expect(served.status, url).toBe(200);
    expect(served.text, url).toBe('');
    const cors = Object.fromEntries(
      [...served.headers].filter(([name]) => name.startsWith('access-control-')),
    );
    expect(cors, url).toEqual(PREFLIGHT_HEADERS);
  }
}

/** The tests every server that claims to serve the snapshot as a good host does must pass. */
export function itServesTheSnapshot(site: () => BuiltFixture): void {
  it('serves every resource with and without the slash, with ?format=api and ?page=N: JSON, Allow, Vary, the file', async () => {
    expect(await checkEveryResource(site(), { allow: true })).toBe(
      3 * site().tree.resources.length,
    );
  });

  it("answers unknown paths, invalid pages and other methods with Weblate's JSON errors", async () => {
    await checkErrors(site());
  });

  it("answers a browser's preflight under the API as Weblate does", async () => {
    await checkPreflight(site());
  });

  it('follows every link from /api/ to a JSON answer and walks every list to its end', async () => {
    const { urls, lists } = await crawl(site());
    expect(urls).toBeGreaterThanOrEqual(site().tree.resources.length);
    expect(lists).toBeGreaterThan(10);
  });
}

/**
 * An nginx main file that any user can start: the given files (under
 * `prefix`) included in http {}, logs and temporary folders under the prefix.
 */
/** The command line that runs nginx in the foreground from a prefix folder holding nginx.conf. */
/**
 * nginx on loopback serving the tree at `out` with the configuration the build wrote for it (its
 * root pointed at `out`), its own files under `prefix`.
 */
export function startNginxForTree(out: string, prefix: string, origin: string): Promise<Started> {
  mkdirSync(join(prefix, 'temp'), { recursive: true });
  const generated = readFileSync(join(out, 'hosts/nginx/weblate-snapshot.conf'), 'utf8');
  writeFileSync(
    join(prefix, 'weblate-snapshot.conf'),
    generated.replace(/^( {4}root ).*;$/m, `$1${out};`),
  );
  writeFileSync(join(prefix, 'nginx.conf'), nginxMainConfig(prefix, ['weblate-snapshot.conf']));
  return startServer('nginx', nginxArgs(prefix), `${origin}/`);
}

export function nginxArgs(prefix: string): string[] {
  return [
    '-p',
    prefix,
    '-c',
    join(prefix, 'nginx.conf'),
    '-e',
    join(prefix, 'error.log'),
    '-g',
    `daemon off; pid ${join(prefix, 'nginx.pid')};`,
  ];
}

export function nginxMainConfig(prefix: string, includes: string[]): string {
  const temp = (name: string) => `${name}_temp_path ${join(prefix, 'temp', name)};`;
  return [
    // Workers of a master started as root run as nobody, who cannot read a private temporary folder.
    process.getuid?.() === 0 ? 'user root;' : '',
    'worker_processes 1;',
    'events { worker_connections 64; }',
    'http {',
    '    access_log off;',
    `    ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n    ')}`,
    ...includes.map((file) => `    include ${join(prefix, file)};`),
    '}',
    '',
  ].join('\n');
}
