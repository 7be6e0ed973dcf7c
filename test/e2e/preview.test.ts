/**
 * `npm run serve` as a user runs it: fixtures built for a loopback port, the
 * preview started as a real process on it, and every resource asked for in
 * every form, the errors, and a crawl that follows every link.
 */
import { execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, scriptArgs, tempDir } from '../helpers.ts';
import { childOutput } from '../support/child-output.ts';
import { CURRENT_FIXTURE } from '../unit/hosts/tree.ts';
import {
  buildFor,
  errorBodyOf,
  freePort,
  get,
  itServesTheSnapshot,
  rawBody,
  rawExchange,
  startServer,
  type BuiltFixture,
  type Started,
} from './servers.ts';

const run = promisify(execFile);
const SERVE = [...scriptArgs('serve')];

const fixtures = [
  [
    'features (pagination: path, API under /mirror, ca@valencia)',
    join(FIXTURES, 'features/content'),
  ],
  ['query-pagination (?page=N, page size 1)', join(FIXTURES, 'query-pagination/content')],
  [CURRENT_FIXTURE[0], CURRENT_FIXTURE[1]],
] as const;

describe.each(fixtures)('the preview of %s', (_, contentDir) => {
  const out = join(tempDir('wsnap-e2e-'), 'dist');
  let built: BuiltFixture;
  let server: Started | undefined;

  beforeAll(async () => {
    const port = await freePort();
    built = await buildFor(contentDir, port, out);
    server = await startServer(
      process.execPath,
      [...SERVE, '--out', out, '--port', String(port)],
      `${built.origin}/`,
    );
  });
  afterAll(async () => {
    await server?.stop();
  });

  itServesTheSnapshot(() => built);

  it('prints where it serves', () => {
    expect(server!.output()).toContain(
      `Serving ${out}/ at ${built.origin}${built.tree.base}/api/ (Ctrl+C to stop)\n`,
    );
  });

  if (contentDir !== CURRENT_FIXTURE[1]) return;
  it('answers as Weblate 2026.8: OPTIONS 405, refused reads 401 and 403 with their headers, %2f read as %2F', async () => {
    const api = `${built.origin}${built.tree.base}/api`;
    const options = await get(`${api}/languages/`, { method: 'OPTIONS' });
    expect([options.status, options.text]).toEqual([
      405,
      errorBodyOf(built, 'method_not_allowed', 'Method "OPTIONS" not allowed.'),
    ]);
    const repository = await get(`${api}/translations/docs/guides%252Fmanual/cs/repository/`);
    expect(repository.status).toBe(403);
    expect(repository.text).toBe(
      errorBodyOf(built, 'permission_denied', 'You do not have permission to perform this action.'),
    );
    expect(repository.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS');
    const machinery = await get(`${api}/projects/docs/machinery_settings/`);
    expect([machinery.status, machinery.headers.get('www-authenticate')]).toEqual([401, 'Token']);
    const lower = await get(`${api}/components/docs/guides%252fmanual/`);
    expect(lower.status).toBe(200);
    expect(JSON.parse(lower.text).slug).toBe('manual');
    expect((await get(`${api}/components/docs/guides%2Fmanual/`)).status).toBe(404);
  });
});

describe('npm run serve', () => {
  async function serve(args: string[]) {
    try {
      const { stdout, stderr } = await run(process.execPath, [...SERVE, ...args]);
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  }

  it('prints its options with --help and exits 0', async () => {
    const result = await serve(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: npm run serve -- [options]');
    expect(result.stdout).toMatch(
      /--port N\s+port to listen on; 0 picks a free one \(default: 8080\)/,
    );
    expect(result.stdout).toMatch(
      /--bind ADDRESS\s+address to listen on \(default: 127\.0\.0\.1\)/,
    );
  });

  it('refuses a bad port and a folder that is not a built tree with exit 1', async () => {
    const badPort = await serve(['--port', 'http']);
    expect(badPort.code).toBe(1);
    expect(badPort.stderr).toContain('--port expects a port number from 0 to 65535 (got "http")');
    const dir = tempDir();
    const notBuilt = await serve(['--out', dir, '--port', '0']);
    expect(notBuilt.code).toBe(1);
    expect(notBuilt.stderr).toContain(`${dir} is not a built tree`);
    expect(notBuilt.stderr).not.toMatch(/\n\s+at /);
  });

  it('picks a free port with --port 0, says where, says which links it answers as its own, and exits 0 on SIGTERM', async () => {
    const out = join(tempDir('wsnap-e2e-'), 'dist');
    await buildFor(join(FIXTURES, 'minimal/content'), 9, out);
    const child = await startOnFreePort(out);
    try {
      expect((await get(`${child.url}projects/`)).status).toBe(200);
      expect(child.server.output()).toContain(
        `Links to http://127.0.0.1:9 are answered as ${new URL(child.url).origin}; the files keep them as built.`,
      );
    } finally {
      expect(await child.server.stop()).toBe(0);
    }
  });
  it('answers a request the HTTP parser refuses with a JSON 400, and headers over its limit with a JSON 431', async () => {
    const out = join(tempDir('wsnap-e2e-'), 'dist');
    await buildFor(join(FIXTURES, 'minimal/content'), 9, out);
    const child = await startOnFreePort(out);
    try {
      const origin = new URL(child.url).origin;
      const body = Buffer.alloc(6 * 1024 * 1024, 'x');
      const refused = await rawExchange(
        origin,
        `PUT "a{b} HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n`,
        body,
      );
      expect(refused.status).toBe(400);
      expect(refused.text).toMatch(/\r\ncontent-type: application\/json\r\n/i);
      expect(rawBody(refused.text)).toBe(
        '{"detail":"Bad request: the request line or its headers could not be parsed."}\n',
      );
      expect({ sentWhole: refused.sentWhole, reset: refused.reset }).toEqual({
        sentWhole: true,
        reset: false,
      });
      const huge = await rawExchange(
        origin,
        `GET /api/ HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
        Buffer.alloc(0),
      );
      expect(huge.status).toBe(431);
      expect(huge.text).toContain('{"detail":"Request header fields too large."}\n');
      expect((await get(child.url)).status).toBe(200);
    } finally {
      expect(await child.server.stop()).toBe(0);
    }
  });
});

/** Starts the preview on --port 0 and reads the URL it prints. */
async function startOnFreePort(out: string): Promise<{ server: Started; url: string }> {
  const child = spawn(process.execPath, [...SERVE, '--out', out, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = childOutput(child);
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const server: Started = {
    child,
    output: output.text,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
  // The URL line, then the line on links answered as the preview's.
  const printed = await output.waitFor(/\(Ctrl\+C to stop\)\n.*\n/, 'URL').catch(() => null);
  const url = printed && /at (http:\/\/127\.0\.0\.1:\d+\/api\/) /.exec(output.text())?.[1];
  if (!url) {
    await server.stop();
    throw new Error(`no URL printed:\n${output.text()}`);
  }
  return { server, url };
}
