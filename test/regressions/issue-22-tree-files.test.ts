/**
 * Issue 22, item 6 (files of a tree): a build notices files of its tree that
 * were deleted or replaced and writes them again (every file of a small tree
 * each build, a large one a share at a time, all with --verify); a whole
 * rewrite keeps what a user put in the tree; the content's extra/ files
 * (CNAME, robots.txt, .well-known/…) are copied into the tree and published.
 */
import {
  cpSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { setTimeout as pause } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LocalS3 } from '../../bench/s3-server.ts';
import { buildDirectory } from '../../src/build.ts';
import { deploy } from '../../src/deploy/deploy.ts';
import { s3Store } from '../../src/deploy/s3.ts';
import { checkTreeFiles } from '../../src/tree/check-files.ts';
import { readManifest } from '../../src/tree/manifest.ts';
import { FIXTURES, scriptArgs, tempDir, writeFiles } from '../helpers.ts';
import type { Proxy } from '../support/proxy.ts';
import { runScript } from '../support/run-script.ts';
import { readBucket, useLocalS3 } from '../support/s3-proxy.ts';

async function builtTree(): Promise<{ dir: string; content: string; out: string }> {
  const dir = tempDir();
  const content = join(dir, 'content');
  const out = join(dir, 'dist');
  cpSync(join(FIXTURES, 'minimal/content'), content, { recursive: true });
  expect((await buildDirectory({ contentDir: content, outDir: out })).errors).toEqual([]);
  return { dir, content, out };
}

const STATISTICS = 'api/translations/hello/app/cs/statistics/index.json';

describe('a build repairs files missing from its tree', () => {
  it('writes a deleted file again on the next plain build, and says so', async () => {
    const { content, out } = await builtTree();
    const bytes = readFileSync(join(out, STATISTICS), 'utf8');
    rmSync(join(out, STATISTICS));
    // Twice: the first build writes the build cache the second one (the cold fast path) reads.
    rmSync(join(out, 'api/index.json'));
    const result = await runScript('build', ['--content', content, '--out', out]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`Repaired 2 files missing or replaced in ${out}/.`);
    expect(readFileSync(join(out, STATISTICS), 'utf8')).toBe(bytes);

    rmSync(join(out, STATISTICS));
    const cold = await runScript('build', ['--content', content, '--out', out]);
    expect(cold.stderr).toContain(`Repaired 1 file missing or replaced in ${out}/.`);
    expect(readFileSync(join(out, STATISTICS), 'utf8')).toBe(bytes);
  });

  it('replaces a link put where a file of the tree was with the file', async () => {
    const { dir, content, out } = await builtTree();
    writeFileSync(join(dir, 'elsewhere'), 'not the tree\n');
    rmSync(join(out, STATISTICS));
    symlinkSync(join(dir, 'elsewhere'), join(out, STATISTICS));
    const report = await buildDirectory({ contentDir: content, outDir: out });
    expect(report.repaired).toBe(1);
    expect(lstatSync(join(out, STATISTICS)).isFile()).toBe(true);
    expect(readFileSync(join(dir, 'elsewhere'), 'utf8')).toBe('not the tree\n');
  });

  it('refuses a folder put where a file of the tree was, naming it, and leaves it', async () => {
    const { content, out } = await builtTree();
    rmSync(join(out, STATISTICS));
    mkdirSync(join(out, STATISTICS));
    writeFileSync(join(out, STATISTICS, 'mine.txt'), 'kept');
    const result = await runScript('build', ['--content', content, '--out', out]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `${join(out, STATISTICS)} is a folder where the build writes a file: move it away`,
    );
    expect(result.stderr).not.toContain('Internal error');
    expect(readFileSync(join(out, STATISTICS, 'mine.txt'), 'utf8')).toBe('kept');
  });

  it('checks a large tree a window at a time, in turn, and all of it with --verify', async () => {
    const { content, out } = await builtTree();
    rmSync(join(out, STATISTICS));
    const manifest = (await readManifest(out))!;
    // A window of 3 files a build: the file is found within a bounded number of builds.
    let builds = 0;
    let found = 0;
    while (found === 0 && builds < manifest.groups.size) {
      found = (await checkTreeFiles(out, manifest, { window: 3 })).files;
      builds++;
    }
    expect(found).toBe(1);
    expect(builds).toBeGreaterThan(1);

    const again = (await builtTree()).out;
    rmSync(join(again, STATISTICS));
    const whole = await checkTreeFiles(again, (await readManifest(again))!, {
      all: true,
      window: 3,
    });
    expect(whole.files).toBe(1);

    const verified = await runScript('build', ['--content', content, '--out', out, '--verify']);
    expect(verified.code).toBe(0);
    expect(verified.stderr).toContain('Repaired 1 file');
    expect(lstatSync(join(out, STATISTICS)).isFile()).toBe(true);
  });
});

