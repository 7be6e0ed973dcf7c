/**
 * A small command runner in the manner of citty: a command is a plain object
 * (name, description, options, run); runCommand() parses its argv and runs it
 * over an io, and runMain() is the only place that reads the process's argv
 * and sets its exit code. Exit codes: 0 success, 1 content or usage errors,
 * 75 (EX_TEMPFAIL) for what a later run resumes (a TemporaryError), 2 for
 * bugs; runCommand is the one place they are told apart.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { TemporaryError, UsageError } from '../errors.ts';
import { packageFile } from '../package-files.ts';

/** The exit code of a failure a later run resumes: EX_TEMPFAIL of sysexits.h. */
export const EXIT_TEMPORARY = 75;

export interface OptionDef {
  type: 'string' | 'boolean';
  description: string;
  /** Shown in the usage line: `--content DIR`. */
  valueName?: string;
  default?: string;
  /** A string option that may be given more than once; its value is the list (empty when never given). */
  multiple?: boolean;
}

export interface CommandDef<O extends Record<string, OptionDef>> {
  name: string;
  description: string;
  options: O;
  /** Extra text after the option list (examples). */
  epilog?: string;
  run(args: ParsedOptions<O>, io: CommandIO): Promise<number>;
}

type ParsedOptions<O extends Record<string, OptionDef>> = {
  [K in keyof O]: O[K]['type'] extends 'boolean'
    ? boolean
    : O[K] extends { multiple: true }
      ? string[]
      : O[K] extends { default: string }
        ? string
        : string | undefined;
};

export interface CommandIO {
  out: (text: string) => void;
  err: (text: string) => void;
  /** Whether stderr is a terminal (progress is shown only there). */
  interactive: boolean;
  /** The environment the command reads (tokens, keys, what npm set): the process's, or a test's. */
  env: Readonly<Record<string, string | undefined>>;
}

export function defineCommand<O extends Record<string, OptionDef>>(
  command: CommandDef<O>,
): CommandDef<O> {
  return command;
}

/** The value of an integer flag, or a usage error saying what range was expected. */
export function integerFlag(name: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max)
    throw new UsageError(`--${name} expects an integer from ${min} to ${max} (got "${text}")`);
  return value;
}

/** A size flag's value in bytes: an integer, or one with `K`, `M` or `G` (KiB, MiB, GiB) after it. */
export function sizeFlag(name: string, text: string): number {
  const match = /^(\d+)([KMG]?)$/i.exec(text);
  const value = match
    ? Number(match[1]) * 1024 ** ' KMG'.indexOf(match[2]!.toUpperCase() || ' ')
    : 0;
  if (value < 1 || !Number.isSafeInteger(value))
    throw new UsageError(
      `--${name} expects a size in bytes, such as 500M or 8G (K, M and G are KiB, MiB and GiB; got "${text}")`,
    );
  return value;
}

/** How a command was started, for its usage line and hints: `npm run build --` or `weblate-snapshot build`. */
export type Invocation = 'npm' | 'bin';

/** Renders the --help text of a command. */
function renderUsage(
  command: CommandDef<Record<string, OptionDef>>,
  invocation: Invocation = 'npm',
): string {
  const rows = Object.entries(command.options).map(([name, option]) => {
    const flag =
      option.type === 'string' ? `--${name} ${option.valueName ?? 'VALUE'}` : `--${name}`;
    const fallback = option.default !== undefined ? ` (default: ${option.default})` : '';
    const repeat = option.multiple ? ' (repeatable)' : '';
    return [flag, option.description + fallback + repeat] as const;
  });
  rows.push(['-h, --help', 'show this help'], ['--version', 'show the version']);
  const width = Math.max(...rows.map(([flag]) => flag.length));
  const lines = [
    `${command.description}`,
    '',
    `Usage: ${commandLine(command.name, invocation)} [options]`,
    '',
    'Options:',
    ...rows.map(([flag, text]) => `  ${flag.padEnd(width)}  ${text}`),
  ];
  if (command.epilog) lines.push('', command.epilog);
  return lines.join('\n') + '\n';
}

