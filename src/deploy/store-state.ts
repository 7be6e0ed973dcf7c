/**
 * A deploy whose state lives in the store (`--state`), for runners that keep
 * nothing between runs. The run takes a lease object beside the state, so a
 * second run at the same time waits or stops instead of interleaving; reads
 * the deploy record from the state (a root and its parts, state-parts.ts)
 * into the tree's state folder (with, for a publish of content, the build
 * cache it left there; for a mirror, the pulled content into its folder
 * too); deploys; writes back the parts that changed; and gives the lease up.
 * A state that is missing, damaged, of another target, or left by a run that
 * never finished (its lease ran out) is not trusted: the deploy compares the
 * tree with a listing of the target instead, and says why.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import { buildCacheFiles } from '../cache/cache-file.ts';
import { writeFileAtomic } from '../output/atomic.ts';
import { readStateFile } from '../tree/state-folder.ts';
import { deploy, noFigures, type DeployOptions, type DeployReport } from './deploy.ts';
import { recordPath } from './record.ts';
import { sendingPolicy, withRetries, type RetryPolicy } from './retry.ts';
import { decodeStateBundle } from './state-bundle.ts';
import { isStateRoot, parseStateRoot, partsPrefix } from './state-parts.ts';
import {
  listParts,
  readStateParts,
  writeStateParts,
  type StateFile,
  type StateParts,
} from './state-transfer.ts';
import { StoreError, type ObjectStore } from './store.ts';
import { describeTarget, keyOf, parseTarget, type DeployTarget } from './target.ts';

/** Where a run's state is kept: a bucket and a key. */
export interface StateLocation {
  bucket: string;
  key: string;
}

/** How long a lease holds unless renewed: a run that was killed keeps others out this long at most. */
const LEASE_MS = 30 * 60 * 1000;
/** How often a run renews its lease (well within its time, so a slow store does not let it lapse). */
const RENEW_MS = 10 * 60 * 1000;

/** `--state`: `s3://BUCKET/KEY`, or `default` for the key beside the target's prefix. */
export function parseStateLocation(
  text: string,
  target: DeployTarget,
): { ok: true; value: StateLocation } | { ok: false; message: string } {
  if (text === 'default') return { ok: true, value: defaultStateLocation(target) };
  const parsed = parseTarget(text, null);
  if (!parsed.ok || parsed.value.prefix === '') {
    return {
      ok: false,
      message: `--state expects s3://BUCKET/KEY or default (got "${text}")`,
    };
  }
  return { ok: true, value: { bucket: parsed.value.bucket, key: parsed.value.prefix } };
}

/** The state's key when none is given: `<prefix>/.weblate-snapshot/state` in the target's bucket. */
function defaultStateLocation(target: DeployTarget): StateLocation {
  return { bucket: target.bucket, key: keyOf(target, '.weblate-snapshot/state') };
}

export interface StateDeps {
  /** The store of the target's bucket (made only when something is sent). */
  store: () => ObjectStore;
  /** The store of the state's bucket. */
  stateStore: () => ObjectStore;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  now: () => number;
  backoff?: { backoffMs: number; maxBackoffMs: number };
}

/** What a run kept in the store's state needs: where the state is, and the scratch tree its record goes beside. */
export interface StateRunOptions {
  state: StateLocation;
  /** How long to wait for another run's lease, in milliseconds (0: stop at once). */
  waitMs: number;
  target: DeployTarget;
  /** The tree whose state folder takes the record (for a publish, a scratch folder). */
  outDir: string;
  retries: number;
  /** Read the state, take no lease and write nothing back (the local record is left as it was). */
  dryRun?: boolean | undefined;
  /** A folder whose files travel in the state with the record (a mirror's pulled content). */
  carried?: string | undefined;
  /** The build cache beside `outDir` travels with the record (a publish of content, whose scratch tree is its own). */
  cache?: boolean | undefined;
  /** The folders still hold the state this process last wrote: read it again only if the store holds another. */
  kept?: KeptState | undefined;
  /** Told the MD5 (base64) of the state's root once written back, and whether it says the target is in line. */
  onSaved?: ((md5: string, inLine: boolean) => void) | undefined;
  onNotice?: ((text: string) => void) | undefined;
}

