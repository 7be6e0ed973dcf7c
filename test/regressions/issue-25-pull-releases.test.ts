/**
 * Issue 25, item 3: a pull copies the release it reads. For a release of each range of the table,
 * a small tree (test/fixtures/release-2026.11, its release set by flag) is served by the real
 * sidecar on loopback, pulled with the real command, and the pull builds into the same API files
 * byte for byte. site.yaml names the release the pull told from the root and the large pages;
 * 4.x instances stay "4", whose API is every 4.x release's.
 */
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { build } from '../../src/build.ts';
import { dirTarget } from '../../src/output/target.ts';
import { FIXTURES, readTree, tempDir } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';
import { startUpstreamSidecar, type UpstreamSidecar } from '../sidecar/support.ts';

let sidecar: UpstreamSidecar | undefined;

afterEach(async () => {
  await sidecar?.stop();
  sidecar = undefined;
});

const apiFiles = (tree: Map<string, string>) =>
  new Map([...tree].filter(([path]) => path.startsWith('api/')));

describe.each([
  ['4.14', null],
  ['4.18', null],
  ['5.0', '5.0'],
  ['5.4', '5.4'],
  ['5.10', '5.10'],
  ['5.17', '5.11'],
  ['2026.8', '2026.8'],
  ['2026.11', '2026.11'],
])('a pull of a %s instance', (release, written) => {
  it('writes the release it told and rebuilds the API byte for byte', async () => {
    const dir = tempDir();
    const space = { dir, content: join(dir, 'content'), out: join(dir, 'served') };
    cpSync(join(FIXTURES, 'release-2026.11/content'), space.content, { recursive: true });
    sidecar = await startUpstreamSidecar(space, {
      args: ['--read-only', '--weblate-version', release],
      env: { WEBLATE_SNAPSHOT_TOKENS: '' },
    });
    const pulled = join(dir, 'pulled');
    const result = await runCli('pull', ['--from', sidecar.api, '--out', pulled]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const site = readFileSync(join(pulled, 'site.yaml'), 'utf8');
    if (written === null) expect(site).not.toContain('weblate_version');
    else expect(site).toContain(`\nweblate_version: "${written}"\n`);

    const rebuilt = join(dir, 'rebuilt');
    const report = await build({ contentDir: pulled }, { target: dirTarget(rebuilt) });
    expect(report.errors).toEqual([]);
    const actual = apiFiles(readTree(rebuilt));
    const expected = apiFiles(readTree(space.out));
    expect([...actual.keys()]).toEqual([...expected.keys()]);
    for (const [path, text] of expected) expect(actual.get(path), path).toBe(text);
  });
});
