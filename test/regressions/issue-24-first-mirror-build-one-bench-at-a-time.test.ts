/**
 * Issue 24: the mirror's first build in the benchmark's set-up took three
 * times as long as a build of the same instance because another run shared
 * the benchmark's folder (and its disk) with it. A run now refuses to start
 * while another runs in the same folder, and takes over a lock left by a run
 * that is gone.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers.ts';
import { compiledTool } from '../support/compiled-tool.ts';
import { runCli } from '../support/run-cli.ts';
import { runScript } from '../support/run-script.ts';

const TINY = ['--projects', '1', '--components', '1', '--languages', '1', '--rounds', '1'];

describe('npm run bench, one run at a time in a folder', () => {
  it('refuses to start while another run holds the folder, and changes nothing', async () => {
    const dir = tempDir('wsnap-bench-');
    // This test's own process stands for a run in progress; the second run starts in it (the
    // refusal is the same wherever it runs).
    writeFileSync(join(dir, 'run.lock'), `${process.pid}\n`);

    const result = await runCli('bench', [...TINY, '--build-only', '--dir', dir]);

    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `another benchmark (process ${process.pid}) is running in ${dir}; wait for it to end, or give another --dir`,
    );
    expect(result.stderr).not.toMatch(/Internal error|\n {4}at /);
    expect(readdirSync(dir)).toEqual(['run.lock']);
    expect(readFileSync(join(dir, 'run.lock'), 'utf8')).toBe(`${process.pid}\n`);
  });

  it('runs over a lock whose process is gone, and removes the lock at the end', async () => {
    const dir = tempDir('wsnap-bench-');
    const gone = spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid;
    writeFileSync(join(dir, 'run.lock'), `${gone}\n`);

    const tool = ['--tool', compiledTool()];
    const result = await runScript('bench', [...TINY, '--build-only', ...tool, '--dir', dir]);

    expect(result.code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['content-1x1x1', 'results-2.json']);
  });
});
