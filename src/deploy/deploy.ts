/**
 * Publishing a built tree to object storage: read the tree's manifest and the
 * record of what went to this target before, upload what changed (bounded
 * concurrency, retries with backoff), then delete the keys that left the
 * tree, so that a reader never meets a missing file. Nothing is listed unless
 * asked (`verify`), and nothing outside the keys this tree had under the
 * prefix is ever touched. Expected failures (no tree, refused credentials, a
 * store that keeps failing, an interruption) come back in the report; what
 * was done is in the record, so the same command resumes.
 */
import { readFilesOf, readFilesRecord, treePathOf } from '../tree/files-record.ts';
import {
  appendManifest,
  isRecordedTree,
  readManifestSince,
  type ManifestPosition,
} from '../tree/manifest.ts';
import { internalError } from '../errors.ts';
import { runPool } from '../pool.ts';
import {
  describeSettingsInEffect,
  readTreeSettings,
  type SettingSources,
  type TreeSettings,
} from '../tree/settings.ts';
import {
  deployedGroup,
  md5OfBytes,
  planDeploy,
  planVerify,
  readTreeFile,
  type DeployPlan,
  type GroupPlan,
  type TreeFiles,
  type Upload,
} from './plan.ts';
import {
  appendMark,
  appendRecord,
  openRecord,
  readRecord,
  recordIsLong,
  recordOf,
  uploadSettings,
  writeRecord,
  type DeployRecord,
  type DeployedGroup,
} from './record.ts';
import { refusedUrl } from './published-url.ts';
import { sendingPolicy, withRetries, type RetryPolicy } from './retry.ts';
import { StoreError, type ObjectStore } from './store.ts';
import { describeTarget, keyOf, type DeployTarget } from './target.ts';

/** The Cache-Control every object gets unless told otherwise: five minutes in caches and CDNs. */
export const DEFAULT_CACHE_CONTROL = 'public, max-age=300';

export interface DeployOptions {
  outDir: string;
  target: DeployTarget;
  /** Sent with every object; null for none. */
  cacheControl: string | null;
  /** Uploads in flight at once. */
  concurrency: number;
  /** Tries after the first failure of a call. */
  retries: number;
  /** List the keys under the prefix and compare every file with them. */
  verify?: boolean;
  /** Decide what to do, and do none of it. */
  dryRun?: boolean;
  /** Keys the tool keeps beside the snapshot (its state, its lease) and, ending in `/`, prefixes of them (the state's parts): never counted as foreign. */
  ownKeys?: readonly string[];
  /** Deploy a tree whose links lead to a loopback, private or file: address, or elsewhere than the last deploy there. */
  allowBaseUrl?: boolean | undefined;
  /** Set when the deploy should stop (Ctrl+C): nothing new starts, what is running ends, the record is kept. */
  signal?: AbortSignal;
  onProgress?: (progress: DeployProgress) => void;
  onNotice?: (text: string) => void;
}

export interface DeployProgress {
  uploaded: number;
  toUpload: number;
  deleted: number;
  toDelete: number;
}

interface DeployDeps {
  /** The store, made only when something is to be sent (a dry run never asks). */
  store: () => ObjectStore;
  /** A wait, ended early when given a signal that aborts (the lease's polling gives none). */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  /** First backoff and its ceiling, in milliseconds (tests shorten them). */
  backoff?: { backoffMs: number; maxBackoffMs: number };
}

interface DeployFigures {
  uploads: string[];
  deletes: string[];
  uploaded: number;
  bytes: number;
  deleted: number;
  unchangedGroups: number;
  /** Groups whose recorded state was read to plan the deploy: every group, or those changed since the last deploy's mark. */
  groupsRead: number;
  /** With verify: files of the tree compared with the listing. */
  verified: number;
  /** With verify: keys under the prefix that this tree never had (left alone). */
  foreign: number;
  /** PNG widgets drawn: a publish of content draws those whose drawing the record does not hold. */
  pngsDrawn?: number;
}

