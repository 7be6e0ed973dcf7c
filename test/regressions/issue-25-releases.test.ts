/**
 * Issue 25, item 1: `weblate_version` takes any release from 4.14 to the newest, in site.yaml and
 * --weblate-version; an unknown one is refused naming the range, and the one number YAML reads
 * wrongly (5.10 as 5.1) must be quoted. "4" and "2026.8" build what they built before (the
 * goldens), and a release before 4.16 or at 4.16 and later shows the plural types of its time.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NEWEST_RELEASE, RELEASE_RANGE } from '../../src/model/releases.ts';
import { buildInMemory, tempDir, writeFiles } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';

function content(version: string): string {
  const dir = join(tempDir(), 'content');
  writeFiles(dir, {
    'site.yaml': `base_url: https://l10n.test\nweblate_version: ${version}\n`,
    'projects/p/project.yaml': 'name: P\n',
    'projects/p/components/c.yaml': [
      'name: C',
      'source_language: en',
      'repo: https://git.example.org/p.git',
      'filemask: po/*.po',
      'file_format: po',
      'source: {total: 2}',
      'translations:',
      '  pl: {translated: 1}',
      '',
    ].join('\n'),
  });
  return dir;
}

describe('weblate_version as a release', () => {
  it.each([
    '"4.14"',
    '4.18',
    '"5.0"',
    '"5.4.3"',
    '"5.10"',
    '"5.17.1"',
    '2026.5',
    `"${NEWEST_RELEASE}"`,
  ])('site.yaml with %s builds', async (version) => {
    const built = await buildInMemory(content(version));
    expect(built.report.errors).toEqual([]);
    expect(built.files.has('api/index.json')).toBe(true);
  });

  it('refuses a release outside the table with the range', async () => {
    const dir = content('"5.18"');
    const result = await runCli('check', ['--content', dir]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`weblate_version  expected ${RELEASE_RANGE} (got "5.18")`);
  });

  it('asks for quotes around 5.10 written as a number', async () => {
    const dir = content('5.10');
    const result = await runCli('check', ['--content', dir]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'weblate_version  expected "5.1" or "5.10" in quotes (YAML reads unquoted 5.10 as 5.1)',
    );
  });

  it('takes --weblate-version 5.10 on check', async () => {
    const result = await runCli('check', [
      '--content',
      content('"4"'),
      '--weblate-version',
      '5.10',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('gives Polish plural type 2 before 4.16 and 22 from 4.16', async () => {
    const type = async (version: string) => {
      const built = await buildInMemory(content(version));
      const body = JSON.parse(built.files.get('api/languages/pl/index.json')!.toString()) as {
        plural: { type: number };
      };
      return body.plural.type;
    };
    expect(await type('"4.15"')).toBe(2);
    expect(await type('"4.16"')).toBe(22);
    expect(await type('"4"')).toBe(2);
  });
});