/** What a long-running process kept of the state it wrote last. */
interface KeptState {
  /** The MD5 of the state's root it wrote, base64. */
  md5: string;
  /** Whether that root says the target is in line with the build cache's model. */
  inLine?: boolean | undefined;
  /** Empties the folders the state fills, when the store holds another state (or none). */
  discard: () => Promise<void>;
}

type StateOptions = DeployOptions & StateRunOptions;

/**
 * A deploy report; `busy` when another run held the lease and nothing was
 * done; `stateUnchanged` when the run stopped before the target (the state
 * is left as it was); `inLine` when the target is in line with the model of
 * the build cache the run leaves, every group's line in the record whole.
 */
export type StateDeployReport = DeployReport & {
  busy?: true;
  stateUnchanged?: true;
  inLine?: true;
};

/** A deploy that reads its record from the store's state first and writes it back after. */
export function deployWithState(
  options: StateOptions,
  deps: StateDeps,
): Promise<StateDeployReport> {
  const ownKeys = ownStateKeys(options.state);
  return withStoreState(options, deps, ({ distrust }) =>
    deploy({ ...options, verify: options.verify || distrust !== null, ownKeys }, deps),
  );
}

/** The keys a state at `state` is kept in: its root, its lease, and (ending in `/`) the prefix of its parts. */
export function ownStateKeys(state: StateLocation): string[] {
  return [state.key, leaseKey(state), partsPrefix(state.key)];
}

/** The key of the lease beside a state. */
function leaseKey(state: StateLocation): string {
  return `${state.key}.lease`;
}

/**
 * Runs `work` holding the lease, with the state's deploy record in the
 * state folder of `outDir` and what the run found in the state (`RestoredState`),
 * and writes the record back after.
 */
export async function withStoreState(
  options: StateRunOptions,
  deps: StateDeps,
  work: (restored: RestoredState) => Promise<StateDeployReport>,
): Promise<StateDeployReport> {
  const store = deps.stateStore();
  // Without the run's signal: after an interrupt the record is still written back, the lease given up.
  const policy: StatePolicy = {
    ...sendingPolicy({ retries: options.retries, onNotice: options.onNotice }, deps),
    held: null,
    damaged: new Set(),
  };
  const where = describeState(options.state);
  const owner = randomBytes(12).toString('hex');
  let lease: LeaseTaken | null = null;
  let ended = false;
  let renewal: ReturnType<typeof setInterval> | null = null;
  try {
    if (!options.dryRun)
      lease = await takeLease(store, leaseKey(options.state), owner, options.waitMs, policy, deps);
    if (lease && !lease.ok)
      return { ...noFigures(), ok: false, busy: true, message: busy(where, lease.held) };
    if (lease) renewal = renewLease(store, leaseKey(options.state), lease.lease, deps);
    const target = describeTarget(options.target);
    const localRecord = options.dryRun ? await keepLocalRecord(options.outDir, target) : null;
    const kept = !lease?.stale && (await stillKept(store, options, policy));
    if (options.kept && !kept) await options.kept.discard();
    const restored: RestoredState = lease?.stale
      ? distrusted(
          `the last run at ${where} did not finish (its lease from ${lease.stale.started} ran out)`,
        )
      : kept
        ? { distrust: null, inLine: options.kept?.inLine === true }
        : await restoreRecord(store, options, target, policy);
    if (restored.distrust)
      options.onNotice?.(
        `Not using the state: ${restored.distrust}; comparing the tree with a listing of ${target} instead.`,
      );
    const report = await work(restored).finally(() => localRecord?.put());
    ended = true;
    if (options.dryRun || report.stateUnchanged) return report;
    const saved = await saveRecord(store, options, target, policy, report.inLine === true);
    return saved === null ? report : { ...report, ok: false, message: saved };
  } catch (error) {
    if (error instanceof StoreError)
      return {
        ...noFigures(),
        ok: false,
        message: error.message,
        temporary: error.kind !== 'fatal',
      };
    throw error;
  } finally {
    if (renewal) clearInterval(renewal);
    // A deploy that threw may have sent files its state does not know of: none is better than that one.
    if (lease?.ok && !ended)
      await withRetries(() => store.remove([options.state.key]), policy).catch(() => undefined);
    if (lease?.ok) await giveUpLease(store, leaseKey(options.state), owner, policy);
    store.close();
  }
}

