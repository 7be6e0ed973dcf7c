/**
 * A content folder, its model and its tree held open by one process (the sidecar, build --watch),
 * so that an edit costs only what it changes. Updates run one at a time, in the order asked.
 */
import { readFile, rm } from 'node:fs/promises';
import fg from 'fast-glob';
import { join } from 'node:path';
import { loadCatalog, type Catalog } from '../catalog/catalog.ts';
import { checkFile, placeOf, type CheckedFile, type FilePlace } from '../content/files.ts';
import { assembleContent, loadExtraFiles } from '../content/load.ts';
import type { ContentError } from '../errors.ts';
import { internalError } from '../errors.ts';
import type { RootHost } from '../hosts/index.ts';
import type { Model } from '../model/types.ts';
import { writeFileAtomic } from '../output/atomic.ts';
import { openContent, readSiteSettings, readText } from '../resolve/open.ts';
import { extraCollisions, extraGroup, openTreeContent } from '../tree/extra-groups.ts';
import { patchComponents, type ComponentPatch, type PatchScope } from '../resolve/patch.ts';
import { resolveContent, type SettingsOverrides } from '../resolve/resolve.ts';
import { fileGroups, instanceListPageText, type InstanceList } from '../tree/groups.ts';
import { apiPath } from '../api/urls.ts';
import { journalIsLong, writeManifest, type Manifest } from '../tree/manifest.ts';
import { lockTree, type TreeLock } from '../tree/lock.ts';
import { instanceListGroups } from '../tree/patched.ts';
import { applyPatch } from '../tree/apply-patch.ts';
import { bringTreeInLine } from '../tree/bring-in-line.ts';
import { settingsToBuildWith, type SettingsInEffect } from '../tree/settings.ts';
import { syncTree, treeInPlace } from '../tree/sync.ts';
import {
  updateInPlace,
  updatePatched,
  type TreeInPlace,
  type UpdateStats,
} from '../tree/update.ts';
import { createFingerprintCache } from '../tree/fingerprints.ts';

interface SessionOptions {
  contentDir: string;
  outDir: string;
  settings?: SettingsOverrides;
  catalog?: Catalog;
  /**
   * How long writes must pause (ms) before the instance-wide lists whose
   * length changed (`/api/translations/`, `/api/components/`; every page
   * carries the count) are rewritten. Unset: an update rewrites them before
   * it returns, like every other file.
   */
  instanceListDelay?: number;
  /**
   * Whose `_redirects` and `_headers` take the root names of the tree; unset:
   * the host the tree was built with (recorded beside it); null: none.
   */
  rootHost?: RootHost | null;
  /** At open, write a whole new tree even when the one in place could be updated. */
  full?: boolean;
  /**
   * When the tree was built with other settings than these (site.yaml and
   * the flags given, over the flags the tree was built with): rewrite it
   * whole, telling `onSettingsChange` first. Without it, open refuses.
   */
  rebuild?: boolean;
  onSettingsChange?: (change: string) => void;
  /** Who holds the tree while the session is open, as the refusal of another writer names it ("the sidecar"). */
  holder?: string;
}

/**
 * The usual `instanceListDelay` (the sidecar's and build --watch's): how long
 * writes must pause before `/api/translations/` and `/api/components/` are
 * rewritten after their length changed (every page carries the count: at
 * 100,000 translations, 2,000 pages).
 */
export const INSTANCE_LIST_DELAY_MS = 200;

/** A new text for a content file (path relative to the content folder, with `/`), or null to delete it. */
export interface ContentChange {
  path: string;
  text: string | null;
}

type SessionUpdate = { ok: true; stats: UpdateStats } | { ok: false; errors: ContentError[] };

type OpenResult =
  /** `settings`: what the tree is held with, and where each setting came from (null when site.yaml does not check out). */
  | { ok: true; session: Session; settings: SettingsInEffect | null }
  | { ok: false; errors: ContentError[] }
  /** The tree was built with other settings, and `rebuild` was not given: what differs, in words. */
  | { ok: false; settingsChange: string }
  /** Another process writes the tree: who, in words. */
  | { ok: false; locked: string };

/** What an edit sees: the model and the content files as they stand when its turn comes. */
interface EditState {
  model: Model;
  read: (path: string) => Promise<string | null>;
}

/** An edit's decision: changes to apply (and what to answer once applied), or a refusal. */
type EditPlan<T> = { changes: ContentChange[]; result: T } | { refuse: T };

