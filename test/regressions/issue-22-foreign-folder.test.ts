/**
 * Issue 22, item 5: a folder the tool never wrote is not replaced whole because its top-level
 * names happen to be names a tree uses. Only a folder whose manifest names it is taken for a tree;
 * anything else that is not empty is refused without --force, and nothing in it is touched.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, readTree, tempDir, writeFiles } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';

const MINIMAL = join(FIXTURES, 'minimal/content');

describe('npm run build --out a folder that only looks like a tree', () => {
  it('refuses it, naming the folder, and keeps the user files', async () => {
    const dir = tempDir();
    execFileSync('cp', ['-r', MINIMAL, join(dir, 'content')]);
    const files = {
      'api/index.json': '{}\n',
      'index.html': '<p>mine</p>\n',
      'static/main.css': 'body{}\n',
      'projects/README.txt': 'notes\n',
    };
    writeFiles(join(dir, 'site'), files);
    const result = await runCli('build', [
      '--content',
      join(dir, 'content'),
      '--out',
      join(dir, 'site'),
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /--out .*site is not empty and is not a tree this tool built .*no manifest in site\.state\/ names it.*--force/,
    );
    expect(result.stderr).not.toMatch(/\n\s+at |Internal error/);
    expect(Object.fromEntries(readTree(join(dir, 'site')))).toEqual(files);
  });

  it('refuses a tree it built once its manifest is gone', async () => {
    const dir = tempDir();
    execFileSync('cp', ['-r', MINIMAL, join(dir, 'content')]);
    const args = ['--content', join(dir, 'content'), '--out', join(dir, 'dist')];
    expect((await runCli('build', args)).code).toBe(0);
    execFileSync('rm', ['-r', join(dir, 'dist.state')]);
    const before = readTree(join(dir, 'dist'));
    const again = await runCli('build', args);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/no manifest in dist\.state\/ names it/);
    expect(readTree(join(dir, 'dist'))).toEqual(before);
    expect((await runCli('build', [...args, '--force'])).code).toBe(0);
  });
});
