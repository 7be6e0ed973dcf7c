/**
 * Publishing content straight to a store, with no tree on disk (`deploy
 * --content`): the model's file groups are compared by fingerprint with the
 * deploy record kept in the store's state; only the groups that changed are
 * rendered, and of their files only those whose MD5 changed go up, from
 * memory, a bounded number at a time. Keys that left go after every upload,
 * as a deploy of a tree does; the record left is the one such a deploy would
 * leave, so either way of publishing can follow the other.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { CacheKey } from '../cache/cache-file.ts';
import {
  modelFromCache,
  recordBuild,
  recordCachedModel,
  STORE_STAMP,
} from '../cache/cold-build.ts';
import { loadCatalog, type Catalog } from '../catalog/catalog.ts';
import { internalError, type ContentError } from '../errors.ts';
import { contentTypeOf, isPublished } from '../hosts/published.ts';
import type { HostOptions } from '../hosts/index.ts';
import type { Model } from '../model/types.ts';
import type { PatchScope } from '../resolve/patch.ts';
import { apiPath } from '../api/urls.ts';
import { encodeFileText } from '../output/serialize.ts';
import type { SettingsOverrides } from '../resolve/resolve.ts';
import { pngsDrawn, releasePngs } from '../status-site/png.ts';
import { openTreeContent } from '../tree/extra-groups.ts';
import { namesInGroup, treePathOf } from '../tree/files-record.ts';
import { createFingerprintCache, type FingerprintCache } from '../tree/fingerprints.ts';
import { fileGroups, type FileGroup } from '../tree/groups.ts';
import { patchedGroups } from '../tree/patched.ts';
import { stateDir } from '../tree/state-folder.ts';
import { noFigures } from './deploy.ts';
import { withHeapNearLive } from '../heap.ts';
import { md5OfBytes } from './plan.ts';
import { refusedUrl } from './published-url.ts';
import {
  formatLine,
  parseLine,
  recordIsLong,
  recordPath,
  uploadSettings,
  type DeployedGroup,
  type Header,
} from './record.ts';
import {
  GroupTable,
  groupAt,
  indexRecord,
  indexRecordOf,
  keptLines,
  LineWriter,
  writeSortedRecord,
  writtenLines,
  type RecordIndex,
} from './record-stream.ts';
import { RecordedDrawings } from './recorded-drawings.ts';
import { sendingPolicy, withRetries, type RetryPolicy } from './retry.ts';
import { StoreError, type ObjectStore } from './store.ts';
import {
  ownStateKeys,
  withStoreState,
  type RestoredState,
  type StateDeployReport,
  type StateDeps,
  type StateRunOptions,
} from './store-state.ts';
import { describeTarget, keyOf } from './target.ts';

interface PublishOptions extends Omit<StateRunOptions, 'outDir' | 'dryRun'> {
  contentDir: string;
  settings?: SettingsOverrides | undefined;
  host?: HostOptions['host'];
  strict?: boolean | undefined;
  cacheControl: string | null;
  concurrency: number;
  allowBaseUrl?: boolean | undefined;
  /** List the keys under the prefix and compare every file with them, whatever the record says. */
  verify?: boolean | undefined;
  /** Where the run's scratch files go (the deploy record between store and run); the system's temporary folder by default. */
  spoolDir?: string;
  signal?: AbortSignal;
  /** After each upload, with the count so far. */
  onUpload?: (uploaded: number) => void;
  /** The most changed groups held between the plan and their rendering (50,000 by default). */
  heldGroups?: number;
}

interface ContentFigures {
  warnings: ContentError[];
  translations: number;
  /** The content files read and checked: `all`, or only those the state's build cache could not vouch for. */
  parsed: number | 'all';
  /** The most file groups the run held at once, waiting to be rendered. */
  held: number;
}

type PublishReport =
  (StateDeployReport & ContentFigures & { errors?: undefined }) | { errors: ContentError[] };