export type EditOutcome<T> =
  /** `model` is the content's model right after this edit, before any later one. */
  | { status: 'applied'; result: T; stats: UpdateStats; model: Model }
  | { status: 'refused'; result: T }
  | { status: 'invalid'; errors: ContentError[] };

export class Session {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly fingerprints = createFingerprintCache({ kept: true });
  /** The tree, for updates in place. */
  private readonly tree: TreeInPlace;
  /** Updates waiting for their turn (a deferred refresh gives way to them). */
  private waiting = 0;
  /** Instance-wide lists still showing an earlier model, and the timer that will refresh them. */
  private readonly staleLists = new Set<InstanceList>();
  private refreshTimer: NodeJS.Timeout | null = null;

  private constructor(
    private readonly options: Pick<
      SessionOptions,
      'contentDir' | 'outDir' | 'instanceListDelay'
    > & {
      catalog: Catalog;
      /** The settings the tree is built with (the tree's own where none were given). */
      settings: SettingsOverrides;
      rootHost: RootHost | null;
    },
    private files: Map<string, CheckedFile>,
    private current: Model,
    private manifest: Manifest,
    private readonly lock: TreeLock,
  ) {
    this.tree = treeInPlace(options.outDir);
  }

  /** Loads the content and brings the tree in line with it (a whole new tree when none can be trusted). */
  static async open(options: SessionOptions): Promise<OpenResult> {
    const locked = await lockTree(options.outDir, options.holder ?? 'a session', { waitMs: 0 });
    if (!locked.ok) return { ok: false, locked: locked.message };
    try {
      const opened = await Session.openLocked(options, locked.lock);
      if (!opened.ok) await locked.lock.release();
      return opened;
    } catch (error) {
      await locked.lock.release();
      throw error;
    }
  }

