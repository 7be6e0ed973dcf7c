/**
 * Issue 26: on a machine shared with other work the build's time and the
 * floor's move a lot between runs, their CPU much less; the benchmark prints
 * and saves the user and system CPU of the build (every thread) and of the
 * floor's timed writing, so that a ratio can be read from CPU as well.
 * Figures themselves are not checked: only that they are there and add up.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT, scriptArgs, tempDir } from '../helpers.ts';

const run = promisify(execFile);

describe('npm run bench --build-only, CPU figures', () => {
  it('prints and saves the user and system CPU of the build and of the floor', async () => {
    const dir = tempDir('wsnap-bench-cpu-');
    const args = ['--projects', '1', '--components', '4', '--languages', '3'];
    const { stdout } = await run(
      process.execPath,
      [...scriptArgs('bench'), ...args, '--build-only', '--dir', dir],
      { cwd: ROOT },
    );

    expect(stdout).toMatch(
      /^ {2}CPU user \+ system: build .+ \+ .+, floor .+ \+ .+; build\/floor (\d+\.\d\d×|n\/a)$/m,
    );
    const results = JSON.parse(readFileSync(join(dir, 'results-16.json'), 'utf8')) as {
      rounds: { build: Record<string, number>; floor: Record<string, number> }[];
    };
    const [{ build, floor }] = results.rounds as [(typeof results.rounds)[0]];
    for (const figures of [build, floor]) {
      expect(figures.userMs).toBeGreaterThanOrEqual(0);
      expect(figures.systemMs).toBeGreaterThanOrEqual(0);
    }
    // A build renders every file before writing it: it takes some CPU in user space.
    expect(build.userMs).toBeGreaterThan(0);
  });
});