/** Opens the content and publishes its snapshot to the target, through the state in the store. */
export async function publishContent(
  options: PublishOptions,
  deps: StateDeps & { catalog?: Catalog },
): Promise<PublishReport> {
  const spool = await mkdtemp(join(options.spoolDir ?? tmpdir(), 'weblate-snapshot-publish-'));
  const outDir = join(spool, 'tree');
  // What the run found in the content, beside the deploy's report.
  const found: { errors?: ContentError[]; content?: ContentFigures } = {};
  try {
    const run = { ...options, outDir, cache: true };
    const report = await withStoreState(run, deps, async (restored) => {
      const published = await publishInRun(options, deps, outDir, restored);
      if (published.errors) {
        found.errors = published.errors;
        return { ...noFigures(), ok: false, message: '', stateUnchanged: true };
      }
      const { warnings, translations, parsed, held, ...deployed } = published;
      found.content = { warnings, translations, parsed, held };
      return deployed;
    });
    if (found.errors) return { errors: found.errors };
    const none = { warnings: [], translations: 0, parsed: 0, held: 0 };
    return { ...report, ...(found.content ?? none) };
  } finally {
    await rm(spool, { recursive: true, force: true });
  }
}

/**
 * Opens the content and publishes it inside a run that already holds the
 * store's state (a mirror's, which pulls first): `outDir` is the scratch tree
 * whose state folder holds the deploy record and the build cache the state
 * carried, `restored` what the run found in that state. Content errors come
 * back with nothing published.
 */
export function publishInRun(
  options: PublishOptions,
  deps: StateDeps & { catalog?: Catalog },
  outDir: string,
  restored: RestoredState,
): Promise<PublishReport> {
  return withHeapNearLive(() => openAndPublish(options, deps, outDir, restored));
}

// --- internal ---

async function openAndPublish(
  options: PublishOptions,
  deps: StateDeps & { catalog?: Catalog },
  outDir: string,
  { distrust, inLine }: RestoredState,
): Promise<PublishReport> {
  const opened = await openContent(options, deps, outDir);
  if (!opened.ok) return { errors: opened.errors };
  const { model, fingerprints, warnings, parsed } = opened;
  // The target in line with the cached model: only what the content changed since is looked at.
  const patch = inLine ? opened.patch : null;
  const publish = new Publish(options, deps, model, outDir, fingerprints, patch);
  const report = await publish.run(distrust);
  await opened.record();
  const translations = model.translations.length;
  return { ...report, warnings, translations, parsed, held: publish.peakHeld };
}

/**
 * The content's model: through the build cache the state carried when it
 * vouches for the content (only the component files whose text changed are
 * read as YAML), else opened whole; and how to leave the cache for the next
 * run once the publish is over.
 */
async function openContent(options: PublishOptions, deps: { catalog?: Catalog }, outDir: string) {
  const catalog = deps.catalog ?? loadCatalog();
  const { contentDir, strict } = options;
  const key = storeCacheKey(options);
  const cached = await modelFromCache({ contentDir, outDir, key, catalog, strict });
  if (cached === 'untrusted') options.onNotice?.(UNTRUSTED_CACHE);
  if (cached && cached !== 'untrusted')
    return { ...cached, ok: true as const, record: () => recordCachedModel(outDir, key, cached) };
  const takenAt = Date.now();
  const opened = await openTreeContent(contentDir, { settings: options.settings, catalog, strict });
  if (!opened.ok) return opened;
  const { model, signatures, warnings } = opened;
  const fingerprints = createFingerprintCache();
  // The cache names files relative to the content folder, which a next run may find elsewhere.
  const relativeWarnings = warnings.map((w) => ({ ...w, file: relative(contentDir, w.file) }));
  const recorded = { outDir, key, model, signatures, takenAt, fingerprints, stamp: STORE_STAMP };
  const record = () => recordBuild({ ...recorded, warnings: relativeWarnings });
  const parsed = 'all' as const;
  return { ok: true as const, model, fingerprints, warnings, parsed, record, patch: null };
}

