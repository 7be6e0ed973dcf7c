/**
 * A real nginx with the configuration the build wrote, included in a main
 * file of its own and started as any user can: prefix, logs, temporary
 * folders and pid file in a temporary folder, on a free loopback port, in
 * the foreground. Its `root` is set the way docs/hosting.md says to. Every
 * resource, `?page=N`, the JSON 404s, 405 and a crawl of every link.
 * Without nginx the tests fail under CI (.ci/run installs it) and are
 * skipped, loudly, elsewhere.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, tempDir } from '../helpers.ts';
import { CURRENT_FIXTURE } from '../unit/hosts/tree.ts';
import {
  buildFor,
  errorBodyOf,
  freePort,
  get,
  itServesTheSnapshot,
  type BuiltFixture,
  type Started,
  startNginxForTree,
} from './servers.ts';

const nginxFound = spawnSync('nginx', ['-v']).status === 0;

if (!nginxFound && !process.env.CI) {
  console.warn(
    '\n*** nginx is not installed: the nginx end-to-end tests are SKIPPED. Install it with apt-get install nginx. ***\n',
  );
}

it.skipIf(!nginxFound && !process.env.CI)(
  'finds nginx (under CI, .ci/run installs it with apt-get)',
  () => {
    expect(nginxFound, 'nginx is not installed').toBe(true);
  },
);

const fixtures = [
  [
    'features (pagination: path, API under /mirror, ca@valencia)',
    join(FIXTURES, 'features/content'),
  ],
  ['query-pagination (?page=N, page size 1)', join(FIXTURES, 'query-pagination/content')],
  [CURRENT_FIXTURE[0], CURRENT_FIXTURE[1]],
] as const;

describe.runIf(nginxFound).each(fixtures)('nginx serving %s', (_, contentDir) => {
  const work = tempDir('wsnap-nginx-');
  const out = join(work, 'dist');
  let built: BuiltFixture;
  let server: Started | undefined;

  beforeAll(async () => {
    const port = await freePort();
    built = await buildFor(contentDir, port, out);
    server = await startNginxForTree(out, join(work, 'nginx'), built.origin);
  });
  afterAll(async () => {
    await server?.stop();
  });

  itServesTheSnapshot(() => built);

  if (contentDir !== CURRENT_FIXTURE[1]) return;
  it('answers as Weblate 2026.8: OPTIONS 405, refused reads 401 and 403, WWW-Authenticate only on a 401', async () => {
    const api = `${built.origin}${built.tree.base}/api`;
    const options = await get(`${api}/languages/`, { method: 'OPTIONS' });
    expect(options.status).toBe(405);
    expect(options.text).toBe(
      errorBodyOf(built, 'method_not_allowed', 'Method "OPTIONS" not allowed.'),
    );
    const repository = await get(`${api}/components/docs/guides%252Fmanual/repository/`);
    expect(repository.status).toBe(403);
    expect(repository.text).toBe(
      errorBodyOf(built, 'permission_denied', 'You do not have permission to perform this action.'),
    );
    expect(repository.headers.get('www-authenticate')).toBeNull();
    const reports = await get(`${api}/categories/5/reports/`);
    expect(reports.status).toBe(401);
    expect(reports.headers.get('www-authenticate')).toBe('Token');
    expect((await get(`${api}/nope/`)).headers.get('www-authenticate')).toBeNull();
    // A bare %2F is a slash to nginx: no component has that path.
    expect((await get(`${api}/components/docs/guides%2Fmanual/`)).status).toBe(404);
  });
});
