/**
 * The orchestrator: content folder → checked files → model → resources →
 * files, each step a function of its own. User mistakes come back in the
 * report; only bugs and I/O failures throw.
 */
import { readFileSync } from 'node:fs';
import { loadContent } from './content/load.ts';
import { pinProblems, validateContent, type SiteOverrides } from './content/validate.ts';
import type { ContentError } from './errors.ts';
import { loadCatalog, type Catalog } from './languages/catalog.ts';
import type { Model } from './model/types.ts';
import { serializeFile } from './output/serialize.ts';
import type { OutputTarget } from './output/target.ts';
import { hostFiles, hostProblem, type HostOptions } from './hosts/index.ts';
import { countResources, generateResources } from './resources/resources.ts';
import { fileOfPath } from './urls.ts';

export interface BuildOptions {
  contentDir: string;
  /** Settings that win over site.yaml (command-line flags). */
  site?: SiteOverrides;
  /** Whose `_redirects` and `_headers` go at the root of the output (all hosts' files are under hosts/). */
  host?: HostOptions['host'];
  /** Called now and then with files written so far and the total. */
  onProgress?: (done: number, total: number) => void;
}

export interface BuildReport {
  errors: ContentError[];
  files: number;
  bytes: number;
  translations: number;
  durationMs: number;
}

export interface BuildDeps {
  target: OutputTarget;
  catalog?: Catalog;
  /** Milliseconds, for the report's duration only. */
  clock?: () => number;
}

/** Checks the content and, when it is valid, writes the whole API tree to the target. */
export async function build(options: BuildOptions, deps: BuildDeps): Promise<BuildReport> {
  const clock = deps.clock ?? (() => performance.now());
  const started = clock();
  const checked = await checkContent(options, deps.catalog);
  const errors = checked.ok ? checkHost(checked.model, options) : checked.errors;
  if (!checked.ok || errors.length > 0) {
    await deps.target.abort();
    return { errors, files: 0, bytes: 0, translations: 0, durationMs: clock() - started };
  }
  const { files, bytes } = await writeTree(checked.model, deps.target, options.onProgress, { host: options.host });
  return { errors: [], files, bytes, translations: checked.model.translations.length, durationMs: clock() - started };
}

export type CheckResult = { ok: true; model: Model } | { ok: false; errors: ContentError[] };

/** Loads and validates a content folder: the model, or every error in it. */
export async function checkContent(options: Pick<BuildOptions, 'contentDir' | 'site'>, catalog = loadCatalog()): Promise<CheckResult> {
  const loaded = await loadContent(options.contentDir);
  const validated = validateContent(loaded.content, options.site ?? {}, catalog, readText, options.contentDir);
  const errors = [...loaded.errors, ...(validated.ok ? [] : validated.errors)];
  if (errors.length > 0 || !validated.ok) return { ok: false, errors };
  return validated;
}

/** Writes every resource of the model, then commits the target. */
export async function writeTree(
  model: Model,
  target: OutputTarget,
  onProgress?: (done: number, total: number) => void,
  hosts: HostOptions = {},
): Promise<{ files: number; bytes: number }> {
  const total = countResources(model);
  let files = 0;
  let bytes = 0;
  try {
    for (const resource of generateResources(model)) {
      const data = serializeFile(resource.body);
      await target.write(fileOfPath(resource.path), data);
      files++;
      bytes += Buffer.byteLength(data);
      if (onProgress && files % 1000 === 0) onProgress(files, total);
    }
    for (const file of hostFiles(model.site, hosts)) {
      await target.write(file.path, file.data);
      files++;
      bytes += Buffer.byteLength(file.data);
    }
    await target.commit();
  } catch (error) {
    await target.abort().catch(() => undefined);
    throw error;
  }
  onProgress?.(files, total);
  return { files, bytes };
}

// --- internal ---

/** A site the chosen host cannot serve as configured, reported at site.yaml's `pagination`. */
function checkHost(model: Model, options: Pick<BuildOptions, 'contentDir' | 'host'>): ContentError[] {
  const message = hostProblem(model.site, { host: options.host });
  if (!message) return [];
  return pinProblems([{ file: `${options.contentDir.replace(/\/+$/, '')}/site.yaml`, path: ['pagination'], message }], readText);
}

function readText(file: string): string {
  return readFileSync(file, 'utf8');
}
