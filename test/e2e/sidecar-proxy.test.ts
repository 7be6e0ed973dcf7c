/**
 * The reverse-proxy setup of docs/sidecar.md, for real: one nginx with the
 * tree's generated server block (reads, from the folder the sidecar keeps up
 * to date) and the front server the page shows, which sends GET and HEAD there
 * and every other method to the sidecar. One URL does everything: every
 * resource and error as a good host serves it, and writes through the same
 * URL, visible to the next read. Skipped, as the other nginx tests, where
 * nginx is missing outside CI.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.ts';
import {
  call,
  expectJson,
  JSON_BODY,
  AUTH,
  startSidecar,
  workspace,
  type RunningSidecar,
} from '../sidecar/support.ts';
import { fixtureTree } from '../unit/hosts/tree.ts';
import {
  freePort,
  itServesTheSnapshot,
  nginxArgs,
  nginxMainConfig,
  startServer,
  type BuiltFixture,
  type Started,
} from './servers.ts';

const nginxFound = spawnSync('nginx', ['-v']).status === 0;

describe.runIf(nginxFound || process.env.CI)(
  'nginx in front of the tree and the sidecar, as docs/sidecar.md sets it up',
  () => {
    const space = workspace();
    let built: BuiltFixture;
    let sidecar: RunningSidecar;
    let nginx: Started | undefined;
    let api: string;

    beforeAll(async () => {
      const [front, tree, sidecarPort] = [await freePort(), await freePort(), await freePort()];
      const baseUrl = `http://127.0.0.1:${front}/mirror`;
      api = `${baseUrl}/api/`;
      sidecar = await startSidecar(space, {
        args: ['--base-url', baseUrl, '--port', String(sidecarPort)],
      });
      const prefix = join(space.dir, 'nginx');
      mkdirSync(join(prefix, 'temp'), { recursive: true });
      const generated = readFileSync(join(space.out, 'hosts/nginx/weblate-snapshot.conf'), 'utf8')
        .replace(/^( {4}root ).*;$/m, `$1${space.out};`)
        .replace(/^( {4}listen ).*;$/m, `$1127.0.0.1:${tree};`);
      writeFileSync(join(prefix, 'weblate-snapshot.conf'), generated);
      writeFileSync(join(prefix, 'front.conf'), documentedFrontConfig(front, tree, sidecarPort));
      writeFileSync(
        join(prefix, 'nginx.conf'),
        nginxMainConfig(prefix, ['weblate-snapshot.conf', 'front.conf']),
      );
      const args = nginxArgs(prefix);
      nginx = await startServer('nginx', args, `http://127.0.0.1:${front}/`);
      built = {
        origin: `http://127.0.0.1:${front}`,
        out: space.out,
        tree: await fixtureTree(space.content, { baseUrl }),
      };
    });
    afterAll(async () => {
      await nginx?.stop();
      await sidecar?.stop();
    });

    itServesTheSnapshot(() => built);

    it('takes writes at the same URL and serves what they changed on the next read', async () => {
      const patched = await call(`${api}languages/de/`, 'PATCH', { name: 'Deutsch' }, JSON_BODY);
      expect(patched.status).toBe(200);
      expect(JSON.parse((await call(`${api}languages/de/`)).text).name).toBe('Deutsch');
      expect(
        (await call(`${api}translations/alpha/strings/cs/`, 'DELETE', undefined, AUTH)).status,
      ).toBe(204);
      expect((await call(`${api}translations/alpha/strings/cs/`)).status).toBe(404);
      expectJson(
        await call(`${api}languages/`, 'POST', {}, { 'Content-Type': 'application/json' }),
        401,
        {
          detail: 'Authentication credentials were not provided.',
        },
      );
      expect(JSON.parse((await call(`${api}languages/`, 'OPTIONS')).text).name).toBe(
        'Language List',
      );
    });
  },
);

/** The front server block docs/sidecar.md shows, with the ports of this test. */
function documentedFrontConfig(front: number, tree: number, sidecar: number): string {
  const page = readFileSync(join(ROOT, 'docs/sidecar.md'), 'utf8');
  const block = /```nginx\n(# weblate-snapshot-sidecar\.conf[\s\S]*?)```/.exec(page)?.[1];
  if (!block) throw new Error('docs/sidecar.md has no weblate-snapshot-sidecar.conf block');
  return block
    .replace('server 127.0.0.1:8080;', `server 127.0.0.1:${tree};`)
    .replace('server 127.0.0.1:8081;', `server 127.0.0.1:${sidecar};`)
    .replace(/listen 443 ssl;\n/, `listen 127.0.0.1:${front};\n`)
    .replace(/ {4}ssl_certificate.*\n/g, '')
    .replace('server_name l10n.example.org;', 'server_name 127.0.0.1;');
}