const UNTRUSTED_CACHE =
  'Not using the build cache in the state: it is damaged, or was written with other settings or ' +
  'by another version of this tool; reading all the content.';

/** What the state's build cache holds for: the settings the publish takes (the content folder is wherever the run finds it). */
function storeCacheKey(options: PublishOptions): CacheKey {
  const settings = {
    site: options.settings ?? {},
    host: options.host ?? null,
    strict: !!options.strict,
  };
  return { contentDir: '', settings: JSON.stringify(settings) };
}

/** Keys deleted per request (the most S3 takes). */
const DELETE_BATCH = 1000;
/** The most changed groups held between the plan and their rendering; more are found again in one pass over the model per depth. */
const HELD_GROUPS = 50_000;
/** Groups whose background work (PNG drawings) starts before the first of them is rendered. */
const WINDOW = 256;

/** A deploy's figures; `uploads` stays empty: at a million translations the list alone would take a gigabyte. */
type Figures = Omit<StateDeployReport, 'ok' | 'message' | 'busy'>;

/** A group rendered: its files' MD5s as they stand at the target, and uploads not yet over. */
interface Rendered {
  key: string;
  fingerprint: number;
  files: Map<string, string>;
  /** The drawing key of each PNG, kept in the group's line once the file is at the target. */
  drawings: Map<string, string>;
  /** Files the group had that it no longer has: deleted after every upload. */
  gone: string[];
  open: number;
}

/**
 * One publish: the plan from fingerprints, the uploads as groups are rendered, then the deletes.
 * The record is never held whole: its groups are indexed by key hash, and each rendered group's
 * line is written once its uploads are over, to the record itself (a journal appended to) or to
 * a scratch file the record is written whole from.
 */
class Publish {
  /** The most file groups held at once (waiting to be rendered). */
  peakHeld = 0;
  private readonly figures: Figures = noFigures();
  private readonly policy: RetryPolicy;
  private readonly inFlight = new Set<Promise<void>>();
  private failure: string | null = null;
  private store: ObjectStore | null = null;
  private old: RecordIndex | null = null;
  /** The groups gone that remove() found, in the record's order: their lines say so once the deletes went. */
  private readonly removedKeys: string[] = [];
  private listed: ReadonlyMap<string, string> | null = null;
  /** Where the lines of the groups rendered go. */
  private lines: LineWriter | null = null;
  /** Groups rendered whose gone files wait for the deletes before their line is written. */
  private readonly withGone: Rendered[] = [];
  /** The PNG widgets whose drawing the record holds for their file: not drawn again. */
  private readonly drawings = new RecordedDrawings();
  /** The groups a patch of the content may have changed, when only those are looked at. */
  private patched: FileGroup[] | null = null;

  constructor(
    private readonly options: PublishOptions,
    private readonly deps: StateDeps,
    private readonly model: Model,
    private readonly outDir: string,
    private readonly fingerprints: FingerprintCache,
    /** The model before the content files changed since the last run, when the target is in line with it. */
    private readonly patch: { before: Model; scope: PatchScope } | null,
  ) {
    this.policy = sendingPolicy(options, deps);
  }

