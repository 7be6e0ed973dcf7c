/**
 * Issue 27, fast tests: a command runs over the io it is given (runCommand), so that a test can
 * run it in its own process. Its exit code is returned, not set on the process; what it prints
 * goes to the io; the environment it reads is the io's, not the process's.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCommand, type CommandIO } from '../../src/cli/command.ts';
import { command as check } from '../../scripts/check.ts';
import { command as pull } from '../../scripts/pull.ts';
import { runCommandLine } from '../../scripts/weblate-snapshot.ts';
import { ROOT, tempDir } from '../helpers.ts';
import { startScriptedServer } from '../support/scripted-server.ts';

function captured(env: CommandIO['env'] = {}) {
  const printed = { out: '', err: '' };
  const io: CommandIO = {
    out: (text) => void (printed.out += text),
    err: (text) => void (printed.err += text),
    interactive: false,
    env,
  };
  return { io, printed };
}

afterEach(() => {
  process.exitCode = undefined;
});

describe('runCommand', () => {
  it('returns the exit code and prints to the io, leaving the process exit code alone', async () => {
    const ok = captured();
    expect(await runCommand(check, ['--content', join(ROOT, 'content')], ok.io)).toBe(0);
    expect(ok.printed.out).toMatch(/content\/ is valid: 2 projects/);
    const wrong = captured();
    expect(await runCommand(check, ['--contnet', 'x'], wrong.io)).toBe(1);
    expect(wrong.printed.err).toContain('unknown flag --contnet; did you mean --content?');
    expect(wrong.printed.err).toContain('Run `npm run check -- --help` for the options.');
    expect(process.exitCode).toBeUndefined();
  });

  it("reads the io's environment: the flag npm took, and pull's token", async () => {
    const npm = captured({ npm_lifecycle_event: 'check', npm_config_strict: 'true' });
    expect(await runCommand(check, ['--content', join(ROOT, 'content')], npm.io)).toBe(1);
    expect(npm.printed.err).toContain('npm took --strict for itself');
    const server = await startScriptedServer(() => ({ status: 200, body: '{}' }));
    try {
      const out = join(tempDir(), 'mirror');
      const env = captured({ WEBLATE_TOKEN: 'wlu_from_io' });
      const args = ['--from', `${server.url}/api/`, '--out', out, '--retries', '0'];
      expect(await runCommand(pull, args, env.io)).toBe(1);
      expect(server.log.map((entry) => entry.authorization)).toEqual(['Token wlu_from_io']);
    } finally {
      await server.close();
    }
  });

  it("runs the command line's listing and unknown commands over the io too", async () => {
    const listing = captured();
    expect(await runCommandLine([], listing.io, 'bin')).toBe(0);
    expect(listing.printed.out).toMatch(/^Usage: weblate-snapshot <command> \[options\]$/m);
    const unknown = captured();
    expect(await runCommandLine(['biuld'], unknown.io, 'bin')).toBe(1);
    expect(unknown.printed.err).toMatch(/^Unknown command "biuld"\.\n/);
    expect(process.exitCode).toBeUndefined();
  });
});
