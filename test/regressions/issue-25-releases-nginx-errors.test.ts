/**
 * Issue 25, trait standardizedErrors, on nginx: the configuration took its error bodies from the
 * release's shapes, so a 5.0-5.9 tree (today's shapes) answered 5.10's drf-standardized-errors
 * form where Weblate of those releases answers DRF's `{"detail": …}`.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, tempDir } from '../helpers.ts';
import {
  buildFor,
  freePort,
  get,
  type BuiltFixture,
  type Started,
  startNginxForTree,
} from '../e2e/servers.ts';

const nginxFound = spawnSync('nginx', ['-v']).status === 0;
const CONTENT = join(FIXTURES, 'release-2026.11/content');

describe.runIf(nginxFound || process.env.CI).each([
  [
    '5.4',
    '{"detail":"Not found."}\n',
    '{"detail":"Authentication credentials were not provided."}\n',
  ],
  [
    '5.10',
    '{"type":"client_error","errors":[{"code":"not_found","detail":"Not found.","attr":null}]}\n',
    '{"type":"client_error","errors":[{"code":"not_authenticated","detail":"Authentication credentials were not provided.","attr":null}]}\n',
  ],
])('nginx of a %s tree', (release, notFound, notAuthenticated) => {
  const work = tempDir('wsnap-release-errors-nginx-');
  const out = join(work, 'dist');
  let built: BuiltFixture;
  let server: Started | undefined;
  const api = () => `${built.origin}/mirror/api`;

  beforeAll(async () => {
    built = await buildFor(CONTENT, await freePort(), out, ['--weblate-version', release]);
    server = await startNginxForTree(out, join(work, 'nginx'), built.origin);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers a missing object with the release’s 404 body', async () => {
    const answer = await get(`${api()}/projects/no-such-project/`);
    expect(answer.status).toBe(404);
    expect(answer.text).toBe(notFound);
  });

  it('answers an anonymous write with the release’s 401 body', async () => {
    const answer = await get(`${api()}/projects/hello/`, { method: 'DELETE' });
    expect(answer.status).toBe(401);
    expect(answer.text).toBe(notAuthenticated);
  });
});
