/**
 * Publishing content straight to a store, with no tree on disk (`deploy
 * --content`): the model's file groups are compared by fingerprint with the
 * deploy record kept in the store's state; only the groups that changed are
 * rendered, and of their files only those whose MD5 changed go up, from
 * memory, a bounded number at a time. Keys that left go after every upload,
 * as a deploy of a tree does; the record left is the one such a deploy would
 * leave, so either way of publishing can follow the other.
 */
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
import type { ContentError } from '../errors.ts';
import { contentTypeOf, isPublished } from '../hosts/published.ts';
import type { HostOptions } from '../hosts/index.ts';
import type { Model } from '../model/types.ts';
import { encodeFileText } from '../output/serialize.ts';
import type { SettingsOverrides } from '../resolve/resolve.ts';
import { openTreeContent } from '../tree/extra-groups.ts';
import { createFingerprintCache, type FingerprintCache } from '../tree/fingerprints.ts';
import { namesInGroup, treePathOf } from '../tree/files-record.ts';
import { fileGroups, type FileGroup } from '../tree/groups.ts';
import { noFigures } from './deploy.ts';
import { md5OfBytes } from './plan.ts';
import { refusedUrl } from './published-url.ts';
import {
  readRecord,
  uploadSettings,
  writeRecord,
  type DeployRecord,
  type DeployedGroup,
} from './record.ts';
import { sendingPolicy, withRetries, type RetryPolicy } from './retry.ts';
import { StoreError, type ObjectStore } from './store.ts';
import {
  leaseKey,
  withStoreState,
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
}

interface ContentFigures {
  warnings: ContentError[];
  translations: number;
  /** The content files read and checked: `all`, or only those the state's build cache could not vouch for. */
  parsed: number | 'all';
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
    const report = await withStoreState(run, deps, async (distrust) => {
      const published = await publishInRun(options, deps, outDir, distrust);
      if (published.errors) {
        found.errors = published.errors;
        return { ...noFigures(), ok: false, message: '', stateUnchanged: true };
      }
      const { warnings, translations, parsed, ...deployed } = published;
      found.content = { warnings, translations, parsed };
      return deployed;
    });
    if (found.errors) return { errors: found.errors };
    return { ...report, ...(found.content ?? { warnings: [], translations: 0, parsed: 0 }) };
  } finally {
    await rm(spool, { recursive: true, force: true });
  }
}

/**
 * Opens the content and publishes it inside a run that already holds the
 * store's state (a mirror's, which pulls first): `outDir` is the scratch tree
 * whose state folder holds the deploy record and the build cache the state
 * carried, `distrust` why the record is not to be trusted. Content errors
 * come back with nothing published.
 */
export async function publishInRun(
  options: PublishOptions,
  deps: StateDeps & { catalog?: Catalog },
  outDir: string,
  distrust: string | null,
): Promise<PublishReport> {
  const opened = await openContent(options, deps, outDir);
  if (!opened.ok) return { errors: opened.errors };
  const { model, fingerprints } = opened;
  const report = await new Publish(options, deps, model, outDir, fingerprints).run(distrust);
  await opened.record();
  const { warnings, parsed } = opened;
  return { ...report, warnings, translations: model.translations.length, parsed };
}

// --- internal ---

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
  return { ok: true as const, model, fingerprints, warnings, parsed: 'all' as const, record };
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

/** A deploy's figures; `uploads` stays empty: at a million translations the list alone would take a gigabyte. */
type Figures = Omit<StateDeployReport, 'ok' | 'message' | 'busy'>;

/** One publish: the plan from fingerprints, the uploads as groups are rendered, then the deletes. */
class Publish {
  private readonly figures: Figures = noFigures();
  private readonly policy: RetryPolicy;
  private readonly inFlight = new Set<Promise<void>>();
  private failure: string | null = null;
  private store: ObjectStore | null = null;
  /** The groups rendered: their record, the fingerprint they earn once settled, and how many files left them. */
  private readonly pending: {
    key: string;
    group: DeployedGroup;
    fingerprint: number;
    gone: string[];
  }[] = [];

