/**
 * Issue 24: the bench's webhook latency ran the repository's bin (through tsx when it has no
 * lib/) whatever tool the run timed; with `--tool BIN` the mirror that takes the delivery is
 * that bin's, as every other step of the refresh is. The tool here is the compiled bin behind a
 * wrapper that writes down each command it is started for.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { ROOT, tempDir, TSX } from '../helpers.ts';

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
  it('takes the webhook delivery with the mirror of that tool', async () => {
    const dir = tempDir('wsnap-bench-');
    const tool = loggingTool();
    const scale = ['--projects', '2', '--components', '3', '--languages', '2'];
    const { stdout } = await run(
      process.execPath,
      [
        ...[...TSX, join(ROOT, 'scripts/bench.ts'), ...scale, '--refresh-only'],
        ...['--tool', tool.bin, '--pages', 'off', '--dir', dir],
      ],
      {
        cwd: ROOT,
        // The machine's page cache is not the test's to drop: only the mirror's files are evicted.
        env: { ...process.env, AWS_EC2_METADATA_DISABLED: 'true', BENCH_COLD_CACHE: 'files' },
      },
    );
    expect(stdout).toMatch(/^ {2}webhook to target \(mirror --listen, .+\): .+ \(answered 202\)$/m);
    const commands = tool.commands();
    expect(commands).toContain('pull');
    expect(commands.filter((command) => command === 'mirror')).toHaveLength(1);
  });
});
