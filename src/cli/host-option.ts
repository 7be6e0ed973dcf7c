/** The build's --host flag: whose `_redirects` and `_headers` take the fixed names at the root. */
import { quoteAll } from '../content/schema.ts';
import { UsageError } from '../errors.ts';
import { ROOT_HOSTS, type RootHost } from '../hosts/index.ts';
import type { OptionDef } from './command.ts';

export const HOST_OPTION = {
  host: {
    type: 'string',
    valueName: [...ROOT_HOSTS, 'none'].join('|'),
    description:
      "put this host's _redirects and _headers at the root of the output (every host's files are under hosts/); default: none (--watch: what the tree was built with)",
  },
} as const satisfies Record<string, OptionDef>;

/** The host given: a host, null for `none`, or undefined when the flag was left out (none, or the tree's when held open). */
export function hostOption(value: string | undefined): RootHost | null | undefined {
  if (value === undefined) return undefined;
  if (value === 'none') return null;
  const host = ROOT_HOSTS.find((name) => name === value);
  if (!host)
    throw new UsageError(`--host expects ${quoteAll([...ROOT_HOSTS, 'none'])} (got "${value}")`);
  return host;
}