export type DeployReport =
  | ({ ok: true } & DeployFigures)
  | ({
      ok: false;
      message: string;
      /** The store failed in a way a later run may not meet (network, 5xx, throttled): the exit code says so. */
      temporary?: boolean;
    } & DeployFigures);

/** A deploy's figures before it has done anything. */
export function noFigures(): DeployFigures {
  return {
    uploads: [],
    deletes: [],
    uploaded: 0,
    bytes: 0,
    deleted: 0,
    unchangedGroups: 0,
    groupsRead: 0,
    verified: 0,
    foreign: 0,
  };
}

export async function deploy(options: DeployOptions, deps: DeployDeps): Promise<DeployReport> {
  const figures = noFigures();
  const target = describeTarget(options.target);
  const settings = uploadSettings(options.cacheControl);
  const read = await readState(options, target, settings);
  if (!read.ok) return { ok: false, message: read.message, ...figures };
  const { tree, recorded, position, mark, untouched } = read.value;
  figures.groupsRead = read.value.groupsRead;
  const baseUrl = await checkTreeSettings(options, recorded);
  if (!baseUrl.ok) return { ok: false, message: baseUrl.message, ...figures };
  // Objects uploaded with other settings (another Cache-Control) all go up again.
  const forced = recorded !== null && recorded.settings !== settings;
  const record = recorded ?? { target, settings, baseUrl: null, groups: new Map(), lines: 0 };
  // The record's header names the base URL the target now has links to.
  const newBaseUrl = baseUrl.value !== null && record.baseUrl !== baseUrl.value;
  if (baseUrl.value !== null) record.baseUrl = baseUrl.value;
  let store: ObjectStore | null = null;
  const connect = () => (store ??= deps.store());
  const policy = sendingPolicy(options, deps);
  let run: Run | null = null;
  try {
    let plan: DeployPlan;
    if (options.verify) {
      const listed = await listTarget(connect(), options.target, policy);
      plan = planVerify(options.outDir, tree, record, forced ? new Map() : listed, (path) =>
        keyOf(options.target, path),
      );
      figures.foreign = countForeign(listed, plan, record, options);
      figures.verified = plan.changed.reduce((sum, group) => sum + group.files.size, 0);
    } else {
      plan = planDeploy(options.outDir, tree, record, recorded === null || forced);
    }
    for (const { path, found } of plan.skipped.slice(0, SKIPPED_NAMED))
      options.onNotice?.(`Skipped ${path}: ${found} the build did not write (not published).`);
    if (plan.skipped.length > SKIPPED_NAMED)
      options.onNotice?.(
        `Skipped ${plan.skipped.length - SKIPPED_NAMED} more files the build did not write.`,
      );
    if (plan.missing.length > 0) {
      await forgetGroups(options.outDir, plan, options.dryRun);
      return { ok: false, message: missingMessage(options.outDir, plan.missing), ...figures };
    }
    figures.unchangedGroups = plan.unchanged + untouched;
    figures.uploads = plan.changed.flatMap((group) => group.uploads.map((u) => u.path));
    figures.deletes = [
      ...plan.changed.flatMap((group) => group.deletes),
      ...plan.removed.flatMap((group) => group.deletes),
    ];
    if (options.dryRun) return { ok: true, ...figures };
    if (recorded === null || forced || options.verify || newBaseUrl)
      await writeRecord(options.outDir, restarted(record, settings, forced));
    run = new Run(options, figures, record, policy);
    const stopped = (await run.upload(plan, connect)) ?? (await run.remove(plan, connect));
    await run.flush(stopped !== null);
    const whole = stopped === null && (options.verify || recordIsLong(record));
    // A record read in part (since a mark) is read whole to be written whole.
    if (whole)
      await writeRecord(
        options.outDir,
        mark ? await readWholeRecord(options.outDir, target) : record,
      );
    // The next deploy reads only what the manifest changed after this point.
    const changed = plan.changed.length + plan.removed.length > 0;
    if (stopped === null && (whole || changed || !samePosition(mark, position)))
      await appendMark(options.outDir, record, position);
    return stopped === null
      ? { ok: true, ...figures }
      : { ok: false, message: stopped, temporary: run.temporary, ...figures };
  } catch (error) {
    await run?.flush(true);
    if (error instanceof StoreError)
      return { ok: false, message: error.message, temporary: error.kind !== 'fatal', ...figures };
    throw error;
  } finally {
    (store as ObjectStore | null)?.close();
  }
}