  constructor(
    private readonly options: PublishOptions,
    private readonly deps: StateDeps,
    private readonly model: Model,
    private readonly outDir: string,
    private readonly fingerprints: FingerprintCache,
  ) {
    this.policy = sendingPolicy(options, deps);
  }

  async run(distrust: string | null): Promise<StateDeployReport> {
    const target = describeTarget(this.options.target);
    const settings = uploadSettings(this.options.cacheControl);
    const recorded = distrust === null ? await readRecord(this.outDir, target) : null;
    const refused = this.refusedUrl(recorded);
    if (refused) return { ok: false, message: refused, ...this.figures };
    // Objects uploaded with other settings (another Cache-Control) all go up again.
    const forced = recorded !== null && recorded.settings !== settings;
    // Without a record (or with --verify) what the target holds comes from a listing.
    const listed = forced
      ? new Map<string, string>()
      : this.options.verify || recorded === null
        ? await this.list()
        : null;
    const record: DeployRecord = {
      target,
      settings,
      baseUrl: this.model.settings.baseUrl,
      groups: recorded?.groups ?? new Map<string, DeployedGroup>(),
      lines: 0,
    };
    // Every group is rendered again, and the keys the record knows that left are still deleted.
    if (listed) for (const group of record.groups.values()) group.fingerprint = -1;
    try {
      const removed = await this.upload(record, listed);
      const deleted = !this.stopped() && (await this.remove(record, removed));
      this.settle(record, removed, deleted);
      if (listed) this.figures.foreign = countForeign(listed, record, this.options);
    } finally {
      await writeRecord(this.outDir, record);
      this.store?.close();
    }
    const stopped = this.failure ?? (this.options.signal?.aborted ? 'Interrupted.' : null);
    if (stopped === null) return { ok: true, ...this.figures };
    const message =
      `${stopped}\nStopped with ${this.figures.uploaded} files uploaded and ${this.figures.deleted} keys deleted. ` +
      'What was done is recorded in the state: run the same command again to go on from there.';
    // A store that failed may not fail again: a later run goes on from here.
    return { ok: false, message, temporary: this.failure !== null, ...this.figures };
  }

  private refusedUrl(recorded: DeployRecord | null): string | null {
    if (this.options.allowBaseUrl) return null;
    const last = recorded?.baseUrl ? { target: recorded.target, baseUrl: recorded.baseUrl } : null;
    const tree = { overrides: this.options.settings ?? {}, site: this.model.settings };
    return refusedUrl(this.options.contentDir, tree, last);
  }

  private stopped(): boolean {
    return this.failure !== null || this.options.signal?.aborted === true;
  }

  /**
   * Renders each group whose fingerprint moved and uploads its changed files,
   * deepest groups first (a new object goes up before the lists that link to
   * it); the keys of the groups that left.
   */
  private async upload(
    record: DeployRecord,
    listed: ReadonlyMap<string, string> | null,
  ): Promise<string[]> {
    const changed: FileGroup[] = [];
    const seen = new Set<string>();
    for (const group of fileGroups(this.model, {
      hosts: { host: this.options.host },
      cache: this.fingerprints,
    })) {
      seen.add(group.key);
      if (record.groups.get(group.key)?.fingerprint === group.fingerprint)
        this.figures.unchangedGroups++;
      else changed.push(group);
    }
    changed.sort((a, b) => depth(b.key) - depth(a.key));
    for (const group of changed) group.prepare?.();
    for (const group of changed) {
      if (this.stopped()) break;
      await this.uploadGroup(group, record, listed);
    }
    await Promise.all(this.inFlight);
    return [...record.groups.keys()].filter((key) => !seen.has(key));
  }