  async run(distrust: string | null): Promise<StateDeployReport> {
    const target = describeTarget(this.options.target);
    const settings = uploadSettings(this.options.cacheControl);
    const old = distrust === null ? this.readRecord(target, settings) : null;
    const refused = this.refusedUrl(old);
    if (refused) return { ok: false, message: refused, ...this.figures };
    // Objects uploaded with other settings (another Cache-Control) all go up again.
    const forced = old !== null && old.settings !== settings;
    // Without a record (or with --verify) what the target holds comes from a listing.
    this.listed = forced
      ? new Map<string, string>()
      : this.options.verify || old === null
        ? await this.list()
        : null;
    this.old = old;
    const header = { target, settings, baseUrl: this.model.settings.baseUrl };
    // A record of the same header is appended to; any other is written whole from a scratch file.
    const appending =
      old?.sorted != null && !this.listed && !forced && old.baseUrl === header.baseUrl;
    const scratch = this.openLines(appending);
    let deleted = false;
    const drawnBefore = pngsDrawn();
    try {
      await this.upload();
      deleted = !this.stopped() && (await this.remove());
    } finally {
      this.figures.pngsDrawn = pngsDrawn() - drawnBefore;
      // Every PNG is rendered by now: its thread and bytes are not held through the record's write.
      releasePngs();
      this.settle(deleted, appending);
      this.writeRecord(header, appending, deleted, scratch);
      this.store?.close();
      rmSync(scratch, { recursive: true, force: true });
    }
    if (this.listed) this.figures.foreign = this.countForeign(target);
    const stopped = this.failure ?? (this.options.signal?.aborted ? 'Interrupted.' : null);
    if (stopped === null) return { ok: true, inLine: true, ...this.figures };
    const message =
      `${stopped}\nStopped with ${this.figures.uploaded} files uploaded and ${this.figures.deleted} keys deleted. ` +
      'What was done is recorded in the state: run the same command again to go on from there.';
    // A store that failed may not fail again: a later run goes on from here.
    return { ok: false, message, temporary: this.failure !== null, ...this.figures };
  }

  /** Opens where the lines of the groups rendered go; the run's scratch folder. */
  private openLines(appending: boolean): string {
    const scratch = mkdtempSync(
      join(this.options.spoolDir ?? tmpdir(), 'weblate-snapshot-record-'),
    );
    mkdirSync(stateDir(this.outDir), { recursive: true });
    this.lines = appending
      ? new LineWriter(this.old!.file, 'a')
      : new LineWriter(join(scratch, 'lines'), 'w');
    return scratch;
  }

  /**
   * The record, indexed: whole, or, when the target is in line with the model before the patch,
   * for the groups the patch may have changed only (found by bisection), which are then the only
   * ones looked at.
   */
  private readRecord(target: string, settings: string): RecordIndex | null {
    const patched = this.patchedOnly(target, settings);
    if (!patched) return indexRecord(this.outDir, target);
    this.patched = patched.groups;
    return patched.index;
  }

  /**
   * The groups the patch may have changed, and the record indexed for them; null when the whole
   * model is to be compared: with --verify, when the record's header differs, or when the patch
   * removed groups the record holds (what lies under them is found in the whole record).
   */
  private patchedOnly(target: string, settings: string) {
    if (!this.patch || this.options.verify) return null;
    const { before, scope } = this.patch;
    const hosts = { host: this.options.host };
    const patched = patchedGroups(before, this.model, scope, this.fingerprints, {
      hosts,
      pngs: this.drawings,
    });
    const groups = [...new Map(patched.groups.map((group) => [group.key, group])).values()];
    const live = new Set(groups.map((group) => group.key));
    const pastEnds = patched.lists.map((list) => apiPath.page(list.path, list.pages + 1));
    const gone = [...patched.removed, ...pastEnds].filter((key) => !live.has(key));
    const index = indexRecordOf(this.outDir, target, [...live, ...gone]);
    if (!index || index.settings !== settings || index.baseUrl !== this.model.settings.baseUrl)
      return null;
    if (gone.some((key) => index.groups.find(key) >= 0)) return null;
    return { groups, index };
  }

  private refusedUrl(recorded: RecordIndex | null): string | null {
    if (this.options.allowBaseUrl) return null;
    const last = recorded?.baseUrl ? { target: recorded.target, baseUrl: recorded.baseUrl } : null;
    const tree = { overrides: this.options.settings ?? {}, site: this.model.settings };
    return refusedUrl(this.options.contentDir, tree, last);
  }

  private stopped(): boolean {
    return this.failure !== null || this.options.signal?.aborted === true;
  }

