/**
 * The package's command line as a user meets it (issue 13, "a CLI that fits users' habits"):
 * `weblate-snapshot <command>` from any folder, -h and --version everywhere, and a flag that npm
 * took for itself (`npm run check --strict`, without `--`) named instead of silently missing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from './helpers.ts';
import { runCliBin } from './support/run-cli.ts';
import { runBin, runProgram } from './support/run-script.ts';

const VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
).version;
const bin = (args: string[]) => runBin(args, { cwd: tempDir() });
/** The same command line in-process, where the launcher and the working folder are not the point. */
const commandLine = (args: string[]) => runCliBin(args);

describe('weblate-snapshot', () => {
  it('lists its commands without arguments and with -h', async () => {
    for (const args of [[], ['-h'], ['--help']]) {
      const result = await commandLine(args);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^Usage: weblate-snapshot <command> \[options\]$/m);
      for (const command of ['build', 'check', 'serve', 'sidecar', 'pull'])
        expect(result.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
    }
  });

  it('prints its version, for itself and for every command', async () => {
    expect((await commandLine(['--version'])).stdout).toBe(`${VERSION}\n`);
    expect((await commandLine(['check', '--version'])).stdout).toBe(`${VERSION}\n`);
  });

  it('refuses an unknown command with exit 1 and the list', async () => {
    const result = await commandLine(['biuld']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Unknown command "biuld"\.\n/);
  });

  it('runs a command from any folder, its usage naming the command line it was started with', async () => {
    const help = await bin(['build', '-h']);
    expect(help.stdout).toContain('Usage: weblate-snapshot build [options]');
    const checked = await bin(['check', '--content', join(ROOT, 'content')]);
    expect(checked.code).toBe(0);
    expect(checked.stdout).toMatch(/content\/ is valid: 2 projects/);
    const wrong = await bin(['check', '--contnet', 'x']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('Run `weblate-snapshot check --help` for the options.');
  });
});

describe('npm run without --', () => {
  it('names the flag npm took for itself and the command line that passes it', async () => {
    const result = await runProgram('npm', ['run', '--silent', 'check', '--strict']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'npm took --strict for itself (npm passes flags to the script only after --): run `npm run check -- --strict`',
    );
  });
});