// --- internal ---

/** How often a waiting run looks at the lease again. */
const POLL_MS = 5000;
/** The deploy record's name in the state. */
const RECORD = 'deploy-record';
/** The prefix of the carried folder's files in the state. */
const CARRIED = 'carried/';

/** Retries, and what the run knows of the state's parts in the store. */
type StatePolicy = RetryPolicy & StateParts;

interface Lease {
  owner: string;
  started: string;
  expires: string;
}

type LeaseTaken = { ok: true; stale: Lease | null; lease: Lease } | { ok: false; held: Lease };

function describeState(state: StateLocation): string {
  return `s3://${state.bucket}/${state.key}`;
}

/**
 * Takes the lease: put only where no lease is (a store that ignores the
 * condition is checked by reading the lease back), waiting up to `waitMs`
 * for another run's; one that ran out is taken over, and returned as `stale`.
 */
async function takeLease(
  store: ObjectStore,
  key: string,
  owner: string,
  waitMs: number,
  policy: RetryPolicy,
  deps: StateDeps,
): Promise<LeaseTaken> {
  const deadline = deps.now() + waitMs;
  let stale: Lease | null = null;
  for (;;) {
    const held = await readLease(store, key, policy);
    if (held && Date.parse(held.expires) > deps.now()) {
      if (deps.now() + POLL_MS > deadline) return { ok: false, held };
      await deps.sleep(POLL_MS);
      continue;
    }
    if (held) {
      stale = held;
      await withRetries(() => store.remove([key]), policy);
    }
    const now = deps.now();
    const lease: Lease = {
      owner,
      started: new Date(now).toISOString(),
      expires: new Date(now + LEASE_MS).toISOString(),
    };
    const body = Buffer.from(`${JSON.stringify(lease)}\n`);
    const put = await withRetries(() => store.putIfAbsent(key, body, metadata(body)), policy);
    if (put && (await readLease(store, key, policy))?.owner === owner)
      return { ok: true, stale, lease };
  }
}

/** Puts the lease again with a later expiry every RENEW_MS while the run goes on (a failed renewal is tried at the next). */
function renewLease(store: ObjectStore, key: string, lease: Lease, deps: StateDeps) {
  const timer = setInterval(() => {
    const renewed = { ...lease, expires: new Date(deps.now() + LEASE_MS).toISOString() };
    const body = Buffer.from(`${JSON.stringify(renewed)}\n`);
    store.put(key, body, metadata(body)).catch(() => undefined);
  }, RENEW_MS);
  timer.unref();
  return timer;
}

async function readLease(store: ObjectStore, key: string, policy: RetryPolicy) {
  const body = await withRetries(() => store.get(key), policy);
  if (body === null) return null;
  try {
    const lease = JSON.parse(body.toString('utf8')) as Partial<Lease>;
    if ([lease.owner, lease.started, lease.expires].every((v) => typeof v === 'string'))
      return lease as Lease;
  } catch {
    // Unreadable: treated as a lease that ran out, below.
  }
  return { owner: '?', started: 'an unknown time', expires: new Date(0).toISOString() };
}

async function giveUpLease(store: ObjectStore, key: string, owner: string, policy: RetryPolicy) {
  if ((await readLease(store, key, policy))?.owner === owner)
    await withRetries(() => store.remove([key]), policy);
}

