/**
 * The package's programmatic API (`import { build } from 'weblate-snapshot'`, docs/api.md). Each
 * function runs the command of its name in this process, with the options as its flags, and
 * resolves to the summary the command's --json prints; a run that fails rejects with a
 * CommandFailed holding the exit code, the summary and what the command said on stderr. One
 * implementation, one set of checks: what the command line refuses, the API refuses too.
 */
import process from 'node:process';
import type { CommandIO } from '../src/cli/command.ts';
import { runCommandLine } from './weblate-snapshot.ts';

/** Settings a build, a check (and the sidecar) take in place of site.yaml's. */
export interface SettingsOptions {
  baseUrl?: string;
  webUrl?: string;
  pageSize?: number;
  pagination?: 'path' | 'query';
  weblateVersion?: '4' | '2026.8';
  pages?: 'on' | 'off';
}

export interface BuildOptions extends SettingsOptions {
  /** Content folder to read (default `content`). */
  content?: string;
  /** Output folder (default `dist`). */
  out?: string;
  full?: boolean;
  verify?: boolean;
  force?: boolean;
  /** Hosting provider whose `_redirects` and `_headers` go at the root of the tree. */
  host?: string;
  strict?: boolean;
}

export interface CheckOptions extends SettingsOptions {
  content?: string;
  strict?: boolean;
}

export interface PullOptions {
  /** API root of the instance, such as https://weblate.example.org/api/. */
  from: string;
  /** Content folder to write. */
  out: string;
  full?: boolean;
  token?: string;
  project?: string[];
  concurrency?: number;
  retries?: number;
  maxWait?: number;
  maxBytes?: string;
}

export interface DeployOptions {
  /** The built tree (default `dist`). */
  out?: string;
  /** `s3://BUCKET[/PREFIX]`. */
  to: string;
  endpoint?: string;
  region?: string;
  cacheControl?: string;
  concurrency?: number;
  retries?: number;
  verify?: boolean;
  dryRun?: boolean;
  allowBaseUrl?: boolean;
}

export interface MirrorOptions {
  /** The API root of the instance to copy. */
  from: string;
  /** `s3://BUCKET[/PREFIX]`, or a folder a web server serves. */
  to: string;
  /**
   * For a folder, the working folder: the pulled content (default `weblate-mirror`); for a
   * bucket, where each run's scratch folder goes (the system's temporary folder by default).
   */
  work?: string;
  endpoint?: string;
  region?: string;
  /** For a bucket: `s3://BUCKET/KEY` of the state the next run needs (default `PREFIX/.weblate-snapshot/state`). */
  state?: string;
  /** For a bucket: seconds to wait for another run's lease. */
  wait?: number;
  project?: string[];
  baseUrl?: string;
  full?: boolean;
  retries?: number;
  allowBaseUrl?: boolean;
}

/** What every call takes beside its options. */
export interface RunOptions {
  /** The environment the command reads (WEBLATE_TOKEN, AWS_*): this process's by default. */
  env?: Readonly<Record<string, string | undefined>>;
}

/** A command's --json summary: always `command`, `ok` and `exitCode`, then its own figures. */
export interface Summary {
  command: string;
  ok: boolean;
  exitCode: number;
  [field: string]: unknown;
}

/** A run that did not succeed: exit code 1 for content or usage errors, 75 to resume later, 2 for a bug. */
export class CommandFailed extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    readonly summary: Summary | null,
  ) {
    super(message);
    this.name = 'CommandFailed';
  }
}

export const build = (options: BuildOptions = {}, run: RunOptions = {}) =>
  runCommand('build', options, run);
export const check = (options: CheckOptions = {}, run: RunOptions = {}) =>
  runCommand('check', options, run);
export const pull = (options: PullOptions, run: RunOptions = {}) =>
  runCommand('pull', options, run);
export const deploy = (options: DeployOptions, run: RunOptions = {}) =>
  runCommand('deploy', options, run);
/** One refresh of a mirror (no `every`/`listen`: those keep a process running). */
export const mirror = (options: MirrorOptions, run: RunOptions = {}) =>
  runCommand('mirror', options, run);

// --- internal ---

type OptionValue = string | number | boolean | string[] | undefined;

async function runCommand(name: string, options: object, run: RunOptions): Promise<Summary> {
  let stdout = '';
  let stderr = '';
  const io: CommandIO = {
    out: (text) => (stdout += text),
    err: (text) => (stderr += text),
    interactive: false,
    env: run.env ?? process.env,
  };
  const argv = [name, ...flagsOf(options as Record<string, OptionValue>), '--json'];
  const exitCode = await runCommandLine(argv, io, 'bin');
  const summary = stdout ? (JSON.parse(stdout) as Summary) : null;
  if (exitCode !== 0 || summary === null)
    throw new CommandFailed(stderr.trim() || `${name} exited ${exitCode}`, exitCode, summary);
  return summary;
}

/** `{ baseUrl: 'x', full: true, project: ['a', 'b'] }` as `--base-url x --full --project a --project b`. */
function flagsOf(options: Record<string, OptionValue>): string[] {
  return Object.entries(options).flatMap(([key, value]) => {
    const flag = `--${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
    if (value === undefined || value === false) return [];
    if (value === true) return [flag];
    if (Array.isArray(value)) return value.flatMap((item) => [flag, item]);
    return [flag, String(value)];
  });
}
