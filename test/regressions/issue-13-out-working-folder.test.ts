/**
 * Issue 13, item 14: `--out .` ended in a stack trace. In an empty folder, `npm run build -- --out .`
 * wrote the whole tree, then failed to rename "." (EBUSY, "Internal error", exit 2) and left its state
 * folder, named "..state", inside the folder that was to be published; the next build then refused
 * that folder as one it did not build. The folder a command runs in, or one that holds it, is now
 * refused as --out before any work (one line, exit 1), whatever its spelling, and nothing is touched.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, tempDir } from '../helpers.ts';
import { runScript } from '../support/run-script.ts';

/** A copy of the minimal content, and an empty folder beside it to run the command in. */
function workspace(): { dir: string; content: string; here: string } {
  const dir = tempDir();
  const content = join(dir, 'content');
  execFileSync('cp', ['-r', join(FIXTURES, 'minimal/content'), content]);
  const here = join(dir, 'site');
  mkdirSync(here);
  return { dir, content, here };
}

function expectRefusal(result: { code: number; stderr: string }, message: string): void {
  expect(result.code).toBe(1);
  expect(result.stderr).toContain(message);
  expect(result.stderr).not.toMatch(/\n\s+at |Internal error/);
}

describe('--out naming the folder the command runs in', () => {
  it.each([['.'], ['./'], ['../site']])(
    'build refuses --out %s there, and leaves the folder empty',
    async (out) => {
      const { dir, content, here } = workspace();
      const result = await runScript('build', ['--content', content, '--out', out], { cwd: here });
      expectRefusal(result, `is the folder you are in; a build replaces its output folder whole`);
      expect(readdirSync(here)).toEqual([]);
      expect(readdirSync(dir).sort()).toEqual(['content', 'site']);
    },
  );

  it('build refuses a folder that holds it, even with --force, and deletes nothing', async () => {
    const { dir, content } = workspace();
    const here = join(dir, 'www/site');
    mkdirSync(here, { recursive: true });
    const result = await runScript('build', ['--content', content, '--out', '..', '--force'], {
      cwd: here,
    });
    expectRefusal(result, '--out .. holds the folder you are in');
    expect(readdirSync(join(dir, 'www'))).toEqual(['site']);
    expect(readdirSync(here)).toEqual([]);
  });

  it('the sidecar refuses --out . too', async () => {
    const { content, here } = workspace();
    const result = await runScript(
      'sidecar',
      ['--content', content, '--out', '.', '--read-only', '--port', '0'],
      { cwd: here },
    );
    expectRefusal(result, '--out . is the folder you are in');
    expect(readdirSync(here)).toEqual([]);
  });
});
