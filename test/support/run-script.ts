/** Runs a program as a real process, a script of scripts/ or the package's bin: its exit code and output. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT, scriptArgs } from '../helpers.ts';

const run = promisify(execFile);

export interface ScriptResult {
  code: number;
  stdout: string;
  stderr: string;
}

interface RunOptions {
  cwd?: string;
  env?: Record<string, string>;
}

/** `scripts/<script>.ts` with `args`, run by node with tsx. */
export function runScript(
  script: string,
  args: string[],
  options: RunOptions = {},
): Promise<ScriptResult> {
  return runProgram(process.execPath, [...scriptArgs(script), ...args], options);
}

/** `bin/weblate-snapshot.js` with `args`, run by node as npm's bin link runs it. */
export function runBin(args: string[], options: RunOptions = {}): Promise<ScriptResult> {
  return runProgram(process.execPath, [join(ROOT, 'bin/weblate-snapshot.js'), ...args], options);
}

/** Any program; a non-zero exit is a result, not a throw. */
export async function runProgram(
  file: string,
  args: string[],
  options: RunOptions = {},
): Promise<ScriptResult> {
  try {
    const { stdout, stderr } = await run(file, args, {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, ...options.env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