function busy(where: string, held: Lease): string {
  return (
    `Another run holds the lease on ${where} (taken ${held.started}, until ${held.expires}); nothing was done. ` +
    `Run again once it is over, or give --wait SECONDS; if that run is gone, delete ${where}.lease.`
  );
}

/**
 * Whether the state's root is still the one this process wrote last, as its
 * folders hold it: a listing of its key gives the ETag (the MD5 of an object
 * put whole) without reading the object.
 */
async function stillKept(
  store: ObjectStore,
  options: StateRunOptions,
  policy: StatePolicy,
): Promise<boolean> {
  if (!options.kept) return false;
  const { key } = options.state;
  const page = await withRetries(() => store.list(key, null), policy);
  const etag = page.objects.find((object) => object.key === key)?.etag;
  const kept =
    etag !== undefined && Buffer.from(etag, 'hex').toString('base64') === options.kept.md5;
  // The parts of the state this process wrote are all there still, as far as the store says.
  if (kept) policy.held = await listParts(store, key, policy);
  return kept;
}

/** What a run found in the state. */
export interface RestoredState {
  /** Why the state's deploy record is not to be trusted; null when it is. */
  distrust: string | null;
  /** Whether the state says the run that wrote it left the target in line with its build cache's model. */
  inLine: boolean;
}

function distrusted(reason: string | null): RestoredState {
  return { distrust: reason, inLine: false };
}

/** Puts the state's deploy record in the tree's state folder. */
async function restoreRecord(
  store: ObjectStore,
  options: StateRunOptions,
  target: string,
  policy: StatePolicy,
): Promise<RestoredState> {
  const where = describeState(options.state);
  const body = await withRetries(() => store.get(options.state.key), policy);
  if (body === null) return distrusted(`there is no state at ${where} yet`);
  if (!isStateRoot(body)) return distrusted(await restoreBundle(body, options, target));
  const parsed = parseStateRoot(body);
  if (!parsed.ok) return distrusted(`the state at ${where} is damaged: ${parsed.reason}`);
  const names = parsed.root.files.map((file) => file.name);
  const refused = refuseFiles(where, parsed.root.target, names, options.outDir, target);
  if (refused) return distrusted(refused);
  const place = (name: string) => placeOf(name, options, target);
  const failed = await readStateParts(store, options.state.key, parsed.root, place, policy);
  if (failed) return distrusted(`the state at ${where} is damaged: ${failed}`);
  return { distrust: null, inLine: parsed.root.inLine === true };
}

/** Why the files a state names are not to be used here, if they are not. */
function refuseFiles(
  where: string,
  stateTarget: string,
  names: readonly string[],
  outDir: string,
  target: string,
): string | null {
  if (stateTarget !== target) return `the state at ${where} is of ${stateTarget}`;
  if (!names.includes(RECORD)) return `the state at ${where} holds no deploy record`;
  const outside = names.find((name) => !carriedPath(name, outDir));
  return outside === undefined
    ? null
    : `the state at ${where} names a file outside its folder: ${outside}`;
}

/** Where a file of the state goes on disk, or null when this run does not take it. */
function placeOf(name: string, options: StateRunOptions, target: string): string | null {
  if (name === RECORD) return recordPath(options.outDir, target);
  if (name.startsWith(CARRIED))
    return options.carried ? join(options.carried, ...name.slice(CARRIED.length).split('/')) : null;
  const cache = buildCacheFiles(options.outDir).find((file) => basename(file) === name);
  return options.cache && cache ? cache : null;
}

