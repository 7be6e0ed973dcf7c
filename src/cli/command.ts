/**
 * A small command runner in the manner of citty: a command is a plain object
 * (name, description, options, run); runMain() is the only place that reads
 * argv, writes usage and sets the exit code. Exit codes: 0 success, 1 content
 * or usage errors, 2 internal failures.
 */
import { parseArgs } from 'node:util';
import { UsageError } from '../errors.ts';

export interface OptionDef {
  type: 'string' | 'boolean';
  description: string;
  /** Shown in the usage line: `--content DIR`. */
  valueName?: string;
  default?: string;
  /** A string option that may be given more than once; its value is the list (empty when never given). */
  multiple?: boolean;
}

interface CommandDef<O extends Record<string, OptionDef>> {
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
}

export function defineCommand<O extends Record<string, OptionDef>>(command: CommandDef<O>): CommandDef<O> {
  return command;
}

/** The value of an integer flag, or a usage error saying what range was expected. */
export function integerFlag(name: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max)
    throw new UsageError(`--${name} expects an integer from ${min} to ${max} (got "${text}")`);
  return value;
}

/** Renders the --help text of a command. */
function renderUsage(command: CommandDef<Record<string, OptionDef>>): string {
  const rows = Object.entries(command.options).map(([name, option]) => {
    const flag = option.type === 'string' ? `--${name} ${option.valueName ?? 'VALUE'}` : `--${name}`;
    const fallback = option.default !== undefined ? ` (default: ${option.default})` : '';
    const repeat = option.multiple ? ' (repeatable)' : '';
    return [flag, option.description + fallback + repeat] as const;
  });
  rows.push(['--help', 'show this help']);
  const width = Math.max(...rows.map(([flag]) => flag.length));
  const lines = [
    `${command.description}`,
    '',
    `Usage: npm run ${command.name} -- [options]`,
    '',
    'Options:',
    ...rows.map(([flag, text]) => `  ${flag.padEnd(width)}  ${text}`),
  ];
  if (command.epilog) lines.push('', command.epilog);
  return lines.join('\n') + '\n';
}

/** Parses argv, runs the command, and sets process.exitCode. */
export async function runMain<O extends Record<string, OptionDef>>(command: CommandDef<O>, argv = process.argv.slice(2)): Promise<void> {
  const io: CommandIO = {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    interactive: Boolean(process.stderr.isTTY),
  };
  try {
    const parsed = parseOptions(command, argv);
    if (parsed === 'help') {
      io.out(renderUsage(command));
      process.exitCode = 0;
      return;
    }
    process.exitCode = await command.run(parsed, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\nRun \`npm run ${command.name} -- --help\` for the options.\n`);
      process.exitCode = 1;
    } else {
      const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
      io.err(`${text.startsWith('Internal error') ? '' : 'Internal error: '}${text}\n`);
      process.exitCode = 2;
    }
  }
}

/** Parses arguments against a command's options; `help` when --help was given. */
function parseOptions<O extends Record<string, OptionDef>>(command: CommandDef<O>, argv: string[]): ParsedOptions<O> | 'help' {
  const config: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = { help: { type: 'boolean' } };
  for (const [name, option] of Object.entries(command.options)) {
    config[name] = option.multiple ? { type: option.type, multiple: true } : { type: option.type };
  }
  let values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  try {
    ({ values } = parseArgs({ args: argv, options: config, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/\. To specify a positional argument.*$/s, '.'));
  }
  if (values.help) return 'help';
  const result: Record<string, string | boolean | (string | boolean)[] | undefined> = {};
  for (const [name, option] of Object.entries(command.options)) {
    result[name] = values[name] ?? (option.multiple ? [] : option.type === 'boolean' ? false : option.default);
  }
  return result as ParsedOptions<O>;
}
