/**
 * A small command runner in the manner of citty: a command is a plain object
 * (name, description, options, run); runCommand() parses its argv and runs it
 * over an io, and runMain() is the only place that reads the process's argv
 * and sets its exit code. Exit codes: 0 success, 1 content or usage errors,
 * 75 (EX_TEMPFAIL) for what a later run resumes (a TemporaryError), 2 for
 * bugs; runCommand is the one place they are told apart.
 * Every command takes --quiet; one that says what it did
 * takes --json, which prints that summary as one JSON object on stdout.
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
  /** Takes --json: the command gives io.summary what it did. */
  json?: boolean;
  /** Flags of earlier versions, by the name that replaced them: named when one is given. */
  renamed?: Record<string, string>;
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
  /** What the run did, for --json (absent when nobody reads it); fields of one call replace those given before. */
  summary?: (fields: Record<string, unknown>) => void;
  /**
   * What ends a command that serves until stopped (sidecar, serve, build --watch, mirror
   * --listen): the first SIGINT or SIGTERM unless given, as a test that runs one in its own
   * process gives it.
   */
  stopped?: Promise<void>;
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

/** The widest a help line is: a terminal's default width. */
const HELP_WIDTH = 80;

/** Renders the --help text of a command, wrapped at 80 columns. */
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
  rows.push(['--quiet', 'print no progress and no summary; errors still go to stderr']);
  if (command.json) rows.push(['--json', 'print a summary of the run as JSON on stdout']);
  rows.push(['-h, --help', 'show this help'], ['--version', 'show the version']);
  const lines = [
    ...wrap(command.description, ''),
    '',
    ...wrap(`Usage: ${commandLine(command.name, invocation)} [options]`, ''),
    '',
    'Options:',
    ...optionRows(rows),
  ];
  if (command.epilog)
    lines.push('', ...command.epilog.split('\n').flatMap((line) => wrapLine(line)));
  return lines.join('\n') + '\n';
}

/** Help rows (a flag or command, its text) wrapped at 80 columns: the text beside it, or under it when it is wide. */
export function optionRows(rows: (readonly [string, string])[]): string[] {
  const narrow = rows.filter(([flag]) => flag.length <= 24);
  const width = Math.max(...narrow.map(([flag]) => flag.length));
  return rows.flatMap(([flag, text]) => {
    if (flag.length > width) return [`  ${flag}`, ...wrap(text, ' '.repeat(width + 4))];
    const [first, ...rest] = wrap(text, ' '.repeat(width + 4));
    return [`  ${flag.padEnd(width)}  ${first!.trimStart()}`, ...rest];
  });
}

/** A line of text wrapped at word breaks; continuation lines keep its indent, and two more spaces. */
function wrapLine(line: string): string[] {
  const indent = /^\s*/.exec(line)![0];
  const [first, ...rest] = wrap(line.slice(indent.length), indent + '  ');
  return first === undefined ? [''] : [indent + first.trimStart(), ...rest];
}

/** Words into lines of at most 80 columns, each starting with `indent`. */
function wrap(text: string, indent: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > HELP_WIDTH) {
      lines.push(line);
      line = '';
    }
    line = line ? `${line} ${word}` : indent + word;
  }
  return line || lines.length === 0 ? [...lines, line] : lines;
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
    if (!parsed.output.json) return await command.run(parsed.args, outputIO(io, parsed.output));
    // With --json, stdout holds the summary alone: the command's own lines are left out, as with --quiet.
    let summary: Record<string, unknown> = {};
    const summarizing = {
      ...outputIO(io, { quiet: true }),
      summary: (fields: typeof summary) => {
        summary = { ...summary, ...fields };
      },
    };
    const exitCode = await command.run(parsed.args, summarizing);
    io.out(
      `${JSON.stringify({ command: command.name, ok: exitCode === 0, exitCode, ...summary })}\n`,
    );
    return exitCode;
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

/** How much a run prints: --quiet drops progress and the lines on stdout (errors still go to stderr). */
interface OutputFlags {
  quiet: boolean;
  json?: boolean;
}

function outputIO(io: CommandIO, output: OutputFlags): CommandIO {
  return output.quiet ? { ...io, out: () => undefined, interactive: false } : io;
}

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
): { args: ParsedOptions<O>; output: OutputFlags } | 'help' | 'version' {
  const config: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }> =
    {
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean' },
      quiet: { type: 'boolean' },
    };
  if (command.json) config.json = { type: 'boolean' };
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
    throw new UsageError(parseErrorMessage(error as Error, command, Object.keys(config)));
  }
  if (values.help) return 'help';
  if (values.version) return 'version';
  const result: Record<string, string | boolean | (string | boolean)[] | undefined> = {};
  for (const [name, option] of Object.entries(command.options)) {
    result[name] =
      values[name] ?? (option.multiple ? [] : option.type === 'boolean' ? false : option.default);
  }
  return {
    args: result as ParsedOptions<O>,
    output: { quiet: values.quiet === true, json: values.json === true },
  };
}

/** parseArgs's message, with the flag meant named after an unknown one. */
function parseErrorMessage(
  error: Error,
  command: CommandDef<Record<string, OptionDef>>,
  known: string[],
): string {
  const unknown = /^Unknown option '(--?[^']*)'/.exec(error.message)?.[1];
  if (unknown === undefined)
    return error.message.replace(/\. To specify a positional argument.*$/s, '.');
  const name = unknown.replace(/^--?/, '').split('=')[0]!;
  const renamed = command.renamed?.[name];
  if (renamed !== undefined)
    return `unknown flag --${name}; did you mean --${renamed}? (--${name} was renamed --${renamed})`;
  const nearest = nearestName(name, known);
  return nearest === null
    ? `unknown flag ${unknown}`
    : `unknown flag ${unknown}; did you mean --${nearest}?`;
}

/** The known name closest to `name` in edits, when it is close enough to be a typo. */
function nearestName(name: string, known: string[]): string | null {
  let best: { name: string; distance: number } | null = null;
  for (const candidate of known) {
    const distance = editDistance(name, candidate);
    if (!best || distance < best.distance) best = { name: candidate, distance };
  }
  return best && best.distance <= Math.max(2, Math.floor(name.length / 3)) ? best.name : null;
}

/** Levenshtein distance: the fewest insertions, deletions and substitutions from a to b. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current.push(
        Math.min(
          previous[j]! + 1,
          current[j - 1]! + 1,
          previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
        ),
      );
    previous = current;
  }
  return previous[b.length]!;
}
