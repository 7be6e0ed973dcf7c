/**
 * Issue 13, item 12: the content folder's walk followed symbolic links (an error quoted the first
 * line of /etc/passwd), two link loops made it grow without end (still at 100% CPU after two
 * minutes), and a folder named with a newline was skipped without a word. Now links are reported
 * and never followed, and a name that cannot be content is reported, each at its path.
 */
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { FIXTURES, tempDir } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';
import { execFileSync } from 'node:child_process';

it('reports links and unfit names at their paths, follows no link, and reads nothing outside the folder', async () => {
  const content = join(tempDir(), 'content');
  execFileSync('cp', ['-r', join(FIXTURES, 'minimal/content'), content]);
  symlinkSync('/etc/passwd', join(content, 'projects/hello/components/passwd.yaml'));
  symlinkSync('..', join(content, 'projects/hello/loop-a'));
  symlinkSync('../..', join(content, 'projects/hello/components/loop-b'));
  mkdirSync(join(content, 'projects/new\nline/components'), { recursive: true });
  const result = await runCli('check', ['--content', content]);
  expect(result.code).toBe(1);
  expect(result.stderr).not.toContain('root:');
  expect(result.stderr.split('\n').slice(0, -1)).toEqual([
    `${content}/projects/hello/components/loop-b:1:1  expected a file or a folder, not a symbolic link (links are not followed)`,
    `${content}/projects/hello/components/passwd.yaml:1:1  expected a file or a folder, not a symbolic link (links are not followed)`,
    `${content}/projects/hello/loop-a:1:1  expected a file or a folder, not a symbolic link (links are not followed)`,
    `${content}/projects/new\\nline:1:1  expected a name without control characters or backslashes (got "new\\nline")`,
    '4 errors in the content; nothing was written.',
  ]);
});