  private static async openLocked(options: SessionOptions, lock: TreeLock): Promise<OpenResult> {
    // Held open, a tree keeps the flags it was built with: a flag left out never rewrites it whole.
    const { kept, overrides, host, sources } = await settingsToBuildWith(
      options.outDir,
      { settings: options.settings, host: options.rootHost },
      { keepFlags: true },
    );
    const settings = {
      ...options,
      settings: overrides,
      rootHost: host ?? null,
      catalog: options.catalog ?? loadCatalog(),
    };
    await removeLeftovers(settings.contentDir);
    const opened = await openTreeContent(settings.contentDir, {
      settings: settings.settings,
      catalog: settings.catalog,
      keepFiles: true,
    });
    if (!opened.ok) return opened;
    const read = await readSiteSettings(settings.contentDir, overrides);
    const siteYaml = read?.siteYaml ?? null;
    const synced = await bringTreeInLine(settings.outDir, opened.model, {
      kept,
      overrides,
      siteYaml,
      refuseChange: !options.rebuild,
      onSettingsChange: options.onSettingsChange,
      keepManifest: true,
      host,
      full: settings.full,
    });
    if (!('manifest' in synced)) return { ok: false, ...synced };
    const session = new Session(settings, keptFiles(opened), opened.model, synced.manifest, lock);
    return {
      ok: true,
      session,
      settings: read && { settings: opened.model.settings, siteYaml, sources },
    };
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
  update(changes: readonly ContentChange[]): Promise<SessionUpdate> {
    return this.enqueue(() => this.applyChanges(changes, { written: false }));
  }

  /**
   * The same for changes someone else already made on disk (an editor, seen
   * by a watcher): checked with the rest of the content, the tree updated,
   * the files themselves left alone. When they make the content invalid, the
   * tree stays as it was and the errors come back.
   */
  adopt(changes: readonly ContentChange[]): Promise<SessionUpdate> {
    return this.enqueue(() => this.applyChanges(changes, { written: true }));
  }

  /**
   * Reads the content's extra files again (a watcher saw one change) and
   * writes the changed ones into the tree, removing those that are gone.
   */
  adoptExtras(): Promise<SessionUpdate> {
    return this.enqueue(() => this.applyExtras());
  }

  /** The content files the snapshot holds (paths relative to the content folder, with `/`). */
  get contentFiles(): Iterable<string> {
    return this.files.keys();
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
      const applied = await this.applyChanges(decision.changes, { written: false });
      return applied.ok
        ? { status: 'applied', result: decision.result, stats: applied.stats, model: this.current }
        : { status: 'invalid', errors: applied.errors };
    });
  }

  /** Waits for pending updates, brings every list up to date, writes a compact manifest, and lets the tree go. */
  async close(): Promise<void> {
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    this.refreshTimer = null;
    await this.enqueue(() => this.refreshLists(false));
    await writeManifest(this.options.outDir, this.manifest);
    await this.lock.release();
  }

  /**
   * A page of an instance-wide list as the content now stands, while the
   * list's files still show an earlier model (their rewrite waits for writes
   * to pause): the page's text, or null past the list's end. Undefined when
   * the files are current, or `listPath` is not such a list.
   */
  pendingListPage(listPath: string, page: number): string | null | undefined {
    for (const name of this.staleLists)
      if (apiPath.list(name) === listPath)
        return instanceListPageText(this.current, name, page, this.fingerprints);
    return undefined;
  }

  /** Whether instance-wide lists are waiting to be rewritten (for tests and for a graceful stop). */
  get listsPending(): boolean {
    return this.staleLists.size > 0;
  }

  // --- internal ---

  private enqueue<T>(step: () => Promise<T>): Promise<T> {
    this.waiting++;
    const run = this.queue.then(() => {
      this.waiting--;
      return step();
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Rewrites the stale instance-wide lists once writes have paused for the configured delay. */
  private scheduleListRefresh(): void {
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = null;
      this.enqueue(() => this.refreshLists(true)).catch(() => undefined);
    }, this.options.instanceListDelay ?? 0);
  }

  /**
   * Rewrites the pages of the stale lists that changed, a chunk at a time.
   * With `yieldToWrites`, it stops between chunks when a write is waiting and
   * picks up later; what it wrote is in the manifest, so nothing is redone.
   */
  private async refreshLists(yieldToWrites: boolean): Promise<void> {
    for (const name of [...this.staleLists]) {
      const { groups, extent } = instanceListGroups(this.current, name, this.fingerprints);
      const dirty = groups.filter(
        (group) => this.manifest.groups.get(group.key) !== group.fingerprint,
      );
      for (let start = 0; start < dirty.length; start += LIST_REFRESH_CHUNK) {
        if (yieldToWrites && this.waiting > 0) {
          this.scheduleListRefresh();
          return;
        }
        const chunk = dirty.slice(start, start + LIST_REFRESH_CHUNK);
        await updatePatched(this.tree, { groups: chunk, lists: [], removed: [] }, this.manifest);
      }
      await updatePatched(this.tree, { groups: [], lists: [extent], removed: [] }, this.manifest);
      this.staleLists.delete(name);
    }
  }

  private async applyChanges(
    changes: readonly ContentChange[],
    disk: { written: boolean },
  ): Promise<SessionUpdate> {
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
    const readPending = (file: string) => pending.get(file) ?? readText(file);
    const patched = this.patch(changes, files, readPending);
    if (patched !== 'fallback') {
      if (!patched.ok) return patched;
      const patch = { before: this.current, after: patched.model, scope: patched.scope };
      const options = {
        fingerprints: this.fingerprints,
        deferInstanceLists: this.options.instanceListDelay !== undefined,
      };
      let deferred: InstanceList[] = [];
      const result = await this.commit(
        disk.written ? [] : changes,
        files,
        patched.model,
        async () => {
          const applied = await applyPatch(this.outDir, this.tree, this.manifest, patch, options);
          deferred = applied.deferred;
          return applied.stats;
        },
      );
      if (result.ok && deferred.length > 0) {
        for (const name of deferred) this.staleLists.add(name);
        this.scheduleListRefresh();
      }
      return result;
    }
    const places = [...files.values()].map((f) => f.place);
    const { settings, catalog, contentDir } = this.options;
    const validated = resolveContent(
      assembleContent(files.values(), places),
      settings,
      catalog,
      readPending,
      contentDir,
    );
    if (!validated.ok) return { ok: false, errors: validated.errors };
    // The extra files are not YAML the session holds: they stay as the session opened them.
    const { extras } = this.current;
    const model = extras ? { ...validated.model, extras } : validated.model;
    const result = await this.commit(disk.written ? [] : changes, files, model, () =>
      updateInPlace(
        this.tree,
        fileGroups(model, {
          hosts: { host: this.manifest.host },
          cache: this.fingerprints,
          pngs: this.tree.pngs,
        }),
        this.manifest,
      ),
    );
    // A full update looks at every group, the lists too.
    if (result.ok) this.staleLists.clear();
    return result;
  }

  private async applyExtras(): Promise<SessionUpdate> {
    const { contentDir } = this.options;
    const read = await loadExtraFiles(contentDir);
    const { extras: before, ...rest } = this.current;
    const model: Model = read.extras.length > 0 ? { ...rest, extras: read.extras } : rest;
    const errors = [...read.errors, ...extraCollisions(model, contentDir)];
    if (errors.length > 0) return { ok: false, errors };
    const live = new Set(read.extras.map((extra) => `/${extra.path}`));
    const removed = (before ?? []).map((extra) => `/${extra.path}`).filter((key) => !live.has(key));
    const groups = read.extras.map(extraGroup);
    return this.commit([], this.files, model, () =>
      updatePatched(this.tree, { groups, lists: [], removed }, this.manifest),
    );
  }

  /** The fast path: only component files changed, so the model is patched rather than rebuilt. */
  private patch(
    changes: readonly ContentChange[],
    files: Map<string, CheckedFile>,
    readPending: (file: string) => string,
  ):
    | { ok: true; model: Model; scope: PatchScope }
    | { ok: false; errors: ContentError[] }
    | 'fallback' {
    const patches: ComponentPatch[] = [];
    for (const change of changes) {
      const place = placeOfChange(change.path);
      if (place.kind !== 'component') return 'fallback';
      const checked = files.get(change.path) as CheckedFile<'component'> | undefined;
      patches.push({
        project: place.project,
        component: place.component,
        checked: checked ?? null,
      });
    }
    const result = patchComponents(this.current, patches, this.options.catalog, readPending);
    return result.ok === 'fallback' ? 'fallback' : result;
  }

  /** Writes the content changes, then updates the tree; the new state is kept only when both succeed. */
  private async commit(
    changes: readonly ContentChange[],
    files: Map<string, CheckedFile>,
    model: Model,
    updateTree: () => Promise<UpdateStats>,
  ): Promise<SessionUpdate> {
    try {
      await this.writeContent(changes);
      const stats = await updateTree();
      this.files = files;
      this.current = model;
      await this.compactNow();
      return { ok: true, stats };
    } catch (error) {
      await this.recover();
      throw error;
    }
  }

  /** Writes changed files first and deletes last, each atomically. */
  private async writeContent(changes: readonly ContentChange[]): Promise<void> {
    for (const change of changes)
      if (change.text !== null)
        await writeFileAtomic(this.contentFile(change.path), change.text, { durable: true });
    for (const change of changes)
      if (change.text === null) await rm(this.contentFile(change.path), { force: true });
  }

  /** The manifest's journal grows with each update; once it is long, it is written whole. */
  private async compactNow(): Promise<void> {
    if (journalIsLong(this.manifest)) await writeManifest(this.options.outDir, this.manifest);
  }

  /** After a failed write, rereads content and tree from disk, so the next update starts from what is there. */
  private async recover(): Promise<void> {
    try {
      const opened = await openContent(this.options.contentDir, {
        settings: this.options.settings,
        catalog: this.options.catalog,
        keepFiles: true,
      });
      if (!opened.ok) return;
      this.manifest = await reconcileTree(this.options.outDir, opened.model, {
        rootHost: this.options.rootHost,
      });
      this.files = keptFiles(opened);
      this.current = opened.model;
      this.staleLists.clear();
    } catch {
      // The disk is failing; the next update will fail too and say why.
    }
  }

  private contentFile(path: string): string {
    return join(this.options.contentDir, path);
  }
}

