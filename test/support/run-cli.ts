/**
 * Runs a command of scripts/ in the test's own process, as runScript runs it in a process of its
 * own: the same argv, exit code and output, without the second or two a node start takes. Paths
 * are read against the test's working folder, so give them absolute; a test about the working
 * folder, signals or the process itself uses runScript.
 */
import type { CommandIO } from '../../src/cli/command.ts';
import { runCommand } from '../../src/cli/command.ts';
import { runCommandLine } from '../../scripts/weblate-snapshot.ts';
import { watchedText, type ChildOutput } from './child-output.ts';
import type { ScriptResult } from './run-script.ts';

type Script = 'build' | 'check' | 'serve' | 'sidecar' | 'pull' | 'deploy' | 'mirror' | 'types';

interface CliOptions {
  /** Added to the test process's environment, as runScript adds them to the child's. */
  env?: Record<string, string>;
}

/** `scripts/<script>.ts` with `args`, as `npm run <script> -- args` runs it (`bench` too). */
export async function runCli(
  script: Script | 'bench',
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

/** A command that serves, running in the test's process until stopped. */
export interface RunningCli {
  /** Everything printed so far, stdout and stderr as they came. */
  output: () => string;
  /** As ChildOutput's: the first match of `pattern` after earlier waits' matches; rejects if the command ends first. */
  waitFor: ChildOutput['waitFor'];
  /** Stops it, as SIGTERM stops a process of it, and waits for its end. */
  stop: () => Promise<ScriptResult>;
}

/**
 * `scripts/<script>.ts` with `args`, as a process of it serves until SIGTERM, in the test's own
 * process: for a server a test needs (the upstream of a pull), not one it is about.
 */
export function startCli(script: Script, args: string[], options: CliOptions = {}): RunningCli {
  let stopNow = () => {};
  const stopped = new Promise<void>((resolve) => (stopNow = resolve));
  const output = watchedText(`${script} ended`);
  let stdout = '';
  let stderr = '';
  const io: CommandIO = {
    out: (text) => {
      stdout += text;
      output.add(text);
    },
    err: (text) => {
      stderr += text;
      output.add(text);
    },
    interactive: false,
    env: { ...process.env, ...options.env },
    stopped,
  };
  const run = import(`../../scripts/${script}.ts`)
    .then(({ command }: { command: Parameters<typeof runCommand>[0] }) =>
      runCommand(command, args, io, 'npm'),
    )
    .finally(output.end);
  return {
    output: output.text,
    waitFor: output.waitFor,
    stop: async () => {
      stopNow();
      return { code: await run, stdout, stderr };
    },
  };
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
