/**
 * Issue 23, item 5: one meaning per flag (the sidecar's bind address was `--host`, which the build
 * uses for a hosting provider), an unknown flag answered with the nearest known one, help wrapped
 * at 80 columns, and the help of pull and the sidecar speaking of both flavours.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.ts';
import { runCliBin } from '../support/run-cli.ts';

const COMMANDS = ['build', 'check', 'serve', 'sidecar', 'pull', 'deploy', 'types'];

describe('the command line (issue 23)', () => {
  it('wraps every help text at 80 columns', async () => {
    for (const args of [['-h'], ...COMMANDS.map((name) => [name, '-h'])]) {
      const result = await runCliBin(args);
      expect(result.code).toBe(0);
      const long = result.stdout.split('\n').filter((line) => line.length > 80);
      expect({ args, long }).toEqual({ args, long: [] });
    }
  });

  it('suggests the nearest flag for an unknown one', async () => {
    const result = await runCliBin(['build', '--bse-url', 'https://l10n.example.org']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^unknown flag --bse-url; did you mean --base-url\?\n/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const far = await runCliBin(['check', '--zzzzzzzz']);
    expect(far.stderr).toMatch(/^unknown flag --zzzzzzzz\n/);
  });

  it('names the sidecar bind address --bind, and --host given to it the flag that replaced it', async () => {
    const help = await runCliBin(['sidecar', '-h']);
    expect(help.stdout).toMatch(/^ {2}--bind ADDRESS /m);
    expect(help.stdout).not.toMatch(/^ {2}--host /m);
    const old = await runCliBin(['sidecar', '--host', '0.0.0.0']);
    expect(old.code).toBe(1);
    expect(old.stderr).toMatch(/^unknown flag --host; did you mean --bind\?/);
  });

  it('says in the help of pull and the sidecar that they speak both flavours', async () => {
    for (const name of ['pull', 'sidecar']) {
      const help = (await runCliBin([name, '-h'])).stdout;
      expect(help.slice(0, help.indexOf('\n\n'))).toMatch(/4\.x or 2026\.8/);
    }
  });

  it('prints nothing on stdout with --quiet, and a JSON summary with --json', async () => {
    const content = join(ROOT, 'content');
    const quiet = await runCliBin(['check', '--content', content, '--quiet']);
    expect(quiet).toEqual({ code: 0, stdout: '', stderr: '' });
    const json = await runCliBin(['check', '--content', content, '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      command: 'check',
      ok: true,
      exitCode: 0,
      content,
      projects: 2,
      components: 4,
      translations: 19,
      languages: 10,
      errors: 0,
      warnings: 0,
    });
    const failed = await runCliBin(['check', '--content', join(ROOT, 'test'), '--json']);
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.stdout)).toMatchObject({ command: 'check', ok: false, exitCode: 1 });
    expect(failed.stderr).not.toBe('');
  });
});
