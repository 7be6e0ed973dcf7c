/**
 * Issue 16, item 1: "any other value is a content or usage error naming the allowed ones". A
 * weblate_version in site.yaml that names no release of the table (issue 25 widened it from "4"
 * and "2026.8") is an error at its line and column, and --weblate-version with another value is
 * a usage error of build, check and the sidecar, each naming the range, before any work.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RELEASE_RANGE } from '../../src/model/releases.ts';
import { tempDir, writeFiles } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';
import { runScript } from '../support/run-script.ts';

function content(version: string): string {
  const dir = join(tempDir(), 'content');
  writeFiles(dir, {
    'site.yaml': `base_url: https://l10n.test\nweblate_version: ${version}\n`,
    'projects/p/project.yaml': 'name: P\n',
  });
  return dir;
}

describe('weblate_version values', () => {
  it.each([
    ['"5.18"', '"5.18"'],
    ['4.13', '4.13'],
  ])('site.yaml with %s is a content error at its place', async (version, got) => {
    const dir = content(version);
    const result = await runCli('check', ['--content', dir]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `${dir}/site.yaml:2:18  weblate_version  expected ${RELEASE_RANGE} (got ${got})\n1 error in the content; nothing was written.\n`,
    );
  });

  it('takes 2026.8 unquoted (a YAML number) as "2026.8"', async () => {
    expect((await runCli('check', ['--content', content('2026.8')])).code).toBe(0);
  });

  it.each([
    ['build', ['--out', 'OUT']],
    ['check', []],
    ['sidecar', ['--out', 'OUT', '--read-only', '--port', '0']],
  ])(
    '%s --weblate-version 5 is a usage error naming the range, and writes nothing',
    async (script, args) => {
      const dir = content('"4"');
      const out = join(tempDir(), 'dist');
      const result = await runScript(script, [
        '--content',
        dir,
        ...args.map((arg) => (arg === 'OUT' ? out : arg)),
        '--weblate-version',
        '5',
      ]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`--weblate-version expects ${RELEASE_RANGE} (got "5")`);
      expect(existsSync(out)).toBe(false);
    },
  );
});
