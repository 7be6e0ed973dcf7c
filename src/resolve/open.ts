/**
 * Opening a content folder: every file read and checked (content/load.ts),
 * then resolved across files into the model, every error of both steps
 * together. The build, the check command and a kept-open session (at start
 * and after a failed write) all open content here; pull checks in parts
 * (pull/check.ts).
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadCatalog, type Catalog } from '../catalog/catalog.ts';
import type { CheckOptions } from '../content/check-pool.ts';
import { checkFile, type CheckedFile } from '../content/files.ts';
import { loadContent } from '../content/load.ts';
import type { FileSignature } from '../content/signatures.ts';
import type { ContentError } from '../errors.ts';
import type { Model, Settings } from '../model/types.ts';
import { resolveContent, settingsOf, type SettingsOverrides } from './resolve.ts';

type OpenedContent =
  | {
      ok: true;
      model: Model;
      /** Every checked file by its path relative to the content folder; null unless `keepFiles`. */
      files: Map<string, CheckedFile> | null;
      /** What vouches for each file as it was read (content/signatures.ts), by the same path. */
      signatures: Map<string, FileSignature>;
      /** What the content most likely left out by mistake; with `strict`, these are errors instead. */
      warnings: ContentError[];
    }
  | { ok: false; errors: ContentError[] };

interface OpenOptions {
  /** Settings that win over site.yaml (command-line flags). */
  settings?: SettingsOverrides | undefined;
  catalog?: Catalog | undefined;
  /** How files are shared out between threads (content/check-pool.ts). */
  threads?: CheckOptions | undefined;
  /** Warnings are errors. */
  strict?: boolean | undefined;
  /**
   * Whether the checked files are kept beside the model (a session patches
   * from them). Else each component file is let go once resolved, so the
   * opening holds little more than the model at its end.
   */
  keepFiles?: boolean | undefined;
}

export async function openContent(
  contentDir: string,
  options: OpenOptions = {},
): Promise<OpenedContent> {
  const loaded = await loadContent(contentDir, options.threads);
  const keepFiles = options.keepFiles ?? false;
  const files = keepFiles ? loaded.files : null;
  // The content's lists are then the only hold on the checked files, and the resolve drops each.
  if (!keepFiles) loaded.files.clear();
  const resolved = resolveContent(
    loaded.content,
    options.settings ?? {},
    options.catalog ?? loadCatalog(),
    readText,
    contentDir,
  );
  const errors = [
    ...loaded.errors,
    ...(resolved.ok ? [] : resolved.errors),
    ...(options.strict ? loaded.warnings : []),
  ];
  if (errors.length > 0 || !resolved.ok) return { ok: false, errors };
  return {
    ok: true,
    model: loaded.extras.length > 0 ? { ...resolved.model, extras: loaded.extras } : resolved.model,
    files,
    signatures: loaded.signatures,
    warnings: loaded.warnings,
  };
}

/**
 * The site the flags give over site.yaml, and what site.yaml alone gives
 * (null: no base URL there), read from site.yaml alone; null when it does
 * not check out (the build reports why).
 */
export async function readSiteSettings(
  contentDir: string,
  overrides: SettingsOverrides,
): Promise<{ settings: Settings; siteYaml: Settings | null } | null> {
  const path = join(contentDir, 'site.yaml');
  const text = await readFile(path, 'utf8').catch(() => null);
  const checked = text === null ? null : checkFile(path, { kind: 'site' }, text);
  if (checked && !checked.ok) return null;
  const file = checked?.checked ?? null;
  const settings = settingsOf(file, overrides, contentDir);
  return settings && { settings, siteYaml: settingsOf(file, {}, contentDir) };
}

/** A content file's text, read again to pin an error to its line. */
export function readText(file: string): string {
  return readFileSync(file, 'utf8');
}