// --- internal ---

/** Keys deleted per request (the most S3 takes). */
const DELETE_BATCH = 1000;
/** Record lines gathered before they are appended. */
const RECORD_BATCH = 256;

type Result<T> = { ok: true; value: T } | { ok: false; message: string };

/** Files found beside the tree's that are named one by one; the rest are counted. */
const SKIPPED_NAMED = 10;

interface DeployState {
  tree: TreeFiles;
  recorded: DeployRecord | null;
  /** Where the manifest stood when read. */
  position: ManifestPosition;
  /** The record's mark, when only what changed since it was read (the record then holds those groups only). */
  mark: ManifestPosition | null;
  groupsRead: number;
  /** Groups of the tree left out of `tree.groups`: unchanged since the mark. */
  untouched: number;
}

/**
 * The tree's groups and files and the record of the target: when the record's mark says where
 * the manifest stood at the last deploy and the manifest still starts so, only the groups it
 * changed since; otherwise all of them.
 */
async function readState(
  options: DeployOptions,
  target: string,
  settings: string,
): Promise<Result<DeployState>> {
  const opened = options.verify ? null : openRecord(options.outDir, target);
  // A new base URL or other settings rewrite the record whole: it is read whole for them.
  const sameBaseUrl = opened?.baseUrl === (await readTreeSettings(options.outDir))?.site.baseUrl;
  const mark = opened?.settings === settings && sameBaseUrl ? opened.mark : null;
  const first = await treeFiles(options.outDir, mark);
  if (!first.ok) return first;
  // Many groups changed (a language renamed): one read of the whole record beats a bisection each.
  const { changed } = first.value;
  if (changed && opened && changed.length <= Math.max(1000, opened.wholeLines / 16)) {
    const { tree, position, untouched } = first.value;
    const recorded = recordOf(options.outDir, opened, changed);
    const groupsRead = changed.length;
    // A damaged line found on the way: everything is read, as for a record that cannot be.
    if (recorded)
      return { ok: true, value: { tree, recorded, position, mark, groupsRead, untouched } };
  }
  const all = changed ? await treeFiles(options.outDir, null) : first;
  if (!all.ok) return all;
  const { tree, position } = all.value;
  const recorded = await readRecord(options.outDir, target);
  const groupsRead = Math.max(tree.groups.size, recorded?.groups.size ?? 0);
  return { ok: true, value: { tree, recorded, position, mark: null, groupsRead, untouched: 0 } };
}

/** A record read whole after a deploy that read only part of it, to write it whole. */
async function readWholeRecord(outDir: string, target: string): Promise<DeployRecord> {
  return (
    (await readRecord(outDir, target)) ??
    internalError(`the deploy record of ${target} cannot be read back after the deploy`)
  );
}

function samePosition(a: ManifestPosition | null, b: ManifestPosition): boolean {
  return a !== null && a.length === b.length && a.crc === b.crc;
}

/**
 * The groups of the tree at `outDir` and their files, from its manifest and files record (with
 * `since`, those the manifest changed after it, when it still starts so: `changed` names them);
 * refused when there is no tree, or one half updated.
 */
async function treeFiles(
  outDir: string,
  since: ManifestPosition | null,
): Promise<
  Result<{
    tree: TreeFiles;
    position: ManifestPosition;
    untouched: number;
    changed: string[] | null;
  }>