  private groups(): Iterable<FileGroup> {
    if (this.patched) return this.patched;
    return fileGroups(this.model, {
      hosts: { host: this.options.host },
      cache: this.fingerprints,
      pngs: this.drawings,
    });
  }

  /**
   * Renders each group whose fingerprint moved and uploads its changed files, deepest groups
   * first (a new object goes up before the lists that link to it). The plan keeps each group's
   * depth (0 when unchanged); when too many changed to hold, each depth is found again in a
   * pass of its own over the model (the shallow ones, when few, in the last).
   */
  private async upload(): Promise<void> {
    await this.uploadChanged();
    await Promise.all(this.inFlight);
  }

  private async uploadChanged(): Promise<void> {
    const limit = this.options.heldGroups ?? HELD_GROUPS;
    const depths = new DepthList();
    const counts: number[] = [];
    let held: FileGroup[] | null = [];
    for (const group of this.groups()) {
      const depth = this.changed(group) ? depthOf(group.key) : 0;
      depths.push(depth);
      if (depth === 0) continue;
      counts[depth] = (counts[depth] ?? 0) + 1;
      if (held && held.push(group) > limit) held = null;
      this.hold(held?.length ?? 0);
    }
    if (held) return this.uploadAll(held.sort(deepestFirst));
    for (let depth = counts.length - 1; depth > 0; depth--) {
      if (!counts[depth]) continue;
      const shallower = counts.slice(0, depth).reduce((sum, count) => sum + (count ?? 0), 0);
      const later: FileGroup[] | null = shallower <= limit ? [] : null;
      const window: FileGroup[] = [];
      let ordinal = 0;
      for (const group of this.groups()) {
        const at = depths.at(ordinal++);
        if (at > 0 && at !== Math.min(depthOf(group.key), 255))
          internalError('the groups changed between passes');
        if (at === depth) window.push(group);
        else if (later && at > 0 && at < depth) later.push(group);
        this.hold(window.length + (later?.length ?? 0));
        if (window.length < Math.min(WINDOW, limit)) continue;
        await this.uploadAll(window.splice(0));
        if (this.stopped()) return;
      }
      await this.uploadAll(window);
      if (later) return this.uploadAll(later.sort(deepestFirst));
    }
  }

  /** Whether the group is to be rendered: its fingerprint moved, or the target is compared with a listing. */
  private changed(group: FileGroup): boolean {
    const slot = this.old?.groups.find(group.key) ?? -1;
    if (slot < 0) return true;
    this.old!.groups.mark(slot, GroupTable.SEEN);
    if (this.listed || this.old!.groups.fingerprint(slot) !== group.fingerprint) return true;
    this.figures.unchangedGroups++;
    return false;
  }

  private hold(groups: number): void {
    this.peakHeld = Math.max(this.peakHeld, groups);
  }

  /**
   * Starts the groups' background work, then renders and uploads them one after the other. Their
   * lines are read first, so that the PNGs whose drawing the record holds are not drawn ahead.
   */
  private async uploadAll(groups: readonly FileGroup[]): Promise<void> {
    for (let at = 0; at < groups.length; at += WINDOW) {
      const window = groups.slice(at, at + WINDOW);
      const recorded = window.map((group) => this.recorded(group.key));
      for (const group of recorded) this.drawings.expect(this.reusable(group).values());
      for (const group of window) group.prepare?.();
      for (const [i, group] of window.entries()) {
        if (this.stopped()) break;
        await this.uploadGroup(group, recorded[i]!);
      }
    }
  }

  /** The drawing keys the record holds for files of a group that are at the target, by file. */
  private reusable(group: DeployedGroup | null): Map<string, string> {
    const reusable = new Map<string, string>();
    // Compared with a listing, every file's bytes are checked, so each is drawn.
    if (!group?.drawings || this.listed) return reusable;
    for (const [name, key] of group.drawings)
      if ((group.files.get(name) ?? UNKNOWN) !== UNKNOWN) reusable.set(name, key);
    return reusable;
  }

