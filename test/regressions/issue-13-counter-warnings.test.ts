/**
 * Issue 13, item 6: counters left out count as 0 without a word: `translated: 150` without
 * `translated_chars` gave a translated-characters share of 0.0 beside 68.4% of strings. 0 stays the
 * rule, but build and check now warn where a count is given and its words or characters are left
 * out while the source has them; --strict makes the warnings errors.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, writeFiles } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';

function content(): string {
  const dir = join(tempDir(), 'content');
  writeFiles(dir, {
    'site.yaml': 'base_url: https://l10n.example.org\n',
    'projects/p/project.yaml': 'name: P\n',
    'projects/p/components/c.yaml': [
      'name: C',
      'source_language: en',
      'repo: https://git.example.org/c.git',
      'filemask: po/*.po',
      'file_format: po',
      'source: {total: 219, total_words: 900, total_chars: 5000}',
      'translations:',
      '  cs:',
      '    translated: 150',
      '    translated_words: 600',
      '  de: {translated: 10, translated_words: 40, translated_chars: 200, fuzzy: 0}',
      '',
    ].join('\n'),
  });
  return dir;
}

describe('counters given without their words or characters', () => {
  it('build warns at the count, naming what was left out and what it counts as, and builds', async () => {
    const dir = content();
    const out = join(tempDir(), 'dist');
    const result = await runCli('build', ['--content', dir, '--out', out]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      `warning: ${dir}/projects/p/components/c.yaml:9:17  translations.cs.translated  expected translated_chars beside translated ` +
        '(got translated 150 and no translated_chars: counted as 0 of the 5000 characters in the source)\n' +
        '1 warning: the build goes on (--strict makes warnings errors).\n',
    );
    expect(existsSync(join(out, 'api/index.json'))).toBe(true);
  });

  it('check --strict refuses, and build --strict writes nothing', async () => {
    const dir = content();
    const checked = await runCli('check', ['--content', dir, '--strict']);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain(
      'translations.cs.translated  expected translated_chars beside translated',
    );
    expect(checked.stderr).toContain('1 error in the content; nothing was written.');
    const out = join(tempDir(), 'dist');
    expect((await runCli('build', ['--content', dir, '--out', out, '--strict'])).code).toBe(1);
    expect(existsSync(out)).toBe(false);
  });
});