> {
  const read = (await isRecordedTree(outDir)) ? await readManifestSince(outDir, since) : null;
  if (!read) {
    return {
      ok: false,
      message: `${outDir} is not a tree built by npm run build (expected its manifest in ${outDir}.state/); build it first.`,
    };
  }
  const { manifest, position, changes } = read;
  const groups = new Map<string, number>();
  for (const [key, state] of changes ?? manifest.groups) {
    if (state === null) {
      return {
        ok: false,
        message: `${outDir} is being updated, or its last update was cut short (group ${key} is half written); run npm run build first.`,
      };
    }
    if (state !== 'removed') groups.set(key, state);
  }
  const files = changes ? readFilesOf(outDir, new Set(groups.keys())) : readFilesRecord(outDir);
  if (!files) {
    return {
      ok: false,
      message: `${outDir} was built before its files were recorded (no ${outDir}.state/files); run npm run build first.`,
    };
  }
  const isGroup = (key: string) => manifest.groups.has(key);
  const tree = { groups, files, isGroup, partial: changes !== null };
  // Groups not looked at are unchanged since the mark.
  const untouched = manifest.groups.size - groups.size;
  return {
    ok: true,
    value: { tree, position, untouched, changed: changes && [...changes.keys()] },
  };
}

/**
 * Marks the groups whose files are missing as unknown in the tree's
 * manifest, so the next build renders them again (a dry run only tells).
 */
async function forgetGroups(outDir: string, plan: DeployPlan, dryRun?: boolean): Promise<void> {
  if (dryRun) return;
  const groups = new Set(plan.missing.map((file) => file.group));
  await appendManifest(
    outDir,
    [...groups].map((key): [string, null] => [key, null]),
  );
}

function missingMessage(outDir: string, missing: DeployPlan['missing']): string {
  const [first] = missing;
  const more = missing.length > 1 ? ` (and ${missing.length - 1} more)` : '';
  return (
    `${outDir}/${first!.path} is in the tree's manifest, but the tree holds ${first!.found} there${more}; ` +
    'nothing was published. Run npm run build to write it again, then deploy.'
  );
}

/**
 * The tree's settings said when they differ from its site.yaml's, and its
 * base URL unless it may not be published there; the base URL, or null when
 * the tree keeps no settings (built by an early version).
 */
async function checkTreeSettings(
  options: DeployOptions,
  recorded: DeployRecord | null,
): Promise<Result<string | null>> {
  const tree = await readTreeSettings(options.outDir);
  if (!tree) return { ok: true, value: null };
  const said = saidSettings(options.outDir, tree);
  if (said) options.onNotice?.(said);
  const last = recorded?.baseUrl ? { target: recorded.target, baseUrl: recorded.baseUrl } : null;
  const refused = options.allowBaseUrl ? null : refusedUrl(options.outDir, tree, last);
  return refused ? { ok: false, message: refused } : { ok: true, value: tree.site.baseUrl };
}

/** The settings a tree was built with, said with the flags that set them, when one differs from its site.yaml's. */
function saidSettings(outDir: string, tree: TreeSettings): string | null {
  // A tree built by an earlier version did not keep what its site.yaml gave.
  if (tree.siteYaml === undefined) return null;
  const sources: SettingSources = {};
  for (const [key, value] of Object.entries(tree.overrides) as [keyof SettingSources, unknown][])
    if (value !== undefined) sources[key] = 'built';
  return describeSettingsInEffect(outDir, {
    settings: tree.site,
    siteYaml: tree.siteYaml,
    sources,
  });
}

/**
 * The record written before a deploy that starts anew (a first one, a
 * verify, other settings). With other settings the groups it knew keep no
 * fingerprint and no MD5: their files go up again, and those that left the
 * tree are still deleted, even after this deploy is cut short.
 */
function restarted(record: DeployRecord, settings: string, forgetHashes: boolean): DeployRecord {
  if (!forgetHashes) return Object.assign(record, { settings });
  const groups = new Map<string, DeployedGroup>();
  for (const [key, group] of record.groups)
    groups.set(key, {
      fingerprint: -1,
      files: new Map([...group.files.keys()].map((name) => [name, UNKNOWN])),
    });
  return Object.assign(record, { settings, groups });
}

