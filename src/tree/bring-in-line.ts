/**
 * The one path that brings a tree in line with a model, for a build and for
 * a session alike: say why a tree built with other settings is rewritten
 * whole (or refuse to), sync it, then record the settings it was built with.
 */
import type { Model } from '../model/types.ts';
import type { SettingsOverrides } from '../resolve/resolve.ts';
import {
  describeSettingsChange,
  EARLIER_FORMAT,
  recordTreeSettings,
  type TreeSettings,
} from './settings.ts';
import { syncTree, type SyncedTree, type SyncOptions } from './sync.ts';

interface InLineOptions extends Omit<SyncOptions, 'onRewrite'> {
  /** The settings recorded beside the tree when it was last built, if any. */
  kept: TreeSettings | null;
  /** The flags the tree is built with (what site.yaml does not decide). */
  overrides: SettingsOverrides;
  /** What site.yaml alone gave (null: it gave no base URL). */
  siteYaml: TreeSettings['siteYaml'];
  /** Refuse a tree built with other settings rather than rewrite it whole (a session opened without --rebuild). */
  refuseChange?: boolean | undefined;
  /** Told, before any file is written, why the tree is rewritten whole. */
  onSettingsChange?: ((change: string) => void) | undefined;
}

/** Brings the tree at `outDir` in line with `model`; a refusal names the settings that differ. */
export async function bringTreeInLine(
  outDir: string,
  model: Model,
  options: InLineOptions,
): Promise<SyncedTree | { settingsChange: string }> {
  const { kept, overrides, siteYaml, refuseChange, onSettingsChange, ...sync } = options;
  const change =
    kept && describeSettingsChange(kept, { settings: model.settings, host: sync.host });
  if (change && refuseChange) return { settingsChange: change };
  if (change) onSettingsChange?.(change);
  // The settings are those kept, yet the tree is rewritten whole: the output format of this tool changed since it was built.
  const onRewrite = change ? undefined : () => onSettingsChange?.(EARLIER_FORMAT);
  const synced = await syncTree(outDir, model, { ...sync, onRewrite });
  await recordTreeSettings(outDir, { overrides, host: sync.host, site: model.settings, siteYaml });
  return synced;
}
