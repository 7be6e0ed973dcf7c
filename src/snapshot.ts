/**
 * A snapshot kept open: the content folder, its model and the built tree held
 * together by one process (the sidecar), so that an edit costs only what it
 * changes. Each update checks the whole content with the edit applied, writes
 * the YAML files atomically, and rewrites only the output files whose bytes
 * change. Updates run one at a time, in the order they were asked for.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open as openFile, readFile, rename, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { assembleContent, loadContent } from './content/load.ts';
import { checkFile, placeOf, type CheckedFile, type FilePlace } from './content/files.ts';
import { validateContent, type SiteOverrides } from './content/validate.ts';
import type { ContentError } from './errors.ts';
import { internalError } from './errors.ts';
import { loadCatalog, type Catalog } from './languages/catalog.ts';
import type { Model } from './model/types.ts';
import { writeManifest, type Manifest } from './output/manifest.ts';
import { updateInPlace, type UpdateStats } from './output/tree.ts';
import { syncTree } from './build.ts';
import { fileGroups } from './resources/groups.ts';

export interface SnapshotOptions {
  contentDir: string;
  outDir: string;
  site?: SiteOverrides;
  catalog?: Catalog;
}

/** A new text for a content file (path relative to the content folder, with `/`), or null to delete it. */
export interface ContentChange {
  path: string;
  text: string | null;
}

export type SnapshotUpdate = { ok: true; stats: UpdateStats } | { ok: false; errors: ContentError[] };

export type OpenResult = { ok: true; snapshot: Snapshot } | { ok: false; errors: ContentError[] };

/** What an edit sees: the model and the content files as they stand when its turn comes. */
export interface EditState {
  model: Model;
  read(path: string): Promise<string | null>;
}

/** An edit's decision: changes to apply (and what to answer once applied), or a refusal. */
export type EditPlan<T> = { changes: ContentChange[]; result: T } | { refuse: T };

export type EditOutcome<T> =
  /** `model` is the content's model right after this edit, before any later one. */
  | { status: 'applied'; result: T; stats: UpdateStats; model: Model }
  | { status: 'refused'; result: T }
  | { status: 'invalid'; errors: ContentError[] };

export class Snapshot {
  private queue: Promise<unknown> = Promise.resolve();
  private updatesSinceCompaction = 0;

  private constructor(
    private readonly options: Required<Omit<SnapshotOptions, 'site'>> & { site: SiteOverrides },
    private files: Map<string, CheckedFile>,
    private current: Model,
    private manifest: Manifest,
  ) {}

  /** Loads the content and brings the tree in line with it (a whole new tree when none can be trusted). */
  static async open(options: SnapshotOptions): Promise<OpenResult> {
    const settings = { ...options, site: options.site ?? {}, catalog: options.catalog ?? loadCatalog() };
    const loaded = await loadContent(settings.contentDir);
    const validated = validateContent(loaded.content, settings.site, settings.catalog, readText, settings.contentDir);
    if (loaded.errors.length > 0 || !validated.ok) {
      return { ok: false, errors: [...loaded.errors, ...(validated.ok ? [] : validated.errors)] };
    }
    const manifest = await reconcileTree(settings.outDir, validated.model);
    return { ok: true, snapshot: new Snapshot(settings, loaded.files, validated.model, manifest) };
  }

  /** The model of the content as it stands after the last update. */
  get model(): Model {
    return this.current;
  }

  get contentDir(): string {
    return this.options.contentDir;
  }

  get outDir(): string {
    return this.options.outDir;
  }

  /** The text of a content file, or null when there is none. */
  async readContent(path: string): Promise<string | null> {
    return readFile(this.contentFile(path), 'utf8').catch(() => null);
  }

  /**
   * Applies changes to content files: checks the whole content with them,
   * then writes them (each atomically) and updates the tree. When the content
   * would be invalid, nothing is written and the errors come back.
   */
  update(changes: readonly ContentChange[]): Promise<SnapshotUpdate> {
    return this.enqueue(() => this.applyChanges(changes));
  }

