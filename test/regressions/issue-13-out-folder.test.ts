/**
 * Issue 13, items 1, 2, 7 and 14: `--out` never replaces what the tool did not build. A folder that
 * holds other files, the content folder, a folder around or inside it, a plain file, the root of the
 * file system, a parent the user cannot write, and a content folder that does not exist are each a
 * one-line usage error (exit 1), before any work, with nothing touched and nothing left behind.
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, readTree, scriptArgs, tempDir, writeFiles } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';
import { runScript } from '../support/run-script.ts';

const MINIMAL = join(FIXTURES, 'minimal/content');

/** A copy of the minimal content in a fresh folder, and that folder. */
function workspace(): { dir: string; content: string } {
  const dir = tempDir();
  const content = join(dir, 'content');
  execFileSync('cp', ['-r', MINIMAL, content]);
  return { dir, content };
}

/** Whether the user nobody can read `file` (every folder above it must let them through). */
function nobodyCanRead(file: string): boolean {
  const probe = ['--reuid=nobody', '--regid=nogroup', '--clear-groups', '--'];
  const read = `require('fs').accessSync(${JSON.stringify(file)})`;
  try {
    execFileSync('setpriv', [...probe, process.execPath, '-e', read], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function expectRefusal(result: { code: number; stderr: string }, message: string | RegExp): void {
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(message);
  expect(result.stderr).not.toMatch(/\n\s+at |Internal error/);
}

describe('npm run build --out', () => {
  it('refuses a folder that holds files it did not build, and leaves them be', async () => {
    const { dir, content } = workspace();
    writeFiles(join(dir, 'pub'), { 'index.html': 'hi\n' });
    const result = await runCli('build', ['--content', content, '--out', join(dir, 'pub')]);
    expectRefusal(
      result,
      /is not empty and is not a tree this tool built \(it holds "index\.html"\).*--force/,
    );
    expect([...readTree(join(dir, 'pub'))]).toEqual([['index.html', 'hi\n']]);
    expect(readdirSync(dir).sort()).toEqual(['content', 'pub']);
  });

  it('replaces such a folder with --force', async () => {
    const { dir, content } = workspace();
    writeFiles(join(dir, 'pub'), { 'index.html': 'hi\n', 'notes.txt': 'mine\n' });
    const result = await runCli('build', [
      '--content',
      content,
      '--out',
      join(dir, 'pub'),
      '--force',
    ]);
    expect(result.code).toBe(0);
    expect(existsSync(join(dir, 'pub/notes.txt'))).toBe(false);
    // The status site's home page takes the name (the minimal content's web URL is its base URL).
    expect(readFileSync(join(dir, 'pub/index.html'), 'utf8')).toMatch(/^<!DOCTYPE html>/);
    expect(existsSync(join(dir, 'pub/api/index.json'))).toBe(true);
  });

  it('updates a tree it built, given with a trailing slash', async () => {
    const { dir, content } = workspace();
    expect((await runCli('build', ['--content', content, '--out', join(dir, 'dist')])).code).toBe(
      0,
    );
    const again = await runCli('build', ['--content', content, '--out', `${join(dir, 'dist')}/`]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`Updated ${join(dir, 'dist')}/ in place`);
    expect(readdirSync(dir).sort()).toEqual(['content', 'dist', 'dist.state']);
    expect(
      readdirSync(join(dir, 'dist')).filter(
        (name) => name.includes('.state') || name.includes('.tmp-'),
      ),
    ).toEqual([]);
  });

  it.each([
    ['the content folder itself', (dir: string) => join(dir, 'content'), /is the content folder/],
    ['a folder that holds the content folder', (dir: string) => dir, /holds the content folder/],
    [
      'a folder inside the content folder',
      (dir: string) => join(dir, 'content/dist'),
      /is inside the content folder/,
    ],
  ])('refuses %s, even with --force, and keeps the YAML', async (_, out, message) => {
    const { dir, content } = workspace();
    const before = readTree(content);
    const result = await runCli('build', ['--content', content, '--out', out(dir), '--force']);
    expectRefusal(result, message);
    expect(readTree(content)).toEqual(before);
  });

  it('refuses the content folder reached through another spelling of its path', async () => {
    const { dir, content } = workspace();
    const result = await runScript('build', ['--content', content, '--out', '.'], { cwd: content });
    expectRefusal(result, /--out \. is the content folder/);
    expect(readdirSync(dir)).toEqual(['content']);
  });

  it('refuses a plain file before any work, leaving no state folder behind', async () => {
    const { dir, content } = workspace();
    writeFileSync(join(dir, 'out.txt'), 'keep me\n');
    const result = await runCli('build', ['--content', content, '--out', join(dir, 'out.txt')]);
    expectRefusal(result, /out\.txt is a file, not a folder/);
    expect(readdirSync(dir).sort()).toEqual(['content', 'out.txt']);
  });

  it('refuses the root of the file system', async () => {
    const { content } = workspace();
    expectRefusal(
      await runCli('build', ['--content', content, '--out', '/']),
      /is the root of the file system/,
    );
  });

  it('refuses a content folder that does not exist, naming it', async () => {
    const { dir } = workspace();
    const result = await runCli('build', [
      '--content',
      join(dir, 'nope'),
      '--out',
      join(dir, 'dist'),
    ]);
    expectRefusal(result, `--content ${join(dir, 'nope')} does not exist`);
    expect(existsSync(join(dir, 'dist'))).toBe(false);
    expectRefusal(await runCli('check', ['--content', join(dir, 'nope')]), 'does not exist');
  });

  it('refuses a parent folder the user cannot write, with one line and no stack', async (ctx) => {
    if (process.getuid?.() === 0 && !nobodyCanRead(scriptArgs('build').at(-1)!)) {
      // A checkout inside a private folder (mktemp -d's 0700) is out of the unprivileged user's reach.
      console.warn('skipped: the user nobody cannot read this checkout');
      ctx.skip();
    }
    const { dir, content } = workspace();
    const locked = join(dir, 'locked');
    mkdirSync(locked);
    chmodSync(locked, 0o555);
    chmodSync(dir, 0o755);
    // As root every folder is writable: the build runs as an unprivileged user then.
    const build = [
      process.execPath,
      ...scriptArgs('build'),
      '--content',
      content,
      '--out',
      join(locked, 'dist'),
    ];
    const argv =
      process.getuid?.() === 0
        ? ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups', '--', ...build]
        : build;
    let code = 0;
    let stderr = '';
    try {
      execFileSync(argv[0]!, argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (error) {
      const e = error as { status: number; stderr: Buffer };
      code = e.status;
      stderr = e.stderr.toString();
    }
    expectRefusal({ code, stderr }, `cannot write in ${locked}`);
    expect(readdirSync(locked)).toEqual([]);
  });
});

describe('npm run sidecar --out', () => {
  it('refuses a folder that holds files it did not build', async () => {
    const { dir, content } = workspace();
    writeFiles(join(dir, 'pub'), { 'notes.txt': 'mine\n' });
    const result = await runScript('sidecar', [
      '--content',
      content,
      '--out',
      join(dir, 'pub'),
      '--read-only',
      '--port',
      '0',
    ]);
    expectRefusal(result, /is not empty and is not a tree this tool built/);
    expect([...readTree(join(dir, 'pub'))]).toEqual([['notes.txt', 'mine\n']]);
  });
});
