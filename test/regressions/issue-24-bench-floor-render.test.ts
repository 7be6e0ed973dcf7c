/**
 * Issue 24: the full build at a million translations with the status site had no floor to be
 * compared with. The floor read the built tree back, and on a disk that holds that tree (28.5 GiB
 * in some 20 million inodes) only once, it read and deleted in turn: under a thousand small files
 * a second from a cold disk, hours for the tree. `--floor render` measures the floor alone, fed by
 * the renderer, with no tree built or read back; `--floor none` the build alone; each is run on a
 * file system of its own. The floor writes the very files the build writes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';

const SCALE = ['--projects', '1', '--components', '4', '--languages', '3', '--build-only'];

interface Round {
  build: { files: number; bytes: number; maxRssKiB: number } | null;
  floor: { files: number; bytes: number; writeMs: number; userMs: number } | null;
  ratio: number | null;
}

function roundOf(dir: string): Round {
  const results = JSON.parse(readFileSync(join(dir, 'results-16.json'), 'utf8')) as {
    rounds: Round[];
  };
  expect(results.rounds).toHaveLength(1);
  return results.rounds[0]!;
}

describe('npm run bench --build-only --floor', () => {
  it('render measures the floor alone, none the build alone, of the same files', async () => {
    const dir = tempDir('wsnap-bench-floor-');
    const rendered = await runCli('bench', [...SCALE, '--floor', 'render', '--dir', dir]);
    expect(rendered.code).toBe(0);
    expect(rendered.stdout).toMatch(
      /^Raw-write floor, fed by the renderer \(no tree built or read back\): .+, \d{3} files, /m,
    );
    const floor = roundOf(dir);
    expect(floor.build).toBeNull();
    expect(floor.ratio).toBeNull();
    expect(floor.floor!.writeMs).toBeGreaterThan(0);

    const built = await runCli('bench', [...SCALE, '--floor', 'none', '--dir', dir]);
    expect(built.code).toBe(0);
    expect(built.stdout).toContain('no floor in this run (--floor none)');
    expect(built.stdout).not.toContain('raw-write floor');
    const build = roundOf(dir);
    expect(build.floor).toBeNull();
    expect(build.build!.maxRssKiB).toBeGreaterThan(0);
    expect([build.build!.files, build.build!.bytes]).toEqual([
      floor.floor!.files,
      floor.floor!.bytes,
    ]);
  });

  it.each([
    [['--floor', 'render'], '--floor render goes with --build-only'],
    [['--build-only', '--floor', 'sideways'], '--floor expects "tree", "render" or "none"'],
  ])('%j is a usage error', async (args, message) => {
    const dir = join(tempDir(), 'bench');
    const { code, stderr } = await runCli('bench', [...args, '--dir', dir]);
    expect(code).toBe(1);
    expect(stderr).toContain(message);
    expect(existsSync(dir)).toBe(false);
  });
});