  /**
   * Starts the uploads of one group. Its record holds no fingerprint, and
   * each file not yet up (and each that left, until deleted) no MD5, until
   * the run settles it: a run cut short sends the rest next time.
   */
  private async uploadGroup(
    group: FileGroup,
    record: DeployRecord,
    listed: ReadonlyMap<string, string> | null,
  ): Promise<void> {
    const before = record.groups.get(group.key)?.files ?? new Map<string, string>();
    const files = group.render().filter((file) => isPublished(file.path));
    const names = namesInGroup(
      group.key,
      files.map((file) => file.path),
    );
    const after: DeployedGroup = { fingerprint: -1, files: new Map() };
    const kept = new Set(names);
    const gone = [...before.keys()].filter((name) => !kept.has(name));
    for (const name of gone) after.files.set(name, UNKNOWN);
    record.groups.set(group.key, after);
    this.pending.push({ key: group.key, group: after, fingerprint: group.fingerprint, gone });
    for (const [i, file] of files.entries()) {
      const name = names[i]!;
      const body = encodeFileText(file.data);
      const md5 = md5OfBytes(body);
      const key = keyOf(this.options.target, file.path);
      const there = listed ? hexToBase64(listed.get(key)) : before.get(name);
      after.files.set(name, there === md5 ? md5 : UNKNOWN);
      if (there === md5) continue;
      await this.put(key, file.path, body, md5, () => after.files.set(name, md5));
    }
  }

  /** Starts one upload once fewer than `concurrency` are in flight. */
  private async put(
    key: string,
    path: string,
    body: Buffer,
    md5: string,
    done: () => void,
  ): Promise<void> {
    while (this.inFlight.size >= this.options.concurrency) await Promise.race(this.inFlight);
    if (this.stopped()) return;
    const store = (this.store ??= this.deps.store());
    const metadata = {
      contentType: contentTypeOf(path, body),
      cacheControl: this.options.cacheControl,
      md5,
    };
    const job: Promise<void> = withRetries(() => store.put(key, body, metadata), this.policy)
      .then(() => {
        done();
        this.figures.uploaded++;
        this.figures.bytes += body.length;
        this.options.onUpload?.(this.figures.uploaded);
      })
      .catch((error: unknown) => {
        if (!(error instanceof StoreError)) throw error;
        // A call cut short by an interruption is not the store's failure: the interruption stands.
        if (!this.options.signal?.aborted) this.failure ??= error.message;
      })
      .finally(() => this.inFlight.delete(job));
    this.inFlight.add(job);
  }

  /** Deletes the keys that left (files of changed groups, and groups gone): whether all went. */
  private async remove(record: DeployRecord, removed: string[]): Promise<boolean> {
    const paths: string[] = [];
    for (const { key, gone } of this.pending)
      for (const name of gone) paths.push(treePathOf(key, name));
    for (const key of removed)
      for (const name of record.groups.get(key)!.files.keys()) paths.push(treePathOf(key, name));
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

  /** The record once the run is over: groups fully up (and their gone keys deleted) get their fingerprint. */
  private settle(record: DeployRecord, removed: string[], deleted: boolean): void {
    if (deleted) for (const key of removed) record.groups.delete(key);
    for (const { group, fingerprint, gone } of this.pending) {
      if (gone.length > 0 && !deleted) continue;
      for (const name of gone) group.files.delete(name);
      if ([...group.files.values()].every((md5) => md5 !== UNKNOWN))
        group.fingerprint = fingerprint;
    }
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

/** Keys listed under the prefix that neither the published snapshot nor its state and lease hold, left alone. */
function countForeign(
  listed: ReadonlyMap<string, string>,
  record: DeployRecord,
  options: PublishOptions,
): number {
  const known = new Set<string>([options.state.key, leaseKey(options.state)]);
  for (const [key, group] of record.groups)
    for (const name of group.files.keys()) known.add(keyOf(options.target, treePathOf(key, name)));
  return [...listed.keys()].filter((key) => !known.has(key)).length;
}

function depth(key: string): number {
  return key.split('/').length;
}
