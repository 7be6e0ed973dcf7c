/**
 * Issue 25, item 3 (trait standardizedErrors): Weblate answered errors with DRF's `{"detail": …}`
 * until 5.9; 5.10 brought drf-standardized-errors. The tree's static 404 and the real sidecar on
 * loopback answer in the form of the release they were given, and so does the preview of a tree
 * built in it (the tree's kept settings name its release; its API root alone cannot).
 */
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startPreview } from '../../src/preview/preview.ts';
import { buildInMemory, FIXTURES, tempDir } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';
import { startUpstreamSidecar, type UpstreamSidecar } from '../sidecar/support.ts';

let sidecar: UpstreamSidecar | undefined;
let closePreview: (() => Promise<void>) | undefined;

afterEach(async () => {
  await sidecar?.stop();
  sidecar = undefined;
  await closePreview?.();
  closePreview = undefined;
});

const DRF_NOT_FOUND = '{"detail":"Not found."}\n';
const STANDARD_NOT_FOUND =
  '{"type":"client_error","errors":[{"code":"not_found","detail":"Not found.","attr":null}]}\n';

describe.each([
  ['5.0', DRF_NOT_FOUND, { detail: 'Authentication credentials were not provided.' }],
  ['5.9.2', DRF_NOT_FOUND, { detail: 'Authentication credentials were not provided.' }],
  [
    '5.10',
    STANDARD_NOT_FOUND,
    {
      type: 'client_error',
      errors: [
        {
          code: 'not_authenticated',
          detail: 'Authentication credentials were not provided.',
          attr: null,
        },
      ],
    },
  ],
])('errors of a %s tree', (release, notFound, unauthenticated) => {
  it('the static 404 file of the API has the release’s body', async () => {
    const built = await buildInMemory(join(FIXTURES, 'release-2026.11/content'), {
      weblateVersion: release,
    });
    expect(built.report.errors).toEqual([]);
    // With the status site on, the root's 404.html is its page and the API's JSON lies in api/.
    expect(built.files.get('api/404.html')).toBe(notFound);
  });

  it('the sidecar answers a missing object and an anonymous write in the release’s form', async () => {
    const dir = tempDir();
    const space = { dir, content: join(dir, 'content'), out: join(dir, 'served') };
    cpSync(join(FIXTURES, 'release-2026.11/content'), space.content, { recursive: true });
    sidecar = await startUpstreamSidecar(space, {
      args: ['--read-only', '--weblate-version', release],
      env: { WEBLATE_SNAPSHOT_TOKENS: '' },
    });
    const missing = await fetch(`${sidecar.api}projects/nope/`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe(notFound);
    const write = await fetch(`${sidecar.api}projects/hello/languages/`, { method: 'POST' });
    expect(write.status).toBe(401);
    expect(await write.json()).toEqual(unauthenticated);
  });

  it('the preview of a tree built in it answers a missing object in the release’s form', async () => {
    const out = join(tempDir(), 'dist');
    const content = join(FIXTURES, 'release-2026.11/content');
    const built = await runCli('build', [
      '--content',
      content,
      '--out',
      out,
      '--weblate-version',
      release,
    ]);
    expect(built.code, built.stderr).toBe(0);
    const started = await startPreview({ outDir: out, port: 0, bind: '127.0.0.1' });
    if (!started.ok) throw new Error(started.message);
    const { preview } = started;
    closePreview = () => preview.close();
    const missing = await fetch(`${started.preview.url}projects/nope/`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe(notFound);
  });
});
