/**
 * Runs a command of scripts/ in the test's own process, as runScript runs it in a process of its
 * own: the same argv, exit code and output, without the second or two a node start takes. Paths
 * are read against the test's working folder, so give them absolute; a test about the working
 * folder, signals or the process itself uses runScript.
 */
import type { CommandIO } from '../../src/cli/command.ts';
import { runCommand } from '../../src/cli/command.ts';
import { runCommandLine } from '../../scripts/weblate-snapshot.ts';
import type { ScriptResult } from './run-script.ts';

type Script = 'build' | 'check' | 'serve' | 'sidecar' | 'pull' | 'deploy' | 'mirror' | 'types';

interface CliOptions {
  /** Added to the test process's environment, as runScript adds them to the child's. */
  env?: Record<string, string>;
}

/** `scripts/<script>.ts` with `args`, as `npm run <script> -- args` runs it. */
export async function runCli(
  script: Script,
  args: string[],
  options: CliOptions = {},
): Promise<ScriptResult> {
  const { command } = (await import(`../../scripts/${script}.ts`)) as {
    command: Parameters<typeof runCommand>[0];
  };
  return capture(options, (io) => runCommand(command, args, io, 'npm'));
}

/** The package's command line with `args`, as `weblate-snapshot args` runs it. */
export function runCliBin(args: string[], options: CliOptions = {}): Promise<ScriptResult> {
  return capture(options, (io) => runCommandLine(args, io, 'bin'));
}

async function capture(
  options: CliOptions,
  run: (io: CommandIO) => Promise<number>,
): Promise<ScriptResult> {
  let stdout = '';
  let stderr = '';
  const io: CommandIO = {
    out: (text) => void (stdout += text),
    err: (text) => void (stderr += text),
    // A child's stderr is a pipe, never a terminal.
    interactive: false,
    env: { ...process.env, ...options.env },
  };
  const code = await run(io);
  return { code, stdout, stderr };
}
