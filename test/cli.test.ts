/**
 * The build and check commands as a user runs them: real folders, exit codes, output. They run
 * in-process, as `npm run` would run them; one check runs as a process, to see its working folder
 * left alone.
 */
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTree, ROOT, tempDir } from './helpers.ts';
import { runCli } from './support/run-cli.ts';
import { runScript } from './support/run-script.ts';

const cli = (script: 'build' | 'check', args: string[]) => runCli(script, args);

describe('npm run build', () => {
  it('prints its options with --help and exits 0', async () => {
    const result = await cli('build', ['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: npm run build -- [options]');
    expect(result.stdout).toMatch(/--content DIR\s+content folder to read \(default: content\)/);
    expect(result.stdout).toContain('--base-url URL');
  });

  it('refuses an unknown flag with exit 1 and no stack trace', async () => {
    const result = await cli('build', ['--contnet', 'x']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('unknown flag --contnet; did you mean --content?');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses a bad flag value with exit 1', async () => {
    const result = await cli('build', ['--page-size', '0']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--page-size expects an integer from 1 to 1000 (got "0")');
  });

  it('builds the content into the output folder, rewritten whole, keeping a file it did not write', async () => {
    const dir = tempDir();
    const out = join(dir, 'dist');
    await cli('build', ['--content', join(ROOT, 'content'), '--out', out]);
    writeFileSync(join(out, 'stale.json'), '{}');
    const result = await cli('build', [
      '--content',
      join(ROOT, 'content'),
      '--out',
      out,
      '--base-url',
      'http://127.0.0.1:9999',
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^Built \d+ files \([\d.]+ KiB\) for 19 translations into .*dist\/ in [\d.]+ s\.\n$/,
    );
    expect(readFileSync(join(out, 'stale.json'), 'utf8')).toBe('{}');
    expect(result.stderr).toContain('Kept stale.json: not written by the build');
    expect(JSON.parse(readFileSync(join(out, 'api/index.json'), 'utf8')).projects).toBe(
      'http://127.0.0.1:9999/api/projects/',
    );
    expect(readdirSync(dir).sort()).toEqual(['dist', 'dist.state']);
  });

  it('updates a tree it built before in place, rewriting only changed files', async () => {
    const dir = tempDir();
    const content = join(dir, 'content');
    const out = join(dir, 'dist');
    cpSync(join(ROOT, 'content'), content, { recursive: true });
    await cli('build', ['--content', content, '--out', out]);
    const file = join(content, 'projects/demo-app/components/ios.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('translated: 42', 'translated: 41'));
    const result = await cli('build', ['--content', content, '--out', out]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      // 8 files of the API, and of the status site the pages, exports, badges and charts that show the moved
      // percent, with the project's 8 PNG widgets and 4 matrices, and its widgets page (the badges' alt text).
      /^Updated .*dist\/ in place: 52 files rewritten, 21 groups re-rendered, 0 groups removed, for 19 translations in [\d.]+ s\.\n$/,
    );
    const full = await cli('build', ['--content', content, '--out', out, '--full']);
    expect(full.stdout).toMatch(/^Built \d+ files/);
  });

  it("puts the chosen host's _redirects and _headers at the root with --host, and refuses an unknown host", async () => {
    const out = join(tempDir(), 'dist');
    const result = await cli('build', [
      '--content',
      join(ROOT, 'content'),
      '--out',
      out,
      '--host',
      'cloudflare',
    ]);
    expect(result.code).toBe(0);
    expect(readFileSync(join(out, '_redirects'), 'utf8')).toBe(
      readFileSync(join(out, 'hosts/cloudflare/_redirects'), 'utf8'),
    );
    expect(readFileSync(join(out, '_headers'), 'utf8')).toBe(
      readFileSync(join(out, 'hosts/cloudflare/_headers'), 'utf8'),
    );
    const unknown = await cli('build', [
      '--content',
      join(ROOT, 'content'),
      '--out',
      out,
      '--host',
      'vercel',
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(
      '--host expects "netlify", "cloudflare" or "none" (got "vercel")',
    );
  });

  it('lists every content error, exits 1 and leaves the output folder untouched', async () => {
    const dir = tempDir();
    const content = join(dir, 'content');
    const out = join(dir, 'dist');
    cpSync(join(ROOT, 'content'), content, { recursive: true });
    await cli('build', ['--content', content, '--out', out]);
    const before = readTree(out);
    writeFileSync(
      join(content, 'projects/docs/project.yaml'),
      'name: Docs\ntranslation_reveiw: true\n',
    );
    writeFileSync(
      join(content, 'projects/demo-app/components/ios.yaml'),
      'name: iOS\nsource_language: en\n',
    );
    const result = await cli('build', ['--content', content, '--out', out]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      `${content}/projects/docs/project.yaml:2:1  translation_reveiw  unknown field (did you mean "translation_review"?)`,
    );
    expect(result.stderr).toContain(
      `${content}/projects/demo-app/components/ios.yaml:1:1  repo  expected text (missing)`,
    );
    expect(result.stderr).toContain('4 errors in the content; nothing was written.');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(readTree(out)).toEqual(before);
    expect(readdirSync(dir).sort()).toEqual(['content', 'dist', 'dist.state']);
  });
});

describe('npm run check', () => {
  it('reports a valid folder and writes nothing', async () => {
    const dir = tempDir();
    const result = await runScript('check', ['--content', join(ROOT, 'content')], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      `${join(ROOT, 'content')}/ is valid: 2 projects, 4 components, 19 translations, 10 languages.\n`,
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it('exits 1 with the errors of an invalid folder', async () => {
    const result = await cli('check', [
      '--content',
      join(ROOT, 'test/fixtures/minimal/content'),
      '--base-url',
      'ftp://x',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--base-url expects an http(s) URL');
  });
});
