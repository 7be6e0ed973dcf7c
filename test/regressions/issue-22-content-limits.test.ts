/**
 * Issue 22, item 8 (content): a plural formula of 20,000 terms passed `check`
 * and then overflowed the stack of every build, and counters whose sums pass
 * 2^53 passed `check` and crashed `build` with a stack trace. Both are now
 * content errors at their line, from `check` and `build` alike (exit 1).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, writeFiles } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';

const SITE = { 'site.yaml': 'base_url: https://l10n.test\n' };
const PROJECT = { 'projects/p/project.yaml': 'name: P\n' };
const BASE =
  'source_language: en\nrepo: https://git.test/r.git\nfile_format: po\nsource: {total: 4}\n';
const component = (slug: string, translations: string) => ({
  [`projects/p/components/${slug}.yaml`]: `name: ${slug}\n${BASE}filemask: ${slug}/*.po\ntranslations:\n${translations}`,
});

/** `check` and `build` of `files`: both exit 1 with `message`, and neither prints a stack. */
async function expectRefused(files: Record<string, string>, message: string) {
  const dir = tempDir();
  const content = join(dir, 'content');
  writeFiles(content, files);
  for (const [script, args] of [
    ['check', ['--content', content]],
    ['build', ['--content', content, '--out', join(dir, 'dist')]],
  ] as const) {
    const result = await runCli(script, [...args]);
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toMatch(/Internal error|RangeError|\n\s+at /);
    expect(result.code).toBe(1);
  }
}

describe('content past the limits that keep a build exact and its stack bounded', () => {
  it('refuses a plural formula longer than 1000 characters at its line', async () => {
    const formula = Array.from({ length: 20_000 }, (_, i) => `n == ${i}`).join(' || ');
    await expectRefused(
      {
        ...SITE,
        ...PROJECT,
        'languages/xx.yaml': `name: X\nplural:\n  number: 2\n  formula: ${formula}\n`,
        ...component('c', '  xx: {translated: 1}\n'),
      },
      'content/languages/xx.yaml:4:12  plural.formula  expected a gettext plural formula of at most 1000 characters (got "n == 0 || n == 1',
    );
  });

  it('refuses a counter above 2^32 - 1 at its line, before sums lose their exactness', async () => {
    const big = 2 ** 52;
    const files = (slug: string) => ({
      [`projects/p/components/${slug}.yaml`]:
        `name: ${slug}\n${BASE.replace('{total: 4}', `{total: ${big}}`)}filemask: ${slug}/*.po\n` +
        `translations:\n  cs: {translated: ${big}}\n`,
    });
    await expectRefused(
      { ...SITE, ...PROJECT, ...files('a'), ...files('b') },
      `content/projects/p/components/a.yaml:5:17  source.total  expected a non-negative integer of at most 4294967295 (got ${big})`,
    );
  });
});
