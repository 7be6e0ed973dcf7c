/**
 * Issue 24: the bench's webhook latency ran the repository's bin (through tsx when it has no
 * lib/) whatever tool the run timed; with `--tool BIN` the mirror that takes the delivery is
 * that bin's, as every other step of the refresh is. The tool here is the compiled bin behind a
 * wrapper that writes down each command it is started for. The same run's figures of the mirror
 * refresh (pull, build and deploy to the local S3 server after one counter changed) are checked
 * here too, sharing the suite's one run of `--refresh-only`.
 */
import { execFile } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { ROOT, scriptArgs, tempDir } from '../helpers.ts';

const run = promisify(execFile);

/** The package's bin over the compiled sources, behind a wrapper that logs each command to `commands.log`. */
function loggingTool(): { bin: string; commands: () => string[] } {
  const tool = tempDir('wsnap-bench-tool-');
  mkdirSync(join(tool, 'bin'), { recursive: true });
  copyFileSync(join(ROOT, 'bin/weblate-snapshot.js'), join(tool, 'bin/real.js'));
  symlinkSync(inject('compiledRoot'), join(tool, 'lib'));
  writeFileSync(
    join(tool, 'bin/weblate-snapshot.js'),
    [
      "import { appendFileSync } from 'node:fs';",
      "appendFileSync(new URL('../commands.log', import.meta.url), `${process.argv[2]}\\n`);",
      "await import('./real.js');",
      '',
    ].join('\n'),
  );
  return {
    bin: join(tool, 'bin/weblate-snapshot.js'),
    commands: () => readFileSync(join(tool, 'commands.log'), 'utf8').trim().split('\n'),
  };
}

describe('npm run bench --refresh-only --tool BIN', () => {
  // One run of the refresh for both tests: it is the slowest bench run of the suite.
  const ran = { dir: '', stdout: '', commands: [] as string[] };
  beforeAll(async () => {
    ran.dir = tempDir('wsnap-bench-');
    const tool = loggingTool();
    const scale = ['--projects', '2', '--components', '3', '--languages', '2'];
    ({ stdout: ran.stdout } = await run(
      process.execPath,
      [
        ...[...scriptArgs('bench'), ...scale, '--refresh-only'],
        ...['--tool', tool.bin, '--pages', 'off', '--dir', ran.dir],
      ],
      {
        cwd: ROOT,
        // The machine's page cache is not the test's to drop: only the mirror's files are evicted.
        env: { ...process.env, AWS_EC2_METADATA_DISABLED: 'true', BENCH_COLD_CACHE: 'files' },
      },
    ));
    ran.commands = tool.commands();
  });

  it('takes the webhook delivery with the mirror of that tool', () => {
    expect(ran.stdout).toMatch(
      /^ {2}webhook to target \(mirror --listen, .+\): .+ \(answered 202\)$/m,
    );
    expect(ran.commands).toContain('pull');
    expect(ran.commands.filter((command) => command === 'mirror')).toHaveLength(1);
  });

  it('times an incremental pull, a cold build and a deploy after one counter changed upstream', () => {
    const { stdout, dir } = ran;
    expect(stdout).toMatch(
      /^ {2}before the pull and again before the build: pages of the mirror, its state folder and the tool dropped, file by file/m,
    );
    expect(stdout).toMatch(
      /^Mirror refresh, one counter changed upstream \(each step a new process, spawn to exit\): /m,
    );
    // Between sweeps: the root, the feed, the language list, then the changed project and its components.
    expect(stdout).toMatch(
      /^ {2}pull \(incremental\): .+, \d+ requests, 1 file written, 5 components kept$/m,
    );
    expect(stdout).toMatch(/^ {2}build \(cold, from its cache\): .+, 8 files rewritten$/m);
    expect(stdout).toMatch(
      /^ {2}deploy \(to the local S3 server\): .+, 8 objects uploaded, 0 deleted$/m,
    );
    expect(stdout).toMatch(
      /^ {2}before the change, a re-pull with nothing changed: .+, 3 requests, 0 files written$/m,
    );
    // A sweep: the root, the lists, the feed, the two projects' statistics, and the component
    // list and reads of the changed component, which the feed still names (it is read with a margin).
    expect(stdout).toMatch(
      /^ {2}after it, a sweep with nothing changed \(--sweep-every 1\): .+, 11 requests$/m,
    );
    // A user's first mirror build beside the build of the same instance from its generated content.
    const first =
      /^ {2}a user's first mirror build \(the set-up's, pulled content\): .+ \(CPU .+ user, .+ system\), ([\d,]+) files, /m;
    const generated =
      /^ {4}the same instance from its generated content: .+ \(CPU .+ user, .+ system\), ([\d,]+) files, .+; mirror\/generated \d+\.\d\d×$/m;
    expect(stdout).toMatch(first);
    expect(stdout).toMatch(generated);
    expect(first.exec(stdout)![1]).toBe(generated.exec(stdout)![1]);
    const results = JSON.parse(readFileSync(join(dir, 'results-18-nopages.json'), 'utf8'));
    expect(results.refresh.totalMs).toBe(
      results.refresh.pull.ms + results.refresh.build.ms + results.refresh.deploy.ms,
    );
    expect(readdirSync(dir).sort()).toEqual(['content-2x3x2-nopages', 'results-18-nopages.json']);
  });
});