  /**
   * The group's published files and their names. A PNG whose drawing the record holds for its
   * file comes back undrawn; if one comes back for another file (two files of the group share a
   * drawing), the group is rendered again with every PNG drawn.
   */
  private renderGroup(group: FileGroup, reusable: ReadonlyMap<string, string>) {
    const render = () => {
      const files = group.render().filter((file) => isPublished(file.path));
      const names = namesInGroup(
        group.key,
        files.map((file) => file.path),
      );
      return { files, names };
    };
    this.drawings.rendering(reusable);
    let rendered = render();
    const misplaced = this.drawings.misplaced(rendered.files, rendered.names);
    this.drawings.rendering(new Map());
    if (misplaced) rendered = render();
    return rendered;
  }

  /**
   * Starts the uploads of one group. Its line, once they are over, holds no fingerprint, and each
   * file not yet up (and each that left, until deleted) no MD5: a run cut short sends the rest
   * next time.
   */
  private async uploadGroup(group: FileGroup, recorded: DeployedGroup | null): Promise<void> {
    this.markRendered(group.key);
    const before = recorded?.files ?? new Map<string, string>();
    const { files, names } = this.renderGroup(group, this.reusable(recorded));
    const kept = new Set(names);
    const gone = [...before.keys()].filter((name) => !kept.has(name));
    const rendered: Rendered = {
      key: group.key,
      fingerprint: group.fingerprint,
      files: new Map(gone.map((name) => [name, UNKNOWN])),
      drawings: new Map(),
      gone,
      open: 1,
    };
    for (const [i, file] of files.entries()) {
      const name = names[i]!;
      const drawing = this.drawings.drawingOf(file.data);
      if (drawing) rendered.drawings.set(name, drawing.key);
      // Not drawn: the record holds its drawing, so the target has its bytes.
      if (drawing?.standIn) {
        rendered.files.set(name, before.get(name)!);
        continue;
      }
      const body = encodeFileText(file.data);
      const md5 = md5OfBytes(body);
      const key = keyOf(this.options.target, file.path);
      const there = this.listed ? hexToBase64(this.listed.get(key)) : before.get(name);
      rendered.files.set(name, there === md5 ? md5 : UNKNOWN);
      if (there === md5) continue;
      rendered.open++;
      await this.put(key, file.path, body, md5, (up) => {
        if (up) rendered.files.set(name, md5);
        this.close(rendered);
      });
    }
    this.close(rendered);
  }

  /** What the record holds for a group; null when it has none. */
  private recorded(key: string): DeployedGroup | null {
    const slot = this.old?.groups.find(key) ?? -1;
    if (slot < 0) return null;
    const entry = groupAt(this.old!.file, this.old!.groups.offset(slot));
    if (entry?.[0] !== key) internalError(`the deploy record lost the line of ${key}`);
    return entry[1];
  }

  /** Marks a group rendered, so that its old line goes from the record. */
  private markRendered(key: string): void {
    const slot = this.old?.groups.find(key) ?? -1;
    if (slot >= 0) this.old!.groups.mark(slot, GroupTable.RENDERED);
  }

  /** One upload of the group over: once all are, its line is written (or waits for the deletes). */
  private close(rendered: Rendered): void {
    if (--rendered.open > 0) return;
    if (rendered.gone.length > 0) this.withGone.push(rendered);
    else this.writeLine(rendered, false);
  }

  /** The group's line: its fingerprint once every file is up (and every gone one deleted). */
  private writeLine(rendered: Rendered, goneDeleted: boolean): void {
    if (goneDeleted) for (const name of rendered.gone) rendered.files.delete(name);
    const whole = rendered.gone.length === 0 || goneDeleted;
    const up = whole && [...rendered.files.values()].every((md5) => md5 !== UNKNOWN);
    const fingerprint = up ? rendered.fingerprint : -1;
    const { files } = rendered;
    // A drawing key vouches for bytes only once they are at the target.
    const drawings = new Map(
      [...rendered.drawings].filter(([name]) => files.has(name) && files.get(name) !== UNKNOWN),
    );
    const group = drawings.size > 0 ? { fingerprint, files, drawings } : { fingerprint, files };
    this.lines!.raw(formatLine(rendered.key, group));
  }