describe('a whole rewrite keeps what the build did not write', () => {
  it('carries a user file across --full unchanged, naming it', async () => {
    const { dir, content, out } = await builtTree();
    writeFileSync(join(out, 'CNAME'), 'l10n.example.org\n');
    mkdirSync(join(out, 'api/notes'));
    writeFileSync(join(out, 'api/notes/mine.bin'), Buffer.from([0, 255, 128, 10]));
    writeFileSync(join(dir, 'target'), 'x\n');
    symlinkSync(join(dir, 'target'), join(out, 'link'));
    const result = await runScript('build', ['--content', content, '--out', out, '--full']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      'Kept CNAME: not written by the build, so deploy will not publish it; move it to content/extra/CNAME.',
    );
    expect(result.stderr).toContain('Kept api/notes/mine.bin: not written by the build');
    expect(result.stderr).toContain('Kept link: not written by the build');
    expect(readFileSync(join(out, 'CNAME'), 'utf8')).toBe('l10n.example.org\n');
    expect([...readFileSync(join(out, 'api/notes/mine.bin'))]).toEqual([0, 255, 128, 10]);
    expect(readlinkSync(join(out, 'link'))).toBe(join(dir, 'target'));
    expect(readFileSync(join(out, STATISTICS), 'utf8')).toMatch(/"translated"/);
  });
});

const BUCKET = 'extra';
const servers = useLocalS3(BUCKET);
let s3: LocalS3;
let proxy: Proxy;

beforeAll(() => {
  ({ s3, proxy } = servers);
});

