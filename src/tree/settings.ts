/**
 * The settings a tree was built with, kept beside it (`<out>.state/settings.json`):
 * the flags given on the command line (base URL, web URL, page size,
 * pagination, flavour, pages, host), the site they resolved to, and what
 * site.yaml alone gave. A flag holds for the build that gives it: the next
 * build without it takes site.yaml's value, so an edit of site.yaml counts.
 * The commands that hold a tree open (the sidecar, `--watch`) keep the flags
 * the tree was built with instead, so they never rewrite a tree whole because
 * a flag was left out, and they say what they keep. A command given other
 * settings names what changes before it rewrites.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RootHost } from '../hosts/index.ts';
import type { Settings } from '../model/types.ts';
import { writeFileAtomic } from '../output/atomic.ts';
import type { SettingsOverrides } from '../resolve/resolve.ts';
import { stateDir } from './state-folder.ts';

export interface TreeSettings {
  /** The flags the tree was built with (what site.yaml does not decide). */
  overrides: SettingsOverrides;
  /** Whose `_redirects` and `_headers` take the root names; none when absent. */
  host?: RootHost | undefined;
  /** The site the settings resolved to. */
  site: Settings;
  /** What site.yaml alone gave (null: it gave no base URL); absent in the records of earlier versions. */
  siteYaml?: Settings | null | undefined;
}

export async function recordTreeSettings(outDir: string, settings: TreeSettings): Promise<void> {
  await writeFileAtomic(settingsPath(outDir), `${JSON.stringify(settings, null, 2)}\n`, {
    durable: true,
  });
}

/** Settings given to a command: flags over site.yaml, and the host (null: none; undefined: the tree's). */
interface GivenSettings {
  settings?: SettingsOverrides | undefined;
  host?: RootHost | null | undefined;
}

/** Where a setting that site.yaml did not decide came from: a flag of this run, or the flags the tree was built with. */
type SettingSource = 'flag' | 'kept' | 'built';
export type SettingSources = Partial<Record<keyof SettingsOverrides, SettingSource>>;

/**
 * What a command builds with: the flags given, and with `keepFlags` (the
 * commands that hold a tree open) the flags the tree was built with under
 * them. Without it a flag left out takes site.yaml's value again.
 */
export async function settingsToBuildWith(
  outDir: string,
  given: GivenSettings,
  options: { keepFlags: boolean },
): Promise<{
  kept: TreeSettings | null;
  overrides: SettingsOverrides;
  host: RootHost | undefined;
  sources: SettingSources;
}> {
  const kept = await readTreeSettings(outDir);
  const overrides: SettingsOverrides = {};
  const sources: SettingSources = {};
  const take = (from: SettingsOverrides, source: SettingSource) => {
    for (const [key, value] of Object.entries(from) as [keyof SettingsOverrides, unknown][]) {
      if (value === undefined) continue;
      (overrides as Record<string, unknown>)[key] = value;
      sources[key] = source;
    }
  };
  if (options.keepFlags) take(kept?.overrides ?? {}, 'kept');
  take(given.settings ?? {}, 'flag');
  const keptHost = options.keepFlags ? kept?.host : undefined;
  const host = given.host === undefined ? keptHost : (given.host ?? undefined);
  return { kept, overrides, host, sources };
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
  after: { settings: Settings; host?: RootHost | undefined },
): string | null {
  const changes: string[] = [];
  for (const [key, label] of SETTING_LABELS) {
    // A setting newer than the record of the tree (absent there) has its default: null.
    const [a, b] = [before.site[key] ?? null, after.settings[key] ?? null];
    if (a !== b) changes.push(`${label} ${show(a)} → ${show(b)}`);
  }
  if (before.host !== after.host)
    changes.push(`host ${before.host ?? 'none'} → ${after.host ?? 'none'}`);
  return changes.length > 0 ? changes.join(', ') : null;
}

/** What a command runs with: the site in effect, what site.yaml alone gives (null: no base URL there), and where the rest came from. */
export interface SettingsInEffect {
  settings: Settings;
  siteYaml: Settings | null;
  sources: SettingSources;
}

