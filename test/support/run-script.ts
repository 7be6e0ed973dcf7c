/** Runs a script of scripts/ as a real process: its exit code and output. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT, TSX } from '../helpers.ts';

const run = promisify(execFile);

export interface ScriptResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runScript(
  script: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<ScriptResult> {
  const env = { ...process.env, ...options.env };
  try {
    const { stdout, stderr } = await run(process.execPath, [...TSX, join(ROOT, `scripts/${script}.ts`), ...args], {
      cwd: options.cwd ?? ROOT,
      env,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
