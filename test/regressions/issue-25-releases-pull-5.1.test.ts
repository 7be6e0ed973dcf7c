/**
 * Issue 25, item 1: a pull mirrors Weblate 5.0 and 5.1, which serve today's objects beside 4.x's
 * 21 statistics counters (trait statistics33). A 5.1 tree served by the real sidecar on loopback is
 * pulled with the real command: the pull writes "5.1" (5.0.1 and 5.1 serve the same API), the
 * pull rebuilds into the same API files byte for byte, and a second pull into it keeps "5.1".
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

describe('a pull of a Weblate 5.1 instance', () => {
  it('writes 5.1, rebuilds the API byte for byte, and keeps 5.1 on the next pull', async () => {
    const dir = tempDir();
    const space = { dir, content: join(dir, 'content'), out: join(dir, 'served') };
    cpSync(join(FIXTURES, 'release-2026.11/content'), space.content, { recursive: true });
    sidecar = await startUpstreamSidecar(space, {
      args: ['--read-only', '--weblate-version', '5.1'],
      env: { WEBLATE_SNAPSHOT_TOKENS: '' },
    });
    const served = await fetch(`${sidecar.api}translations/hello/app/cs/statistics/`);
    const statistics = Object.keys((await served.json()) as object);
    expect(statistics.indexOf('total_chars')).toBe(10);
    expect(statistics).not.toContain('fuzzy_chars');

    const pulled = join(dir, 'pulled');
    for (const run of ['first', 'second']) {
      const result = await runCli('pull', ['--from', sidecar.api, '--out', pulled]);
      expect(result.stderr, run).toBe('');
      expect(result.code, run).toBe(0);
      const site = readFileSync(join(pulled, 'site.yaml'), 'utf8');
      expect(site, run).toContain('\nweblate_version: "5.1"\n');
    }

    const rebuilt = join(dir, 'rebuilt');
    const report = await build({ contentDir: pulled }, { target: dirTarget(rebuilt) });
    expect(report.errors).toEqual([]);
    const actual = apiFiles(readTree(rebuilt));
    const expected = apiFiles(readTree(space.out));
    expect([...actual.keys()]).toEqual([...expected.keys()]);
    for (const [path, text] of expected) expect(actual.get(path), path).toBe(text);
  });
});