/**
 * Parses argv, runs the command, and sets process.exitCode: runCommand over
 * the process's own streams and environment.
 */
export async function runMain<O extends Record<string, OptionDef>>(
  command: CommandDef<O>,
  argv = process.argv.slice(2),
  invocation: Invocation = 'npm',
): Promise<void> {
  process.exitCode = await runCommand(command, argv, processIO(), invocation);
}

/** The process's stdout, stderr and environment, as a command sees them. */
export function processIO(): CommandIO {
  return {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    interactive: Boolean(process.stderr.isTTY),
    env: process.env,
  };
}

/**
 * Parses argv and runs the command with `io`: its exit code. Started by
 * `npm run`, a flag npm took for itself (given before `--`) is named rather
 * than silently missing.
 */
export async function runCommand<O extends Record<string, OptionDef>>(
  command: CommandDef<O>,
  argv: readonly string[],
  io: CommandIO,
  invocation: Invocation = 'npm',
): Promise<number> {
  try {
    if (invocation === 'npm') refuseFlagsNpmTook(command, argv, io.env);
    const parsed = parseOptions(command, argv);
    if (parsed === 'help' || parsed === 'version') {
      io.out(parsed === 'help' ? renderUsage(command, invocation) : `${packageVersion()}\n`);
      return 0;
    }
    return await command.run(parsed, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(
        `${error.message}\nRun \`${commandLine(command.name, invocation)} --help\` for the options.\n`,
      );
      return 1;
    }
    if (error instanceof TemporaryError) {
      io.err(`${error.message}\n`);
      return EXIT_TEMPORARY;
    }
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    io.err(`${text.startsWith('Internal error') ? '' : 'Internal error: '}${text}\n`);
    return 2;
  }
}

/** Runs the command when this module is the script node was started with (not when it is imported). */
export async function runIfMain<O extends Record<string, OptionDef>>(
  meta: ImportMeta,
  command: CommandDef<O>,
): Promise<void> {
  const started = process.argv[1];
  if (started && realpathSync(started) === realpathSync(fileURLToPath(meta.url)))
    await runMain(command);
}

/** The version in package.json. */
export function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

// --- internal ---

function commandLine(name: string, invocation: Invocation): string {
  return invocation === 'npm' ? `npm run ${name} --` : `weblate-snapshot ${name}`;
}

/**
 * `npm run build --watch` gives the script no `--watch`: npm keeps flags
 * before `--` as its own config and sets `npm_config_watch`. When npm runs
 * this very command and set such a variable for one of its flags, the user
 * meant the flag.
 */
function refuseFlagsNpmTook(
  command: CommandDef<Record<string, OptionDef>>,
  argv: readonly string[],
  env: CommandIO['env'],
): void {
  if (env.npm_lifecycle_event !== command.name) return;
  for (const [name, option] of Object.entries(command.options)) {
    const value = env[`npm_config_${name.replaceAll('-', '_')}`];
    if (!value || argv.some((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`))) continue;
    const flag = option.type === 'boolean' ? `--${name}` : `--${name} ${value}`;
    throw new UsageError(
      `npm took --${name} for itself (npm passes flags to the script only after --): run \`npm run ${command.name} -- ${flag}\``,
    );
  }
}

/** Parses arguments against a command's options; `help` or `version` when asked for. */
function parseOptions<O extends Record<string, OptionDef>>(
  command: CommandDef<O>,
  argv: readonly string[],
): ParsedOptions<O> | 'help' | 'version' {
  const config: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }> =
    {
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean' },
    };
  for (const [name, option] of Object.entries(command.options)) {
    config[name] = option.multiple ? { type: option.type, multiple: true } : { type: option.type };
  }
  let values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: config,
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(
      (error as Error).message.replace(/\. To specify a positional argument.*$/s, '.'),
    );
  }
  if (values.help) return 'help';
  if (values.version) return 'version';
  const result: Record<string, string | boolean | (string | boolean)[] | undefined> = {};
  for (const [name, option] of Object.entries(command.options)) {
    result[name] =
      values[name] ?? (option.multiple ? [] : option.type === 'boolean' ? false : option.default);
  }
  return result as ParsedOptions<O>;
}
