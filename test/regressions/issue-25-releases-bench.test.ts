/**
 * Issue 25, item 4: `npm run bench --weblate-version` takes any release of the table, checked as
 * `build` checks it: a 5.4 instance is written for 5.4 (categories and all, as from 5.0) and a
 * 4.18 one for 4.18 (no categories); a release outside the table is a usage error.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RELEASE_RANGE } from '../../src/model/releases.ts';
import { tempDir } from '../helpers.ts';
import { compiledTool } from '../support/compiled-tool.ts';
import { runCli } from '../support/run-cli.ts';
import { runScript } from '../support/run-script.ts';

const TINY = ['--projects', '1', '--components', '3', '--languages', '2', '--build-only'];

describe('npm run bench --weblate-version <release>', () => {
  it.each([
    ['5.4', true],
    ['4.18', false],
  ])('builds a synthetic %s instance', async (release, categories) => {
    const dir = tempDir('wsnap-bench-');
    const { code, stdout } = await runScript('bench', [
      ...TINY,
      '--weblate-version',
      release,
      ...['--tool', compiledTool()],
      '--dir',
      dir,
    ]);
    expect(code).toBe(0);
    expect(stdout).toContain(`translations in the ${release} flavour`);
    const content = join(dir, `content-1x3x2-${release}`);
    expect(readFileSync(join(content, 'site.yaml'), 'utf8')).toContain(
      `weblate_version: "${release}"\n`,
    );
    expect(existsSync(join(content, 'projects/project-00001/categories'))).toBe(categories);
  });

  it('refuses 5.18 as build does', async () => {
    const failed = await runCli('bench', ['--weblate-version', '5.18']);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(`--weblate-version expects ${RELEASE_RANGE} (got "5.18")`);
  });
});