  /** Starts one upload once fewer than `concurrency` are in flight; `done` is told whether it went up. */
  private async put(
    key: string,
    path: string,
    body: Buffer,
    md5: string,
    done: (up: boolean) => void,
  ): Promise<void> {
    while (this.inFlight.size >= this.options.concurrency) await Promise.race(this.inFlight);
    if (this.stopped()) return done(false);
    const store = (this.store ??= this.deps.store());
    const metadata = {
      contentType: contentTypeOf(path, body),
      cacheControl: this.options.cacheControl,
      md5,
    };
    let up = false;
    const job: Promise<void> = withRetries(() => store.put(key, body, metadata), this.policy)
      .then(() => {
        up = true;
        this.figures.uploaded++;
        this.figures.bytes += body.length;
        this.options.onUpload?.(this.figures.uploaded);
      })
      .catch((error: unknown) => {
        if (!(error instanceof StoreError)) throw error;
        // A call cut short by an interruption is not the store's failure: the interruption stands.
        if (!this.options.signal?.aborted) this.failure ??= error.message;
      })
      .finally(() => {
        this.inFlight.delete(job);
        done(up);
      });
    this.inFlight.add(job);
  }

  /** Deletes the keys that left (files of changed groups, and groups gone): whether all went. */
  private async remove(): Promise<boolean> {
    const paths: string[] = [];
    for (const { key, gone } of this.withGone)
      for (const name of gone) paths.push(treePathOf(key, name));
    for (const [key, group] of this.removedGroups()) {
      this.removedKeys.push(key);
      for (const name of group.files.keys()) paths.push(treePathOf(key, name));
    }
    this.figures.deletes = paths;
    const keys = paths.map((path) => keyOf(this.options.target, path));
    const store = keys.length > 0 ? (this.store ??= this.deps.store()) : null;
    for (let at = 0; at < keys.length; at += DELETE_BATCH) {
      const batch = keys.slice(at, at + DELETE_BATCH);
      const refused = await withRetries(() => store!.remove(batch), this.policy);
      if (refused.length > 0) {
        this.failure = `The store refused to delete ${refused[0]!.key} (${refused[0]!.reason}).`;
        return false;
      }
      this.figures.deleted += batch.length;
    }
    return true;
  }

  /** The groups the record holds that the model no longer has, in the record's order. */
  private *removedGroups(): Generator<[string, DeployedGroup]> {
    const old = this.old;
    // Looking only at what a patch changed, there are none: patchedOnly() saw to it.
    if (!old || this.patched) return;
    const removed = (key: string, offset: number) => {
      const slot = old.groups.find(key);
      return old.groups.offset(slot) === offset && !old.groups.marked(slot, GroupTable.SEEN);
    };
    for (const text of keptLines(old, removed)) {
      const entry = parseLine(text);
      if (entry && entry[1] !== 'removed') yield [entry[0], entry[1]];
    }
  }

  /** Once the run is over: the lines of the groups that waited for the deletes, and of the groups gone. */
  private settle(deleted: boolean, appending: boolean): void {
    for (const rendered of this.withGone) this.writeLine(rendered, deleted);
    if (appending && deleted)
      for (const key of this.removedKeys) this.lines!.raw(formatLine(key, 'removed'));
    this.lines!.close();
  }