describe('extra files of the content', () => {
  it('copies them byte for byte into the tree, and an edit rewrites only that file', async () => {
    const { content, out } = await builtTree();
    writeFiles(content, {
      'extra/robots.txt': 'User-agent: *\nDisallow:\n',
      'extra/.well-known/security.txt': 'Contact: mailto:security@example.org\n',
    });
    expect((await buildDirectory({ contentDir: content, outDir: out })).errors).toEqual([]);
    expect(readFileSync(join(out, 'robots.txt'), 'utf8')).toBe('User-agent: *\nDisallow:\n');
    expect(readFileSync(join(out, '.well-known/security.txt'), 'utf8')).toMatch(/^Contact/);

    writeFileSync(join(content, 'extra/robots.txt'), 'User-agent: *\nDisallow: /api/\n');
    const edited = await buildDirectory({ contentDir: content, outDir: out });
    expect(edited).toMatchObject({ mode: 'in-place', files: 1, groupsRendered: 1 });
    expect(readFileSync(join(out, 'robots.txt'), 'utf8')).toMatch(/Disallow: \/api\//);

    rmSync(join(content, 'extra/.well-known'), { recursive: true });
    const removed = await buildDirectory({ contentDir: content, outDir: out });
    expect(removed).toMatchObject({ mode: 'in-place', groupsRemoved: 1 });
    expect(lstatSync(join(out, '.well-known'), { throwIfNoEntry: false })).toBeUndefined();
    expect(readFileSync(join(out, 'api/index.json'), 'utf8')).toMatch(/"projects"/);
  });

  it('has deploy publish extra/CNAME and robots.txt, each with its Content-Type', async () => {
    const { content, out } = await builtTree();
    writeFiles(content, {
      'extra/CNAME': 'l10n.example.org\n',
      'extra/robots.txt': 'User-agent: *\n',
    });
    expect((await buildDirectory({ contentDir: content, outDir: out })).errors).toEqual([]);
    const notices: string[] = [];
    const report = await deploy(
      {
        outDir: out,
        target: { bucket: BUCKET, prefix: 'site', endpoint: proxy.url },
        cacheControl: null,
        concurrency: 4,
        retries: 0,
        onNotice: (text) => notices.push(text),
      },
      {
        store: () => s3Store({ bucket: BUCKET, endpoint: proxy.url, region: null }),
        sleep: async () => undefined,
        random: () => 0.5,
      },
    );
    expect(report).toMatchObject({ ok: true });
    expect(notices.filter((text) => text.startsWith('Skipped'))).toEqual([]);
    const objects = await readBucket(s3.url, BUCKET, 'site/');
    expect(objects.get('site/CNAME')).toMatchObject({
      body: 'l10n.example.org\n',
      contentType: 'application/octet-stream',
    });
    expect(objects.get('site/robots.txt')).toMatchObject({
      body: 'User-agent: *\n',
      contentType: 'text/plain; charset=utf-8',
    });
  });

  it('refuses an extra file at a name the build writes, naming both, and writes nothing', async () => {
    const { content, out } = await builtTree();
    const before = readFileSync(join(out, 'api/index.json'), 'utf8');
    writeFiles(content, { 'extra/api/projects/index.json': '{}\n', 'extra/_headers': '/*\n' });
    const result = await runScript('build', ['--content', content, '--out', out]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `${join(content, 'extra/api/projects/index.json')}:1:1  expected a path the build does not write itself (got extra/api/projects/index.json, which would take the folder api/ of the tree)`,
    );
    expect(result.stderr).toContain('(got extra/_headers, which would take _headers of the tree)');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(readFileSync(join(out, 'api/index.json'), 'utf8')).toBe(before);
  });

  it('refuses a link in extra/, in a dotted folder too, as a content error', async () => {
    const { dir, content, out } = await builtTree();
    writeFileSync(join(dir, 'secret'), 'x\n');
    mkdirSync(join(content, 'extra/.well-known'), { recursive: true });
    symlinkSync(join(dir, 'secret'), join(content, 'extra/.well-known/security.txt'));
    const report = await buildDirectory({ contentDir: content, outDir: out });
    expect(report.errors.map((e) => [e.file, e.message])).toEqual([
      [
        join(content, 'extra/.well-known/security.txt'),
        expect.stringMatching(/not a symbolic link/),
      ],
    ]);
  });
});

describe('extra files under build --watch', () => {
  it('writes an edited extra file into the tree, and removes a deleted one', async () => {
    const { content, out } = await builtTree();
    writeFiles(content, { 'extra/CNAME': 'old.example.org\n', 'extra/.well-known/a.txt': 'a\n' });
    const child = spawn(
      process.execPath,
      [...scriptArgs('build'), '--watch', '--content', content, '--out', out],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const waitFor = async (pattern: RegExp) => {
      // At most 30 s, in steps of 25 ms.
      for (let attempt = 0; attempt < 1200 && !pattern.test(output); attempt++) await pause(25);
      expect(output).toMatch(pattern);
    };
    try {
      await waitFor(/watching for changes/);
      expect(readFileSync(join(out, 'CNAME'), 'utf8')).toBe('old.example.org\n');
      writeFileSync(join(content, 'extra/CNAME'), 'new.example.org\n');
      await waitFor(/Updated .* after extra\/CNAME: 1 file rewritten/);
      expect(readFileSync(join(out, 'CNAME'), 'utf8')).toBe('new.example.org\n');
      writeFileSync(join(content, 'extra/.well-known/a.txt'), 'b\n');
      await waitFor(/after extra\/\.well-known\/a\.txt/);
      expect(readFileSync(join(out, '.well-known/a.txt'), 'utf8')).toBe('b\n');
      rmSync(join(content, 'extra/CNAME'));
      await waitFor(/after extra\/CNAME: 0 files rewritten, 0 groups re-rendered, 1 group removed/);
      expect(lstatSync(join(out, 'CNAME'), { throwIfNoEntry: false })).toBeUndefined();
    } finally {
      if (child.exitCode === null) {
        const exited = new Promise((done) => child.once('exit', done));
        child.kill('SIGTERM');
        await exited;
      }
    }
  }, 60_000);
});
