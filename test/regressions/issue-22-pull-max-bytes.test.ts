/**
 * Issue 22, item 9: a pull's disk and memory were bounded only by the count
 * the server announced: a list announcing a million items grew the resume
 * file by 268 MB in 25 s. Now a pull reads at most --max-bytes from the
 * server, answers read back from an interrupted run included, and stops
 * with a message that names the flag.
 */
import { statSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STATE_FILE } from '../../src/pull/state.ts';
import { tempDir } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';
import { startScriptedServer, type Scripted } from '../support/scripted-server.ts';

const EMPTY_LIST = JSON.stringify({ count: 0, next: null, previous: null, results: [] });

/** An instance whose project list announces a million projects, about 10 KB a page, without end. */
function endlessProjects(request: IncomingMessage): Scripted {
  const origin = `http://127.0.0.1:${request.socket.localPort}`;
  const path = request.url ?? '/';
  if (path === '/api/')
    return {
      status: 200,
      body: JSON.stringify({
        projects: `${origin}/api/projects/`,
        languages: `${origin}/api/languages/`,
      }),
    };
  if (path === '/api/languages/') return { status: 200, body: EMPTY_LIST };
  const page = /^\/api\/projects\/(?:\?page=(\d+))?$/.exec(path);
  if (!page) return { status: 404, body: '{"detail":"Not found."}' };
  const n = Number(page[1] ?? 1);
  // Guarded, so that a pull without the cap ends: 2,000 pages, 20 MB.
  const next = n < 2000 ? `${origin}/api/projects/?page=${n + 1}` : null;
  const results = Array.from({ length: 100 }, (_, i) => ({
    name: `Project ${n}-${i}`,
    slug: `p${n}-${i}`,
    web_url: `${origin}/projects/p${n}-${i}/`,
    components_list_url: `${origin}/api/projects/p${n}-${i}/components/`,
  }));
  return { status: 200, body: JSON.stringify({ count: 1_000_000, next, previous: null, results }) };
}

describe('pull --max-bytes', () => {
  it('stops once it has read --max-bytes in all, resumed answers included, naming the flag', async () => {
    const server = await startScriptedServer(endlessProjects);
    const out = join(tempDir(), 'mirror');
    const args = ['--from', `${server.url}/api/`, '--out', out, '--max-bytes', '200K'];
    try {
      const first = await runCli('pull', args);
      expect(first.stderr).toContain(
        'The pull stopped after reading 200 KiB from the server (answers kept by an interrupted pull included), all that --max-bytes allows; give a larger --max-bytes to read more.',
      );
      expect(first.code).toBe(1);
      const size = statSync(join(out, STATE_FILE)).size;
      // The bodies, and a line's URL and status around each.
      expect(size).toBeLessThanOrEqual(210 * 1024);
      const asked = server.log.length;
      expect(asked).toBeLessThan(30);

      // The same cap again: what the file holds counts, so one more page is all it reads.
      const second = await runCli('pull', args);
      expect(second.code).toBe(1);
      expect(second.stderr).toContain('all that --max-bytes allows');
      expect(server.log.length - asked).toBeLessThanOrEqual(1);
      expect(statSync(join(out, STATE_FILE)).size).toBe(size);
    } finally {
      await server.close();
    }
  });

  it('refuses a size it cannot read, naming the flag', async () => {
    const result = await runCli('pull', [
      '--from',
      'http://127.0.0.1:9/api/',
      '--out',
      join(tempDir(), 'm'),
      '--max-bytes',
      'lots',
    ]);
    expect(result.stderr).toBe(
      '--max-bytes expects a size in bytes, such as 500M or 8G (K, M and G are KiB, MiB and GiB; got "lots")\n' +
        'Run `npm run pull -- --help` for the options.\n',
    );
    expect(result.code).toBe(1);
  });
});
