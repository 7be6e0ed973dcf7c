/**
 * Issue 22, item 11: a base URL with `%XX` in its path gave an nginx configuration whose locations
 * never match (nginx matches the decoded path), so it answered 404 to everything. Such a base URL
 * is refused, in site.yaml and as a flag, before anything is written.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkBaseUrl } from '../../src/content/base-url.ts';
import { tempDir, writeFiles } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';

const ESCAPES = 'whose path has no %XX escapes (hosts match the decoded path';

describe('a base URL with %XX escapes in its path', () => {
  it.each(['https://example.org/a%20b', 'https://example.org/l10n%2Fapi', 'http://host/%7Eme/'])(
    'is refused: %s',
    (url) => {
      const checked = checkBaseUrl(url);
      expect(checked.ok).toBe(false);
      expect(!checked.ok && checked.expected).toContain(ESCAPES);
    },
  );

  it('is refused in site.yaml at its line, and as --base-url, writing nothing', async () => {
    const content = join(tempDir(), 'content');
    writeFiles(content, {
      'site.yaml': 'base_url: https://example.org/my%20l10n\n',
      'projects/p/project.yaml': 'name: P\n',
    });
    const out = join(tempDir(), 'dist');
    const fromFile = await runCli('build', ['--content', content, '--out', out]);
    expect(fromFile.code).toBe(1);
    expect(fromFile.stderr).toContain(`${join(content, 'site.yaml')}:1:11  base_url  expected an`);
    expect(fromFile.stderr).toContain(ESCAPES);
    const fromFlag = await runCli('build', [
      ...['--content', content, '--out', out],
      ...['--base-url', 'https://example.org/l10n%2D1'],
    ]);
    expect(fromFlag.code).toBe(1);
    expect(fromFlag.stderr).toContain(ESCAPES);
    expect(fromFlag.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(out)).toBe(false);
  });
});
