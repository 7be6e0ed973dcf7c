/**
 * `weblate-snapshot <command>`: the package's one command line, with the
 * commands the npm scripts run (build, check, serve, sidecar, pull, deploy, types). Run by
 * bin/weblate-snapshot.js after `npm install`, or `npx weblate-snapshot` in
 * the repository.
 */
import { packageVersion, runMain, type CommandDef, type OptionDef } from '../src/cli/command.ts';
import { command as build } from './build.ts';
import { command as check } from './check.ts';
import { command as deploy } from './deploy.ts';
import { command as pull } from './pull.ts';
import { command as serve } from './serve.ts';
import { command as sidecar } from './sidecar.ts';
import { command as types } from './types.ts';

/** Each command with its own options; here they are only dispatched to. */
const COMMANDS: Record<string, CommandDef<Record<string, OptionDef>>> = { build, check, serve, sidecar, pull, deploy, types };

const [name, ...rest] = process.argv.slice(2);
const chosen = name !== undefined && Object.hasOwn(COMMANDS, name) ? COMMANDS[name]! : null;
if (chosen) {
  await runMain(chosen, rest, 'bin');
} else if (name === '--version') {
  process.stdout.write(`${packageVersion()}\n`);
} else {
  const help = name === undefined || name === '-h' || name === '--help';
  (help ? process.stdout : process.stderr).write(overview(name));
  process.exitCode = help ? 0 : 1;
}

function overview(asked: string | undefined): string {
  const width = Math.max(...Object.keys(COMMANDS).map((key) => key.length));
  const lines = [
    ...(asked === undefined || asked === '-h' || asked === '--help' ? [] : [`Unknown command "${asked}".`, '']),
    'Static copies of the Weblate REST API from YAML content.',
    '',
    'Usage: weblate-snapshot <command> [options]',
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(([key, command]) => `  ${key.padEnd(width)}  ${command.description.split(/(?<=\.) /)[0]}`),
    '',
    'Run `weblate-snapshot <command> --help` for its options; `--version` for the version.',
  ];
  return `${lines.join('\n')}\n`;
}