// --- internal ---

/** Pages of a deferred list rewritten between two looks at waiting writes. */
const LIST_REFRESH_CHUNK = 100;

/** The checked files a session keeps to patch from (opened with `keepFiles`). */
function keptFiles(opened: { files: Map<string, CheckedFile> | null }): Map<string, CheckedFile> {
  return opened.files ?? internalError('the session opened its content without keeping its files');
}

/** The tree brought in line again after a failed write (its settings are those the session opened it with). */
async function reconcileTree(
  outDir: string,
  model: Model,
  options: { rootHost: RootHost | null },
): Promise<Manifest> {
  return (
    await syncTree(outDir, model, { keepManifest: true, host: options.rootHost ?? undefined })
  ).manifest;
}

/** Temporary files a crash left in the content folder (writeFileAtomic's dot files). */
async function removeLeftovers(contentDir: string): Promise<void> {
  const leftovers = await fg('**/.*.tmp-*', { cwd: contentDir, dot: true, onlyFiles: true });
  await Promise.all(leftovers.map((file) => rm(join(contentDir, file), { force: true })));
}

function placeOfChange(path: string): FilePlace {
  if (
    path.startsWith('/') ||
    path.split('/').some((part) => part === '..' || part === '.' || part === '')
  ) {
    internalError(`content change outside the content folder: ${path}`);
  }
  const result = placeOf(path);
  if (!('place' in result)) internalError(`not a content file: ${path}`);
  return result.place;
}
