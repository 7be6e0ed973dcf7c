/**
 * The settings a tree was built with, kept beside it (`<out>.state/settings.json`):
 * the flags given on the command line (base URL, web URL, page size,
 * pagination, flavour, pages, host) and the site they resolved to. A later
 * command that is not given a flag keeps the tree's, so a tree is never
 * rewritten whole by a command that merely omitted `--base-url`; a command
 * given other settings can name what changes before it rewrites.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RootHost } from '../hosts/index.ts';
import type { Site } from '../model/types.ts';
import { writeFileAtomic } from '../output/atomic.ts';
import type { SiteOverrides } from '../resolve/resolve.ts';
import { stateDir } from './state-folder.ts';

interface TreeSettings {
  /** The flags the tree was built with (what site.yaml does not decide). */
  overrides: SiteOverrides;
  /** Whose `_redirects` and `_headers` take the root names; none when absent. */
  host?: RootHost | undefined;
  /** The site the settings resolved to. */
  site: Site;
}

export async function recordTreeSettings(outDir: string, settings: TreeSettings): Promise<void> {
  await writeFileAtomic(settingsPath(outDir), `${JSON.stringify(settings, null, 2)}\n`, {
    durable: true,
  });
}

/** Settings given to a command: flags over site.yaml, and the host (null: none; undefined: the tree's). */
interface GivenSettings {
  site?: SiteOverrides | undefined;
  host?: RootHost | null | undefined;
}

/** What a command builds with: the flags given over those the tree was built with (a flag left out keeps the tree's). */
export async function settingsToBuildWith(
  outDir: string,
  given: GivenSettings,
): Promise<{ kept: TreeSettings | null; overrides: SiteOverrides; host: RootHost | undefined }> {
  const kept = await readTreeSettings(outDir);
  const overrides: SiteOverrides = { ...kept?.overrides };
  for (const [key, value] of Object.entries(given.site ?? {}) as [keyof SiteOverrides, unknown][]) {
    if (value !== undefined) (overrides as Record<string, unknown>)[key] = value;
  }
  const host = given.host === undefined ? kept?.host : (given.host ?? undefined);
  return { kept, overrides, host };
}

/** What is said before rewriting a tree whose settings are the same but whose bytes this version writes differently. */
export const EARLIER_FORMAT =
  'written by an earlier version of weblate-snapshot, whose files differ';

/**
 * What differs between the settings a tree was built with and new ones, in
 * words (`base URL https://a → https://b, page size 50 → 20`), or null when
 * nothing does.
 */
export function describeSettingsChange(
  before: TreeSettings,
  after: { site: Site; host?: RootHost | undefined },
): string | null {
  const changes: string[] = [];
  for (const [key, label] of SETTING_LABELS) {
    // A setting newer than the record of the tree (absent there) has its default: null.
    const [a, b] = [before.site[key] ?? null, after.site[key] ?? null];
    if (a !== b) changes.push(`${label} ${show(a)} → ${show(b)}`);
  }
  if (before.host !== after.host)
    changes.push(`host ${before.host ?? 'none'} → ${after.host ?? 'none'}`);
  return changes.length > 0 ? changes.join(', ') : null;
}

/** Whether the tree at `outDir` was built with the status site (false when its settings are missing or unreadable). */
export async function treeHasPages(outDir: string): Promise<boolean> {
  return (await readTreeSettings(outDir))?.site.pages === true;
}

// --- internal ---

/** The settings kept beside the tree at `outDir`, or null when there are none (or they cannot be read). */
async function readTreeSettings(outDir: string): Promise<TreeSettings | null> {
  const text = await readFile(settingsPath(outDir), 'utf8').catch(() => null);
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as Partial<TreeSettings>;
    return value.site && value.overrides
      ? { overrides: value.overrides, host: value.host, site: value.site }
      : null;
  } catch {
    return null;
  }
}

const SETTING_LABELS: [keyof Site, string][] = [
  ['baseUrl', 'base URL'],
  ['webUrl', 'web URL'],
  ['pageSize', 'page size'],
  ['pagination', 'pagination'],
  ['weblateVersion', 'Weblate version'],
  ['pages', 'pages'],
  ['editUrl', 'edit URL'],
];

function show(value: Site[keyof Site] | undefined): string {
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  return value === undefined || value === null ? 'unset' : String(value);
}

function settingsPath(outDir: string): string {
  return join(stateDir(outDir), 'settings.json');
}
