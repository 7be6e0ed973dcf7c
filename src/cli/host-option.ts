/** The build's --host flag: whose `_redirects` and `_headers` take the fixed names at the root. */
import { UsageError } from '../errors.ts';
import { ROOT_HOSTS, type RootHost } from '../hosts/index.ts';
import type { OptionDef } from './command.ts';

export const HOST_OPTION = {
  host: {
    type: 'string',
    valueName: ROOT_HOSTS.join('|'),
    description: "put this host's _redirects and _headers at the root of the output (every host's files are under hosts/)",
  },
} as const satisfies Record<string, OptionDef>;

export function hostOption(value: string | undefined): RootHost | undefined {
  if (value === undefined) return undefined;
  const host = ROOT_HOSTS.find((name) => name === value);
  if (!host) throw new UsageError(`--host expects ${ROOT_HOSTS.map((name) => `"${name}"`).join(' or ')} (got "${value}")`);
  return host;
}