async function listTarget(
  store: ObjectStore,
  target: DeployTarget,
  policy: RetryPolicy,
): Promise<Map<string, string>> {
  const listed = new Map<string, string>();
  const prefix = target.prefix ? `${target.prefix}/` : '';
  let token: string | null = null;
  do {
    const page = await withRetries(() => store.list(prefix, token), policy);
    for (const object of page.objects) listed.set(object.key, object.etag);
    token = page.next;
  } while (token !== null);
  return listed;
}

/** Keys under the prefix that neither the tree nor the record knows. */
function countForeign(
  listed: ReadonlyMap<string, string>,
  plan: DeployPlan,
  record: DeployRecord,
  { target, ownKeys }: DeployOptions,
): number {
  const known = new Set<string>(ownKeys);
  for (const group of plan.changed)
    for (const name of group.files.keys()) known.add(keyOf(target, treePathOf(group.key, name)));
  for (const [key, group] of record.groups)
    for (const name of group.files.keys()) known.add(keyOf(target, treePathOf(key, name)));
  const prefixes = (ownKeys ?? []).filter((key) => key.endsWith('/'));
  return [...listed.keys()].filter(
    (key) => !known.has(key) && !prefixes.some((prefix) => key.startsWith(prefix)),
  ).length;
}

/**
 * One deploy's uploads and deletes, and the record lines they earn: a group's
 * line once all its files are up (and its gone keys deleted). When the deploy
 * stops, a group half done is recorded too, with no fingerprint: the files it
 * has up with their MD5, the others with none, so the next deploy sends only
 * the rest.
 */
class Run {
  private readonly pending: [string, DeployedGroup | 'removed'][] = [];
  /** Groups with files up that have not earned their line yet. */
  private readonly started = new Map<string, GroupPlan>();
  private failure: string | null = null;
  /** Whether the failure that stopped the run was one a later run may not meet. */
  temporary = false;
  private readonly progress: DeployProgress;

  constructor(
    private readonly options: DeployOptions,
    private readonly figures: DeployFigures,
    private readonly record: DeployRecord,
    private readonly policy: RetryPolicy,
  ) {
    this.progress = {
      uploaded: 0,
      toUpload: figures.uploads.length,
      deleted: 0,
      toDelete: figures.deletes.length,
    };
  }

  /** Uploads every planned file, deepest first (a new object goes up before the lists that link to it); null, or why it stopped. */
  async upload(plan: DeployPlan, connect: () => ObjectStore): Promise<string | null> {
    const left = new Map<GroupPlan, number>();
    const uploads: [Upload, GroupPlan][] = [];
    for (const group of plan.changed) {
      left.set(group, group.uploads.length);
      for (const upload of group.uploads) uploads.push([upload, group]);
      if (group.uploads.length === 0 && group.deletes.length === 0)
        await this.earn(group.key, deployedGroup(group));
    }
    uploads.sort(([a], [b]) => depth(b.path) - depth(a.path) || (a.path < b.path ? -1 : 1));
    const store = uploads.length > 0 ? connect() : null;
    await runPool(uploads, this.options.concurrency, async ([upload, group]) => {
      if (this.stopped()) return;
      try {
        const body = readTreeFile(this.options.outDir, upload.path);
        if (body === null)
          throw new StoreError(
            `${this.options.outDir}/${upload.path} stopped being a plain file during the deploy; run npm run build, then deploy again.`,
            'fatal',
          );
        const md5 = md5OfBytes(body);
        const metadata = {
          contentType: upload.contentType,
          cacheControl: this.options.cacheControl,
          md5,
        };
        await withRetries(
          () => store!.put(keyOf(this.options.target, upload.path), body, metadata),
          this.policy,
        );
        group.files.set(upload.name, md5);
        this.started.set(group.key, group);
        this.figures.uploaded++;
        this.figures.bytes += body.length;
        this.progress.uploaded++;
        this.options.onProgress?.({ ...this.progress });
        const remaining = left.get(group)! - 1;
        left.set(group, remaining);
        if (remaining === 0 && group.deletes.length === 0)
          await this.earn(group.key, deployedGroup(group));
      } catch (error) {
        if (!(error instanceof StoreError)) throw error;
        // A call cut short by an interruption is not the store's failure: the interruption stands.
        if (this.options.signal?.aborted) return;
        if (this.failure === null) this.temporary = error.kind !== 'fatal';
        this.failure ??= error.message;
      }
    });
    return this.outcome('uploaded');
  }

