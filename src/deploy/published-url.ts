/**
 * Whether a tree's links may go out: a tree built for a preview (loopback), a
 * private network or a file, or for another address than the target was last
 * deployed with, would publish links that lead nowhere a reader can follow.
 * Deploy refuses it, naming the setting and how it was set, unless told to go
 * ahead.
 */
import type { TreeSettings } from '../tree/settings.ts';

/** Why the tree's base or web URL may not be published at this target, or null when it may. */
export function refusedUrl(
  outDir: string,
  tree: TreeSettings,
  lastDeployed: { target: string; baseUrl: string } | null,
): string | null {
  const allow = 'or give --allow-base-url to deploy it as it is.';
  for (const [key, label] of URL_SETTINGS) {
    const url = tree.site[key];
    const where = unreachableKind(url);
    if (where === null) continue;
    return (
      `${outDir}/ was built with ${label} ${url} (${howSet(tree, key)}), ${where}: its links would lead ` +
      `nowhere a reader can follow. Build it with the URL it is published at, ${allow}`
    );
  }
  if (lastDeployed && lastDeployed.baseUrl !== tree.site.baseUrl) {
    return (
      `${lastDeployed.target} was last deployed with base URL ${lastDeployed.baseUrl}, but ${outDir}/ was built with ` +
      `${tree.site.baseUrl} (${howSet(tree, 'baseUrl')}). Build it with the URL it is published at, ${allow}`
    );
  }
  return null;
}

// --- internal ---

const URL_SETTINGS: ['baseUrl' | 'webUrl', string][] = [
  ['baseUrl', 'base URL'],
  ['webUrl', 'web URL'],
];

/** How a URL setting was set: a flag of the build, site.yaml, or (the web URL) the base URL. */
function howSet(tree: TreeSettings, key: 'baseUrl' | 'webUrl'): string {
  if (tree.overrides[key] !== undefined) return `given to its build as ${FLAGS[key]}`;
  if (key === 'webUrl' && tree.siteYaml?.webUrl === tree.siteYaml?.baseUrl)
    return "site.yaml's web_url, or its base URL";
  return `site.yaml's ${key === 'baseUrl' ? 'base_url' : 'web_url'}`;
}

const FLAGS = { baseUrl: '--base-url', webUrl: '--web-url' } as const;

/** What kind of address a URL has that readers elsewhere cannot reach, or null for a public one. */
function unreachableKind(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'not a URL';
  }
  if (url.protocol === 'file:') return 'a file: URL';
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return 'a loopback address';
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host)?.slice(1).map(Number);
  if (v4) return ipv4Kind(v4);
  if (host.startsWith('[')) return ipv6Kind(host.slice(1, -1));
  return null;
}

function ipv4Kind([a, b]: number[]): string | null {
  if (a === 127 || a === 0) return 'a loopback address';
  if (a === 10 || (a === 172 && b! >= 16 && b! <= 31) || (a === 192 && b === 168))
    return 'a private-range address';
  if (a === 169 && b === 254) return 'a link-local address';
  if (a === 100 && b! >= 64 && b! <= 127) return 'a shared-range (carrier NAT) address';
  return null;
}

function ipv6Kind(host: string): string | null {
  if (host === '::1' || host === '::') return 'a loopback address';
  // An IPv4 address mapped into IPv6, as the URL parser writes it: ::ffff:7f00:1.
  const mapped = /^::ffff:([0-9a-f]{1,4}):[0-9a-f]{1,4}$/.exec(host)?.[1];
  if (mapped) return ipv4Kind([parseInt(mapped, 16) >> 8, parseInt(mapped, 16) & 255]);
  if (/^f[cd]/.test(host)) return 'a private-range address';
  if (/^fe[89ab]/.test(host)) return 'a link-local address';
  return null;
}