/** Restores a state of one object, as versions before the state's parts wrote it. */
async function restoreBundle(
  bundle: Buffer,
  options: StateRunOptions,
  target: string,
): Promise<string | null> {
  const where = describeState(options.state);
  const decoded = await decodeStateBundle(bundle);
  if (!decoded.ok) return `the state at ${where} is damaged: ${decoded.reason}`;
  const names = [...decoded.files.keys()];
  const refused = refuseFiles(where, decoded.target, names, options.outDir, target);
  if (refused) return refused;
  await writeFileAtomic(recordPath(options.outDir, target), decoded.files.get(RECORD)!);
  if (options.cache) await restoreCache(options.outDir, decoded.files);
  if (options.carried) await restoreCarried(options.carried, decoded.files);
  return null;
}

/** The bytes of the local record, and a way to put them back (or remove the file again). */
async function keepLocalRecord(outDir: string, target: string) {
  const file = recordPath(outDir, target);
  const bytes = readStateFile(file);
  return {
    put: () => (bytes === null ? rm(file, { force: true }) : writeFileAtomic(file, bytes)),
  };
}

/** Writes the build cache's files of the state beside `outDir`. */
async function restoreCache(outDir: string, files: ReadonlyMap<string, Buffer>): Promise<void> {
  for (const file of buildCacheFiles(outDir)) {
    const body = files.get(basename(file));
    if (body) await writeFileAtomic(file, body);
  }
}

/** Whether a name of the state is the record, a build cache file, or a carried file that stays inside its folder. */
function carriedPath(name: string, outDir: string): boolean {
  if (name === RECORD) return true;
  if (buildCacheFiles(outDir).some((file) => basename(file) === name)) return true;
  const path = name.slice(CARRIED.length);
  return (
    name.startsWith(CARRIED) &&
    path
      .split('/')
      .every((part) => part !== '' && part !== '.' && part !== '..' && !part.includes('\\'))
  );
}

/** Writes the carried files of the state into their folder. */
async function restoreCarried(dir: string, files: ReadonlyMap<string, Buffer>): Promise<void> {
  for (const [name, body] of files)
    if (name.startsWith(CARRIED))
      await writeFileAtomic(join(dir, ...name.slice(CARRIED.length).split('/')), body);
}

/** Writes the deploy record back into the state: null, or why it could not be. */
async function saveRecord(
  store: ObjectStore,
  options: StateRunOptions,
  target: string,
  policy: StatePolicy,
  inLine: boolean,
): Promise<string | null> {
  const files = await runStateFiles(options.outDir, target, options);
  if (files === null) return null;
  try {
    const state = { target, files, inLine };
    await writeStateParts(store, options.state.key, state, policy, async (root) => {
      const sent = metadata(root);
      await withRetries(() => store.put(options.state.key, root, sent), policy);
      options.onSaved?.(sent.md5, inLine);
    });
    return null;
  } catch (error) {
    // An older state would be trusted by the next run: better none, so that it lists the target.
    await withRetries(() => store.remove([options.state.key]), policy).catch(() => undefined);
    return `The deploy ended, but its state could not be written to ${describeState(options.state)}: ${(error as Error).message}`;
  }
}

/** The files a run's state carries, in the order they are written; null without a deploy record. */
async function runStateFiles(
  outDir: string,
  target: string,
  carried: { carried?: string | undefined; cache?: boolean | undefined },
): Promise<StateFile[] | null> {
  const record = recordPath(outDir, target);
  if (!existsSync(record)) return null;
  const files: StateFile[] = [{ name: RECORD, path: record }];
  if (carried.cache)
    for (const path of buildCacheFiles(outDir))
      if (existsSync(path)) files.push({ name: basename(path), path });
  if (carried.carried) files.push(...(await carriedFiles(carried.carried)));
  return files;
}

/** The files of the carried folder by their names in the state, sorted, so that parts recur from run to run. */
async function carriedFiles(dir: string): Promise<StateFile[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return { name: `${CARRIED}${relative(dir, path).split(sep).join('/')}`, path };
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function metadata(body: Buffer) {
  return {
    contentType: 'application/octet-stream',
    cacheControl: 'no-store',
    md5: createHash('md5').update(body).digest('base64'),
  };
}
