/**
 * `npm run bench` at a tiny scale, as a user runs it: the full build and the
 * floor of each round write the same files and bytes, every figure is printed
 * and saved, and nothing but the content and the results is left behind (a
 * leftover working folder of an earlier run included). Figures themselves are
 * never checked here: timing is the benchmark's job, not the tests'.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir, TSX } from './helpers.ts';

const run = promisify(execFile);

describe('npm run bench --build-only', () => {
  it('measures each round on the same tree, prints and saves the figures, and leaves only content and results', async () => {
    const dir = tempDir('wsnap-bench-');
    mkdirSync(join(dir, 'work/round-1/dist'), { recursive: true });
    writeFileSync(join(dir, 'work/round-1/dist/left-over.json'), '{}\n');
    const { stdout } = await run(
      process.execPath,
      [
        ...TSX,
        join(ROOT, 'scripts/bench.ts'),
        '--projects',
        '1',
        '--components',
        '4',
        '--languages',
        '3',
        '--rounds',
        '2',
        '--build-only',
        '--dir',
        dir,
      ],
      { cwd: ROOT },
    );

    expect(stdout).toMatch(/^Instance: 16 translations \(1 projects × 4 components × 3 languages, plus source\), \d+ content files/m);
    expect(stdout).toMatch(/^Full build \(round 1\): .+, [\d,]+ files, /m);
    expect(stdout).toMatch(/^Full build \(round 2\): .+, [\d,]+ files, /m);
    expect(stdout.match(/^ {2}raw-write floor \(same bytes, same paths\): .+; build\/floor \d+\.\d\d×$/gm)).toHaveLength(2);
    const results = JSON.parse(readFileSync(join(dir, 'results-16.json'), 'utf8')) as {
      rounds: { build: { files: number; bytes: number }; floor: { files: number; bytes: number } }[];
    };
    expect(results.rounds).toHaveLength(2);
    for (const { build, floor } of results.rounds) {
      expect(build.files).toBeGreaterThan(100);
      expect(floor).toMatchObject({ files: build.files, bytes: build.bytes });
    }
    expect(readdirSync(dir).sort()).toEqual(['content-1x4x3', 'results-16.json']);
  });

  it('with --refresh-only, times an incremental pull, a cold build and a deploy after one counter changed upstream', async () => {
    const dir = tempDir('wsnap-bench-');
    const { stdout } = await run(
      process.execPath,
      [...TSX, join(ROOT, 'scripts/bench.ts'), '--projects', '2', '--components', '3', '--languages', '2', '--refresh-only', '--dir', dir],
      { cwd: ROOT, env: { ...process.env, AWS_EC2_METADATA_DISABLED: 'true' } },
    );
    expect(stdout).toMatch(/^Mirror refresh, one counter changed upstream \(each step a new process, spawn to exit\): /m);
    // Two projects: the root, the lists, the feed, two project statistics, then the changed project's components.
    expect(stdout).toMatch(/^ {2}pull \(incremental\): .+, \d+ requests, 1 file written, 5 components kept$/m);
    expect(stdout).toMatch(/^ {2}build \(cold, from its cache\): .+, 8 files rewritten$/m);
    expect(stdout).toMatch(/^ {2}deploy \(to the local S3 server\): .+, 8 objects uploaded, 0 deleted$/m);
    expect(stdout).toMatch(/^ {2}before the change, a re-pull with nothing changed: .+, 6 requests, 0 files written$/m);
    const results = JSON.parse(readFileSync(join(dir, 'results-18.json'), 'utf8'));
    expect(results.refresh.totalMs).toBe(results.refresh.pull.ms + results.refresh.build.ms + results.refresh.deploy.ms);
    expect(readdirSync(dir).sort()).toEqual(['content-2x3x2', 'results-18.json']);
  });
});
