/**
 * Issue 13, item 11: `pull` against a hostile server. A body dripping in byte by byte was never timed
 * out (the timeout signal merged with AbortSignal.any was lost); redirects were followed to any
 * origin; a `next` link resolving outside --from on the same host (`/api/../secret/`, `%2e%2e`) was
 * fetched with the key; a body of any size was read whole; an endless `next` chain was followed for
 * 100,000 pages into the resume file; a 300-character language code failed with ENAMETOOLONG after
 * part of the content was written; control characters of an error body reached the terminal raw; a
 * request cancelled by a stop was reported as a timeout. Each is shown here to happen no more.
 */
import { existsSync, readdirSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHttpClient, DEFAULT_HTTP_OPTIONS, type HttpOptions } from '../../src/pull/http.ts';
import { defaultPullDeps } from '../../src/pull/pull.ts';
import { compiledModule, tempDir } from '../helpers.ts';
import { startLoopbackServer } from '../support/loopback-server.ts';
import { runCli } from '../support/run-cli.ts';
import { runProgram } from '../support/run-script.ts';
import { startScriptedServer, type Scripted } from '../support/scripted-server.ts';

const EMPTY_LIST = JSON.stringify({ count: 0, next: null, previous: null, results: [] });
const TOKEN = 'wlu_hostile_test_key';

/** The root of an instance at `origin`, its lists answered by `lists` (path → answer); anything else a 404. */
function instance(lists: (path: string, origin: string) => Scripted | undefined) {
  return (request: IncomingMessage): Scripted => {
    const origin = `http://127.0.0.1:${request.socket.localPort}`;
    const path = request.url ?? '/';
    const listed = lists(path, origin);
    if (listed) return listed;
    if (path === '/api/') {
      return {
        status: 200,
        body: JSON.stringify({
          projects: `${origin}/api/projects/`,
          languages: `${origin}/api/languages/`,
        }),
      };
    }
    if (path === '/api/projects/' || path === '/api/languages/')
      return { status: 200, body: EMPTY_LIST };
    return { status: 404, body: '{"detail":"Not found."}' };
  };
}

async function pullFrom(url: string) {
  const out = join(tempDir(), 'mirror');
  const result = await runCli('pull', ['--from', `${url}/api/`, '--out', out, '--retries', '0'], {
    env: { WEBLATE_TOKEN: TOKEN },
  });
  return { ...result, out };
}

describe('pull from a hostile server', () => {
  it('refuses a redirect to another origin, and sends that origin nothing', async () => {
    const elsewhere = await startScriptedServer(() => ({ status: 200, body: EMPTY_LIST }));
    const server = await startScriptedServer(
      instance((path) =>
        path === '/api/projects/'
          ? { status: 302, body: '', headers: { Location: `${elsewhere.url}/api/projects/` } }
          : undefined,
      ),
    );
    try {
      const result = await pullFrom(server.url);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        `${server.url}/api/projects/ redirects to ${elsewhere.url}/api/projects/, outside ${server.url}/api/`,
      );
      expect(elsewhere.log).toEqual([]);
    } finally {
      await Promise.all([server.close(), elsewhere.close()]);
    }
  });

  it.each([
    [
      'a next link',
      (origin: string) => ({
        status: 200,
        body: JSON.stringify({
          count: 2,
          next: `${origin}/api/../secret/`,
          previous: null,
          results: [],
        }),
      }),
    ],
    [
      'a next link with %2e%2e',
      (origin: string) => ({
        status: 200,
        body: JSON.stringify({
          count: 2,
          next: `${origin}/api/%2e%2e/secret/`,
          previous: null,
          results: [],
        }),
      }),
    ],
    ['a redirect', () => ({ status: 301, body: '', headers: { Location: '/api/%2E%2E/secret/' } })],
  ])('does not follow %s that resolves outside --from on the same host', async (_, answer) => {
    const server = await startScriptedServer(
      instance((path, origin) => (path === '/api/projects/' ? answer(origin) : undefined)),
    );
    try {
      const result = await pullFrom(server.url);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/outside/);
      expect(server.log.map((entry) => entry.url)).not.toContain('/secret/');
    } finally {
      await server.close();
    }
  });

  it('follows a redirect that stays inside --from', async () => {
    const server = await startScriptedServer(
      instance((path, origin) => {
        if (path === '/api/languages/')
          return {
            status: 301,
            body: '',
            headers: { Location: `${origin}/api/languages/?page=1` },
          };
        return path === '/api/languages/?page=1' ? { status: 200, body: EMPTY_LIST } : undefined;
      }),
    );
    try {
      const result = await pullFrom(server.url);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(server.log.map((entry) => entry.url)).toContain('/api/languages/?page=1');
    } finally {
      await server.close();
    }
  });

  it('stops an endless chain of next links a few pages past what the list announced', async () => {
    const server = await startScriptedServer(
      instance((path, origin) => {
        const page = /^\/api\/projects\/(?:\?page=(\d+))?$/.exec(path);
        if (!page) return undefined;
        const n = Number(page[1] ?? 1);
        // Guarded, so that the pull before the fix ended (it went on to page 100,000).
        const next = n < 40 ? `${origin}/api/projects/?page=${n + 1}` : null;
        return {
          status: 200,
          body: JSON.stringify({ count: 0, next, previous: null, results: [] }),
        };
      }),
    );
    try {
      const result = await pullFrom(server.url);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('goes on past the 0 items');
      expect(
        server.log.filter((entry) => entry.url.startsWith('/api/projects/')).length,
      ).toBeLessThanOrEqual(4);
    } finally {
      await server.close();
    }
  });

  it('refuses a 300-character language code before writing anything', async () => {
    const code = 'x'.repeat(300);
    const language = {
      code,
      name: 'Long',
      plural: { id: 1, source: 0, number: 2, formula: 'n != 1', type: 1 },
      web_url: 'x',
    };
    const server = await startScriptedServer(
      instance((path) =>
        path === '/api/languages/'
          ? {
              status: 200,
              body: JSON.stringify({ count: 1, next: null, previous: null, results: [language] }),
            }
          : undefined,
      ),
    );
    try {
      const result = await pullFrom(server.url);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('expected a language code of at most 50 characters');
      expect(result.stderr).not.toMatch(/ENAMETOOLONG|\n\s+at /);
      expect(
        existsSync(result.out)
          ? readdirSync(result.out).filter((name) => !name.startsWith('.'))
          : [],
      ).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('writes control characters of an error body as escapes', async () => {
    const server = await startScriptedServer(() => ({
      status: 401,
      body: JSON.stringify({ detail: 'Invalid token.\u001b[2J\r\nfake: line' }),
    }));
    try {
      const result = await pullFrom(server.url);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        'refused the token (HTTP 401: Invalid token.\\x1b[2J\\r\\nfake: line)',
      );
      expect(result.stderr).not.toContain('\u001b');
    } finally {
      await server.close();
    }
  });
});

