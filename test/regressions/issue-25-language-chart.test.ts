/**
 * Issue 25, item 2: current Weblate draws a chart asked for at a language's prefix
 * (`/widget/<p>/-/<l>/multi-auto.svg`, and `/widget/<p>/<c>/<l>/…`) from that language's
 * statistics alone, where 4.x drew every language. The build writes those charts, and the
 * preview and nginx, which look for a chart's own file first, serve them.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInMemory, FIXTURES, scriptArgs, tempDir } from '../helpers.ts';
import {
  buildFor,
  freePort,
  get,
  nginxArgs,
  nginxMainConfig,
  startServer,
  type Started,
} from '../e2e/servers.ts';

const CONTENT = join(FIXTURES, 'release-5.10/content');
const nginxFound = spawnSync('nginx', ['-v']).status === 0;

/** The language names a chart draws a row for. */
function rowsOf(svg: string): string[] {
  return [...svg.matchAll(/<title>([^<:]+): \d+%<\/title>/g)].map((match) => match[1]!);
}

describe('a 5.10 tree', () => {
  it("draws a project language's chart with that language's row alone", async () => {
    const built = await buildInMemory(CONTENT);
    const project = built.files.get('widget/hello/multi-auto.svg')!;
    expect(rowsOf(project).length).toBeGreaterThan(1);
    const language = built.files.get('widget/hello/-/cs/horizontal-red.svg')!;
    expect(rowsOf(language)).toEqual(['Czech']);
    expect(language).toContain('href="https://weblate.example.org/mirror/projects/hello/-/cs/"');
    const translation = built.files.get('widget/hello/app/de/multi-auto.svg')!;
    expect(rowsOf(translation)).toEqual(['German']);
    expect(translation).toContain(
      'href="https://weblate.example.org/mirror/translate/hello/app/de/"',
    );
  });

  it('keeps every language in a 2026.8 tree, as that name always built', async () => {
    const built = await buildInMemory(CONTENT, { weblateVersion: '2026.8' });
    expect(built.files.has('widget/hello/-/cs/multi-auto.svg')).toBe(false);
  });
});

describe('serving a 5.10 tree', () => {
  const work = tempDir('wsnap-language-chart-');
  const out = join(work, 'dist');
  let origin = '';
  const servers: Started[] = [];
  let nginxOrigin = '';

  beforeAll(async () => {
    const port = await freePort();
    origin = (await buildFor(CONTENT, port, out)).origin;
    servers.push(
      await startServer(
        process.execPath,
        [...scriptArgs('serve'), '--out', out, '--port', String(port)],
        `${origin}/`,
      ),
    );
    if (!nginxFound) return;
    // The same tree behind nginx, on a port of its own: its links still name the preview's.
    const nginxPort = await freePort();
    nginxOrigin = `http://127.0.0.1:${nginxPort}`;
    const prefix = join(work, 'nginx');
    mkdirSync(join(prefix, 'temp'), { recursive: true });
    const generated = readFileSync(join(out, 'hosts/nginx/weblate-snapshot.conf'), 'utf8');
    writeFileSync(
      join(prefix, 'weblate-snapshot.conf'),
      generated
        .replace(/^( {4}root ).*;$/m, `$1${out};`)
        .replace(/^( {4}listen ).*;$/m, `$1127.0.0.1:${nginxPort};`),
    );
    writeFileSync(join(prefix, 'nginx.conf'), nginxMainConfig(prefix, ['weblate-snapshot.conf']));
    servers.push(await startServer('nginx', nginxArgs(prefix), `${nginxOrigin}/`));
  });
  afterAll(async () => {
    for (const server of servers) await server.stop();
  });

  it.each(['preview', 'nginx'])(
    "answers a language's chart with its own file (%s)",
    async (host) => {
      if (host === 'nginx' && !nginxFound) return;
      const at = host === 'nginx' ? nginxOrigin : origin;
      const answer = await get(`${at}/mirror/widget/hello/-/cs/multi-auto.svg`);
      expect(answer.status).toBe(200);
      expect(answer.text).toBe(readFileSync(join(out, 'widget/hello/-/cs/multi-auto.svg'), 'utf8'));
      expect(rowsOf(answer.text)).toEqual(['Czech']);
    },
  );
});
