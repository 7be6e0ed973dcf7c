/**
 * Issue 22, item 6 (files of a tree): a build notices files of its tree that
 * were deleted or replaced and writes them again (every file of a small tree
 * each build, a large one a share at a time, all with --verify).
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
import { describe, expect, it } from 'vitest';
import { buildDirectory } from '../../src/build.ts';
import { checkTreeFiles } from '../../src/tree/check-files.ts';
import { readManifest } from '../../src/tree/manifest.ts';
import { FIXTURES, tempDir } from '../helpers.ts';
import { runScript } from '../support/run-script.ts';

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