describe('the pull HTTP client against a hostile server', () => {
  /** A client on the real network and timers, as a pull runs it. */
  const client = (options: Partial<HttpOptions>) =>
    createHttpClient({ ...DEFAULT_HTTP_OPTIONS, retries: 0, ...options }, defaultPullDeps());

  /** A server whose answers never end: headers, then one byte every 50 ms. */
  const dripping = () =>
    startLoopbackServer(async (_, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.write('[');
      const timer = setInterval(() => response.write(' '), 50);
      response.on('close', () => clearInterval(timer));
    });

  /** The outcome of `promise`, or a note that it was still pending after `ms`. */
  const within = <T>(promise: Promise<T>, ms: number) =>
    Promise.race([
      promise.then(
        () => 'answered',
        (error: Error) => error.message,
      ),
      new Promise((done) => setTimeout(() => done(`no outcome after ${ms} ms`), ms)),
    ]);

  it('times out a body that drips in byte by byte, whatever the garbage collector does meanwhile', async () => {
    // In a process of its own that collects garbage every 20 ms: the lost timeout showed there.
    const code = `
      import { createServer } from 'node:http';
      const { createHttpClient, DEFAULT_HTTP_OPTIONS } = await import(${JSON.stringify(compiledModule('src/pull/http.ts'))});
      const { defaultPullDeps } = await import(${JSON.stringify(compiledModule('src/pull/pull.ts'))});
      const server = createServer((_, response) => {
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.write('[');
        const timer = setInterval(() => response.write(' '), 50);
        response.on('close', () => clearInterval(timer));
      });
      await new Promise((listening) => server.listen(0, '127.0.0.1', listening));
      const client = createHttpClient({ ...DEFAULT_HTTP_OPTIONS, retries: 0, timeoutMs: 300 }, defaultPullDeps());
      setInterval(() => globalThis.gc(), 20);
      const request = client.getJson('http://127.0.0.1:' + server.address().port + '/api/');
      const outcome = await Promise.race([
        request.then(() => 'answered', (error) => error.message.replace(/^\\S+ /, '')),
        new Promise((done) => setTimeout(() => done('no outcome after 3 s'), 3000)),
      ]);
      console.log(outcome);
      process.exit(0);
    `;
    const result = await runProgram(process.execPath, [
      '--expose-gc',
      '--input-type=module',
      '-e',
      code,
    ]);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('failed once (last: timed out).\n');
  });

  it('reports a request cancelled by a stop as stopped, not as timed out', async () => {
    const server = await dripping();
    try {
      const http = client({ timeoutMs: 60_000 });
      const request = within(http.getJson(`${server.url}/api/`), 3000);
      await new Promise((done) => setTimeout(done, 200));
      await http.stop();
      expect(await request).toBe('The pull was stopped.');
    } finally {
      await server.close();
    }
  });

  it('refuses a body larger than the cap, announced or not', async () => {
    const big = '"' + 'x'.repeat(5000) + '"';
    const server = await startLoopbackServer(async (request, response) => {
      const headers = request.url === '/announced/' ? { 'Content-Length': String(big.length) } : {};
      response.writeHead(200, { 'Content-Type': 'application/json', ...headers });
      response.end(big);
    });
    try {
      for (const path of ['/announced/', '/chunked/']) {
        expect(
          await within(client({ maxBodyBytes: 1000 }).getJson(`${server.url}${path}`), 3000),
        ).toMatch(/answered with more than .* the pull stops\.$/);
      }
    } finally {
      await server.close();
    }
  });
});