  /**
   * The record once the run is over. Appended to, it is written whole (sorted) only once long;
   * otherwise it is written whole from the lines the run wrote and the old lines still true: of
   * groups not rendered, and of groups gone whose keys were not deleted.
   */
  private writeRecord(
    header: Omit<Header, 'sorted'>,
    appending: boolean,
    deleted: boolean,
    scratch: string,
  ): void {
    const file = recordPath(this.outDir, header.target);
    const old = this.old;
    if (appending) {
      const lines = old!.lines + this.lines!.lines;
      if (!recordIsLong({ lines, wholeLines: old!.sorted!.count })) return;
      const now = indexRecord(this.outDir, header.target);
      if (!now) internalError('the deploy record written does not hold');
      writeSortedRecord(file, header, keptLines(now, latestLine(now)), scratch);
      return;
    }
    const stillTrue = (key: string, offset: number) => {
      if (!latestLine(old!)(key, offset)) return false;
      const slot = old!.groups.find(key);
      if (old!.groups.marked(slot, GroupTable.RENDERED)) return false;
      return old!.groups.marked(slot, GroupTable.SEEN) || !deleted;
    };
    const written = writtenLines(this.lines!.file);
    const lines = old ? chain(keptLines(old, stillTrue), written) : written;
    writeSortedRecord(file, header, lines, scratch);
  }

  /** Keys listed under the prefix that neither the record left nor the state and its lease hold, left alone. */
  private countForeign(target: string): number {
    const listed = this.listed!;
    const { state } = this.options;
    const [root, lease, parts] = ownStateKeys(state) as [string, string, string];
    let known = [root, lease].filter((key) => listed.has(key)).length;
    for (const key of listed.keys()) if (key.startsWith(parts)) known++;
    // Nothing else listed (a first publish): the record, 200 MB indexed at a million, is not read.
    if (known === listed.size) return 0;
    const now = indexRecord(this.outDir, target);
    if (!now) return listed.size - known;
    for (const text of keptLines(now, latestLine(now))) {
      const entry = parseLine(text);
      if (!entry || entry[1] === 'removed') continue;
      for (const name of entry[1].files.keys())
        if (listed.has(keyOf(this.options.target, treePathOf(entry[0], name)))) known++;
    }
    return listed.size - known;
  }

  private async list(): Promise<Map<string, string>> {
    const listed = new Map<string, string>();
    const { target } = this.options;
    const prefix = target.prefix ? `${target.prefix}/` : '';
    const store = (this.store ??= this.deps.store());
    let token: string | null = null;
    do {
      const page = await withRetries(() => store.list(prefix, token), this.policy);
      for (const object of page.objects) listed.set(object.key, object.etag);
      token = page.next;
    } while (token !== null);
    return listed;
  }
}

/** The MD5 recorded for a file whose bytes at the target are not known: never equal to a real one. */
const UNKNOWN = '-';

function hexToBase64(hex: string | undefined): string | undefined {
  return hex && /^[0-9a-f]{32}$/.test(hex) ? Buffer.from(hex, 'hex').toString('base64') : undefined;
}

/** Whether a line of the record is its group's last (an earlier one was replaced by an appended one). */
function latestLine(index: RecordIndex): (key: string, offset: number) => boolean {
  return (key, offset) => {
    const slot = index.groups.find(key);
    return slot >= 0 && index.groups.offset(slot) === offset;
  };
}

function* chain<T>(...parts: Iterable<T>[]): Generator<T> {
  for (const part of parts) yield* part;
}

/** Each group's depth in the plan, a byte each (0: unchanged). */
class DepthList {
  private bytes = new Uint8Array(1 << 16);
  private length = 0;

  push(depth: number): void {
    if (this.length === this.bytes.length) {
      const larger = new Uint8Array(this.bytes.length * 2);
      larger.set(this.bytes);
      this.bytes = larger;
    }
    this.bytes[this.length++] = Math.min(depth, 255);
  }

  at(index: number): number {
    if (index >= this.length) internalError('the groups changed between passes');
    return this.bytes[index]!;
  }
}

function deepestFirst(a: FileGroup, b: FileGroup): number {
  return depthOf(b.key) - depthOf(a.key);
}

function depthOf(key: string): number {
  return key.split('/').length;
}