  /** Deletes the keys that left the tree, once everything is up; null, or why it stopped. */
  async remove(plan: DeployPlan, connect: () => ObjectStore): Promise<string | null> {
    const work: { key: string; deletes: string[]; after: DeployedGroup | 'removed' }[] = [
      ...plan.changed
        .filter((g) => g.deletes.length > 0)
        .map((g) => ({ key: g.key, deletes: g.deletes, after: deployedGroup(g) })),
      ...plan.removed.map((g) => ({ key: g.key, deletes: g.deletes, after: 'removed' as const })),
    ];
    let batch: typeof work = [];
    let keys: string[] = [];
    const send = async () => {
      if (keys.length > 0) {
        const sent = keys;
        const refused = await withRetries(() => connect().remove(sent), this.policy);
        if (refused.length > 0)
          throw new StoreError(
            `The store refused to delete ${refused[0]!.key} (${refused[0]!.reason}).`,
            'fatal',
          );
        this.figures.deleted += sent.length;
        this.progress.deleted += sent.length;
        this.options.onProgress?.({ ...this.progress });
      }
      for (const done of batch) await this.earn(done.key, done.after);
      batch = [];
      keys = [];
    };
    try {
      for (const item of work) {
        if (this.stopped()) break;
        batch.push(item);
        keys.push(...item.deletes.map((path) => keyOf(this.options.target, path)));
        if (keys.length >= DELETE_BATCH) await send();
      }
      if (!this.stopped()) await send();
    } catch (error) {
      if (!(error instanceof StoreError)) throw error;
      if (!this.options.signal?.aborted) {
        this.temporary = error.kind !== 'fatal';
        this.failure = error.message;
      }
    }
    return this.outcome('deleted');
  }

  /** Appends the record lines earned so far; `stopping`: the groups half done too. */
  async flush(stopping = false): Promise<void> {
    const lines = this.pending.splice(0);
    if (stopping)
      for (const group of this.started.values()) lines.push([group.key, halfDone(group)]);
    await appendRecord(this.options.outDir, this.record, lines);
  }

  private async earn(key: string, state: DeployedGroup | 'removed'): Promise<void> {
    this.pending.push([key, state]);
    this.started.delete(key);
    if (this.pending.length >= RECORD_BATCH) await this.flush();
  }

  private stopped(): boolean {
    return this.failure !== null || this.options.signal?.aborted === true;
  }

  private outcome(step: 'uploaded' | 'deleted'): string | null {
    const { uploaded, toUpload, deleted, toDelete } = this.progress;
    const done =
      step === 'uploaded'
        ? `${uploaded} of ${toUpload} files uploaded, nothing deleted`
        : `every file uploaded, ${deleted} of ${toDelete} keys deleted`;
    const resume = `What was done is recorded: run the same command again to go on from there.`;
    if (this.failure !== null) return `${this.failure}\nStopped with ${done}. ${resume}`;
    if (this.options.signal?.aborted) return `Interrupted with ${done}. ${resume}`;
    return null;
  }
}

/** A group stopped halfway: no fingerprint; its files up with their MD5, the others (and keys still to delete) with none. */
function halfDone(group: GroupPlan): DeployedGroup {
  const files = new Map<string, string>();
  for (const [name, md5] of group.files) files.set(name, md5 ?? UNKNOWN);
  for (const path of group.deletes) files.set(path.slice(group.key.length - 1), UNKNOWN);
  return { fingerprint: -1, files };
}

/** The MD5 recorded for a file whose bytes at the target are not known: never equal to a real one. */
const UNKNOWN = '-';

function depth(path: string): number {
  let count = 0;
  for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) count++;
  return count;
}