/**
 * The settings in effect in one line, each with where it came from, when one
 * differs from what site.yaml gives (null otherwise): the base URL, web URL,
 * flavour and pages always, page size, pagination and PNG widgets when
 * they differ. A setting kept from the tree's build is named with how to
 * change it.
 */
export function describeSettingsInEffect(
  outDir: string,
  inEffect: SettingsInEffect,
): string | null {
  const { settings, siteYaml } = inEffect;
  const differs = (key: keyof SettingsOverrides) =>
    siteYaml === null || settings[key] !== siteYaml[key];
  if (!SAID_SETTINGS.some(([key]) => differs(key))) return null;
  const parts = SAID_SETTINGS.filter(([key, , always]) => always || differs(key)).map(
    ([key, label]) => {
      const from = sourceText(outDir, key, inEffect.sources[key], differs(key));
      const yaml = siteYaml === null ? 'unset' : show(siteYaml[key]);
      return `${label} ${show(settings[key])} (${from}${differs(key) ? `; site.yaml: ${yaml}` : ''})`;
    },
  );
  const kept = Object.values(inEffect.sources).includes('kept')
    ? ` To change a kept setting, give its flag (the sidecar also needs --rebuild), or run npm run build without it to go back to site.yaml.`
    : '';
  return `Settings in effect: ${parts.join(', ')}.${kept}`;
}

/** The settings kept beside the tree at `outDir`, or null when there are none (or they cannot be read). */
export async function readTreeSettings(outDir: string): Promise<TreeSettings | null> {
  const text = await readFile(settingsPath(outDir), 'utf8').catch(() => null);
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as Partial<TreeSettings>;
    const { overrides, host, site, siteYaml } = value;
    return site && overrides ? { overrides, host, site, siteYaml } : null;
  } catch {
    return null;
  }
}

// --- internal ---

/** The settings said with their source: key, label, and whether said even when site.yaml agrees. */
const SAID_SETTINGS: [keyof SettingsOverrides, string, boolean][] = [
  ['baseUrl', 'base URL', true],
  ['webUrl', 'web URL', true],
  ['weblateVersion', 'Weblate version', true],
  ['pages', 'pages', true],
  ['pageSize', 'page size', false],
  ['pagination', 'pagination', false],
  ['pngWidgets', 'PNG widgets', false],
];

const FLAGS: Record<keyof SettingsOverrides, string> = {
  baseUrl: '--base-url',
  webUrl: '--web-url',
  pageSize: '--page-size',
  pagination: '--pagination',
  weblateVersion: '--weblate-version',
  pages: '--pages',
  pngWidgets: '--png-widgets',
};

function sourceText(
  outDir: string,
  key: keyof SettingsOverrides,
  source: SettingSource | undefined,
  differs: boolean,
): string {
  if (source === 'flag') return FLAGS[key];
  if (source === 'kept') return `kept from ${outDir}/, built with ${FLAGS[key]}`;
  if (source === 'built') return `${outDir}/ was built with ${FLAGS[key]}`;
  // Two settings follow others when site.yaml leaves them out: the web URL the base URL, pages the two URLs.
  if (differs && key === 'webUrl') return 'the base URL, as site.yaml has no web_url';
  return differs && key === 'pages' ? 'on only when the web URL is the base URL' : 'site.yaml';
}

const SETTING_LABELS: [keyof Settings, string][] = [
  ['baseUrl', 'base URL'],
  ['webUrl', 'web URL'],
  ['pageSize', 'page size'],
  ['pagination', 'pagination'],
  ['weblateVersion', 'Weblate version'],
  ['pages', 'pages'],
  ['pngWidgets', 'PNG widgets'],
  ['editUrl', 'edit URL'],
  ['title', 'title'],
];

function show(value: Settings[keyof Settings] | undefined): string {
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  return value === undefined || value === null ? 'unset' : String(value);
}

function settingsPath(outDir: string): string {
  return join(stateDir(outDir), 'settings.json');
}
