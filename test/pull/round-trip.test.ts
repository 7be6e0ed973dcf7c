/**
 * Round trips, the promise of `npm run pull`: build a content folder, serve
 * it like Weblate on loopback (the real sidecar, read-only, over the same
 * content), pull it with the real command into a new folder, build that
 * folder, and get the same tree byte for byte. Cases cover path pages,
 * `?page=N` pages, and page sizes small enough that every list is followed
 * through many pages.
 */
import { appendFileSync, cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../../src/build.ts';
import { openContent } from '../../src/resolve/open.ts';
import type { SettingsOverrides } from '../../src/resolve/resolve.ts';
import { dirTarget } from '../../src/output/target.ts';
import { STATE_FILE } from '../../src/pull/state.ts';
import { freePort } from '../e2e/servers.ts';
import { FIXTURES, readTree, ROOT, tempDir } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';
import { startUpstreamSidecar } from '../sidecar/support.ts';

/**
 * The server that plays Weblate: the sidecar over a copy of the fixture, its tree built for
 * `baseUrl` with the same settings. The copy names the server as where translating happens,
 * as a pull writes it, so the status site's translate pages read the same after the trip.
 */
async function serveLikeWeblate(fixture: string, dir: string, settings: SettingsOverrides) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const content = join(dir, 'content');
  cpSync(fixture, content, { recursive: true });
  appendFileSync(join(content, 'site.yaml'), `\nedit_url: ${url}\n`);
  const flags = ['--base-url', url, '--port', String(port), '--read-only'];
  if (settings.pagination) flags.push('--pagination', settings.pagination);
  if (settings.pageSize) flags.push('--page-size', String(settings.pageSize));
  const sidecar = await startUpstreamSidecar(
    { dir, content, out: join(dir, 'served') },
    { args: flags, env: { WEBLATE_SNAPSHOT_TOKENS: '' } },
  );
  return { url, content, close: async () => void (await sidecar.stop()) };
}

const cases: [string, string, SettingsOverrides][] = [
  ['the default content', join(ROOT, 'content'), {}],
  ['fixture "features" (path pages of 2)', join(FIXTURES, 'features/content'), {}],
  [
    'fixture "query-pagination" (?page=N, pages of 1)',
    join(FIXTURES, 'query-pagination/content'),
    {},
  ],
  [
    'fixture "features" with ?page=N and pages of 1',
    join(FIXTURES, 'features/content'),
    { pagination: 'query', pageSize: 1 },
  ],
  ['fixture "minimal"', join(FIXTURES, 'minimal/content'), {}],
];

describe.each(cases)('a round trip of %s', (_, fixture, settings) => {
  it('pulls content that passes the checks and builds into the tree it was pulled from, byte for byte', async () => {
    const dir = tempDir();
    const original = join(dir, 'original');
    const server = await serveLikeWeblate(fixture, dir, settings);
    const contentDir = server.content;
    try {
      const built = await build(
        { contentDir, settings: { ...settings, baseUrl: server.url } },
        { target: dirTarget(original) },
      );
      expect(built.errors).toEqual([]);

      const pulled = join(dir, 'pulled');
      const result = await runCli('pull', ['--from', `${server.url}/api/`, '--out', pulled]);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(
        /^Pulled \d+ projects?, \d+ components?, \d+ translations? and \d+ languages? from /,
      );
      expect(existsSync(join(pulled, STATE_FILE))).toBe(false);
      expect((await openContent(pulled)).ok).toBe(true);

      const rebuilt = join(dir, 'rebuilt');
      expect((await build({ contentDir: pulled }, { target: dirTarget(rebuilt) })).errors).toEqual(
        [],
      );
      expectSameTree(readTree(rebuilt), readTree(original));
      expectSameTree(readTree(join(dir, 'served')), readTree(original));
    } finally {
      await server.close();
    }
  });
});

function expectSameTree(actual: Map<string, string>, expected: Map<string, string>): void {
  expect([...actual.keys()]).toEqual([...expected.keys()]);
  for (const [path, text] of expected) expect(actual.get(path), path).toBe(text);
}
