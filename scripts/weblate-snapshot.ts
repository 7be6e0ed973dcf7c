/**
 * `weblate-snapshot <command>`: the package's one command line, with the
 * commands the npm scripts run (build, check, serve, sidecar, pull, deploy,
 * mirror, types). Run by bin/weblate-snapshot.js after `npm install` (or `npx
 * weblate-snapshot` in the repository), and by bin/npm-script.js for the npm
 * scripts. A command's module is loaded only when it runs: `build` does not
 * load the S3 client `deploy` needs.
 */
import {
  optionRows,
  packageVersion,
  processIO,
  runCommand,
  type CommandDef,
  type CommandIO,
  type Invocation,
  type OptionDef,
} from '../src/cli/command.ts';

type Command = CommandDef<Record<string, OptionDef>>;

/** Each command's module; here they are only dispatched to. */
const COMMANDS: Record<string, () => Promise<{ command: Command }>> = {
  build: () => import('./build.ts'),
  check: () => import('./check.ts'),
  serve: () => import('./serve.ts'),
  sidecar: () => import('./sidecar.ts'),
  pull: () => import('./pull.ts'),
  deploy: () => import('./deploy.ts'),
  mirror: () => import('./mirror.ts'),
  types: () => import('./types.ts'),
};

/** Runs `<command> [options]` as typed after the bin's name (`bin`) or after `npm run` (`npm`). */
export async function main(argv: readonly string[], invocation: Invocation): Promise<void> {
  process.exitCode = await runCommandLine(argv, processIO(), invocation);
}

/** The command line over `io`: the command named first runs with the rest; its exit code. */
export async function runCommandLine(
  argv: readonly string[],
  io: CommandIO,
  invocation: Invocation,
): Promise<number> {
  const [name, ...rest] = argv;
  const load = name !== undefined && Object.hasOwn(COMMANDS, name) ? COMMANDS[name]! : null;
  if (load) return runCommand((await load()).command, rest, io, invocation);
  if (name === '--version') {
    io.out(`${packageVersion()}\n`);
    return 0;
  }
  const help = name === undefined || name === '-h' || name === '--help';
  (help ? io.out : io.err)(await overview(name));
  return help ? 0 : 1;
}

// --- internal ---

async function overview(asked: string | undefined): Promise<string> {
  const commands = await Promise.all(
    Object.entries(COMMANDS).map(async ([key, load]) => [key, (await load()).command] as const),
  );
  const lines = [
    ...(asked === undefined || asked === '-h' || asked === '--help'
      ? []
      : [`Unknown command "${asked}".`, '']),
    'Static copies of the Weblate REST API from YAML content.',
    '',
    'Usage: weblate-snapshot <command> [options]',
    '',
    'Commands:',
    ...optionRows(
      commands.map(([key, command]) => [key, command.description.split(/(?<=\.) /)[0]!] as const),
    ),
    '',
    'Run `weblate-snapshot <command> --help` for its options,',
    'and `weblate-snapshot --version` for the version.',
  ];
  return `${lines.join('\n')}\n`;
}
