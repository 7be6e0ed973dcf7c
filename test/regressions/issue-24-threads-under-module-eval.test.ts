/**
 * A build through the API from `node --input-type=module -e …` never ended, and the content's
 * check there left its threads unused: a thread takes the process's flags, and its source (a
 * CommonJS string) was then read as a module, where `require` is not defined. The threads now
 * start without those flags (src/threads.ts).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { threadFlags } from '../../src/threads.ts';
import { compiledModule, FIXTURES, tempDir } from '../helpers.ts';

const run = promisify(execFile);

const CHILD = `
const { loadContent } = await import(${JSON.stringify(compiledModule('src/content/load.ts'))});
const { buildDirectory } = await import(${JSON.stringify(compiledModule('src/build.ts'))});
const [contentDir, outDir] = process.argv.slice(1);
const loaded = await loadContent(contentDir, { threads: 1, mainThread: false });
const built = await buildDirectory({ contentDir, outDir, settings: { pages: true, pngWidgets: 'all' } });
console.log(JSON.stringify({
  files: loaded.files.size,
  inThreads: loaded.checkedInThreads,
  errors: built.errors.length,
  pngs: built.pngsDrawn,
}));
`;

describe('the tool in a process started with --input-type=module', () => {
  it('checks content in its threads, and builds with its writer and PNG threads', async () => {
    const out = join(tempDir(), 'out');
    const content = join(FIXTURES, 'features/content');
    // Bounded: the build used to wait forever.
    const { stdout } = await run(
      process.execPath,
      ['--input-type=module', '-e', CHILD, content, out],
      { timeout: 120_000 },
    );
    const figures = JSON.parse(stdout) as Record<string, number>;
    expect(figures.files).toBeGreaterThan(0);
    expect(figures.inThreads).toBe(figures.files);
    expect(figures.errors).toBe(0);
    expect(figures.pngs).toBeGreaterThan(0);
    expect(existsSync(join(out, 'api/index.json'))).toBe(true);
  });
});

describe('the flags a thread starts with', () => {
  it("are the process's, less those that make its source a module", () => {
    expect(threadFlags(['--input-type=module', '--expose-gc', '-e', 'code'])).toEqual([
      '--expose-gc',
      '-e',
      'code',
    ]);
    expect(threadFlags(['--input-type', 'module', '--max-old-space-size=64'])).toEqual([
      '--max-old-space-size=64',
    ]);
    expect(threadFlags(['--experimental-default-type=module', '--import', 'tsx'])).toEqual([
      '--import',
      'tsx',
    ]);
  });

  it("are the process's own, inherited, when none of those is there", () => {
    // An explicit list is checked: --expose-gc in it failed every thread's start.
    expect(threadFlags(['--expose-gc', '--max-old-space-size=64'])).toBeUndefined();
    expect(threadFlags([])).toBeUndefined();
  });
});