  /**
   * Reads, decides and writes as one step: `plan` runs when every earlier
   * update is done, sees the content as it then stands, and its changes are
   * applied before any later update starts. Concurrent edits of one file
   * therefore never lose each other's changes.
   */
  edit<T>(plan: (state: EditState) => Promise<EditPlan<T>> | EditPlan<T>): Promise<EditOutcome<T>> {
    return this.enqueue(async () => {
      const decision = await plan({ model: this.current, read: (path) => this.readContent(path) });
      if ('refuse' in decision) return { status: 'refused', result: decision.refuse };
      const applied = await this.applyChanges(decision.changes);
      return applied.ok
        ? { status: 'applied', result: decision.result, stats: applied.stats, model: this.current }
        : { status: 'invalid', errors: applied.errors };
    });
  }

  /** Waits for pending updates and writes a compact manifest. */
  async close(): Promise<void> {
    await this.queue;
    await writeManifest(this.options.outDir, this.manifest);
  }

  // --- internal ---

  private enqueue<T>(step: () => Promise<T>): Promise<T> {
    const run = this.queue.then(step);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async applyChanges(changes: readonly ContentChange[]): Promise<SnapshotUpdate> {
    const files = new Map(this.files);
    const pending = new Map<string, string>();
    const errors: ContentError[] = [];
    for (const change of changes) {
      const place = placeOfChange(change.path);
      const file = this.contentFile(change.path);
      if (change.text === null) {
        files.delete(change.path);
        continue;
      }
      pending.set(file, change.text);
      const checked = checkFile(file, place, change.text);
      if (checked.ok) files.set(change.path, checked.checked);
      else errors.push(...checked.errors);
    }
    if (errors.length > 0) return { ok: false, errors };
    const places = [...files.values()].map((f) => f.place);
    const readPending = (file: string) => pending.get(file) ?? readText(file);
    const { site, catalog, contentDir } = this.options;
    const validated = validateContent(assembleContent(files.values(), places), site, catalog, readPending, contentDir);
    if (!validated.ok) return { ok: false, errors: validated.errors };
    try {
      await this.writeContent(changes);
      const stats = await this.updateTree(validated.model);
      this.files = files;
      this.current = validated.model;
      return { ok: true, stats };
    } catch (error) {
      await this.recover();
      throw error;
    }
  }

  /** Writes changed files first and deletes last, each atomically. */
  private async writeContent(changes: readonly ContentChange[]): Promise<void> {
    for (const change of changes) if (change.text !== null) await writeDurably(this.contentFile(change.path), change.text);
    for (const change of changes) if (change.text === null) await rm(this.contentFile(change.path), { force: true });
  }

  private async updateTree(model: Model): Promise<UpdateStats> {
    const stats = await updateInPlace(this.options.outDir, fileGroups(model), this.manifest);
    if (++this.updatesSinceCompaction >= 100) {
      await writeManifest(this.options.outDir, this.manifest);
      this.updatesSinceCompaction = 0;
    }
    return stats;
  }

  /** After a failed write, rereads content and tree from disk, so the next update starts from what is there. */
  private async recover(): Promise<void> {
    try {
      const loaded = await loadContent(this.options.contentDir);
      const validated = validateContent(loaded.content, this.options.site, this.options.catalog, readText, this.options.contentDir);
      if (loaded.errors.length > 0 || !validated.ok) return;
      this.manifest = await reconcileTree(this.options.outDir, validated.model);
      this.files = loaded.files;
      this.current = validated.model;
    } catch {
      // The disk is failing; the next update will fail too and say why.
    }
  }

  private contentFile(path: string): string {
    return join(this.options.contentDir, path);
  }
}

// --- internal ---

async function reconcileTree(outDir: string, model: Model): Promise<Manifest> {
  return (await syncTree(outDir, model, { keepManifest: true })).manifest;
}

function placeOfChange(path: string): FilePlace {
  if (path.startsWith('/') || path.split('/').some((part) => part === '..' || part === '.' || part === '')) {
    internalError(`content change outside the content folder: ${path}`);
  }
  const result = placeOf(path);
  if (!('place' in result)) internalError(`not a content file: ${path}`);
  return result.place;
}

/** Temporary file beside the target, fsync, rename, fsync of the folder: whole before or whole after, even on power loss. */
async function writeDurably(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  // A dot file: the loader never reads it, even when a crash leaves it behind.
  const temporary = join(dirname(file), `.${basename(file)}.tmp-${randomBytes(6).toString('hex')}`);
  const handle = await openFile(temporary, 'w');
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  const folder = await openFile(dirname(file), 'r');
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}

function readText(file: string): string {
  return readFileSync(file, 'utf8');
}
