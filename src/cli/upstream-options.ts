/**
 * The flags of a command that reads a live Weblate (pull, mirror): the API key and the projects
 * to read, declared once so that the two commands cannot drift apart.
 */
import type { CommandIO, OptionDef } from './command.ts';

export const UPSTREAM_OPTIONS = {
  token: {
    type: 'string',
    valueName: 'KEY',
    description: 'API key, sent as "Authorization: Token KEY" (or set WEBLATE_TOKEN)',
  },
  project: {
    type: 'string',
    valueName: 'SLUG',
    multiple: true,
    description: 'pull only this project',
  },
} as const satisfies Record<string, OptionDef>;

/** --token, else WEBLATE_TOKEN, which keeps the key off the command line; undefined for none. */
export function upstreamToken(flag: string | undefined, env: CommandIO['env']): string | undefined {
  return flag ?? (env.WEBLATE_TOKEN || undefined);
}
