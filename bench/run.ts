/**
 * The benchmark: a synthetic instance built in full and
 * compared with a raw-write floor measured in the same run, rebuilds after
 * small edits, a sidecar write round trip, and GET throughput of the sidecar
 * and of `serve` on the same tree. Every step that is timed runs in a process
 * of its own; the page cache is flushed (`sync`) before each.
 */
import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statfsSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { UsageError } from '../src/errors.ts';
import { translationCount, writeSyntheticContent, type SyntheticScale } from './synthetic.ts';
import {
  bumpFirstCounter,
  child,
  firstComponent,
  packedCommand,
  removeTree,
  ROOT,
  scriptArgs,
  settle,
  startServer,
} from './processes.ts';
import { childBuild, measureRefresh, type ChildBuild, type RefreshFigures } from './refresh.ts';
import { measureRequests, type RequestFigures } from './requests.ts';
import { measureStore, type StoreFigures } from './store.ts';

interface BenchOptions {
  scale: SyntheticScale;
  /** Working folder: content, trees and results go here. */
  dir: string;
  /** How many times the full build and the floor are measured, one after the other. */
  rounds: number;
  /** Seconds of load for each GET throughput measurement. */
  getSeconds: number;
  /** Skip what needs a tree kept after the full build (rebuilds, sidecar, GET, the mirror refresh). */
  buildOnly: boolean;
  /**
   * Which floor a round measures: `tree`, the built tree read back and written again (after the
   * build); `render`, the floor alone, fed by the renderer with no tree built or read; `none`, the
   * build alone. The last two are for a disk that holds the tree only once (with `buildOnly`).
   */
  floor?: FloorKind;
  /** Measure only the mirror refresh (its upstream tree built untimed). */
  refreshOnly?: boolean;
  /** Count only the requests a refresh makes of an upstream served from memory (no tree built). */
  requestsOnly?: boolean;
  /** Measure only the store target, against the local S3 server or a store in memory. */
  storeOnly?: 's3' | 'memory' | undefined;
  log: (line: string) => void;
  /** Called with the figures once everything is measured, before the trees are deleted (which takes minutes at scale). */
  measured?: (result: BenchResult) => void;
}

export interface BenchResult {
  scale: SyntheticScale & { translations: number };
  content: { files: number; reused: boolean };
  rounds: Round[];
  rebuilds?: {
    counter: RebuildFigures;
    cold: ColdBuildFigures;
    language: RebuildFigures;
    session: SessionFigures;
    watch: WatchFigures;
  };
  sidecarDelete?: { medianMs: number; p90Ms: number; requests: number };
  get?: { sidecar: LoadFigures; serve: LoadFigures; urls: number; seconds: number };
  refresh?: RefreshFigures;
  requests?: RequestFigures;
  store?: StoreFigures;
}

export type FloorKind = 'tree' | 'render' | 'none';

/** A round: the build and its floor, or only one of them (`--floor none`, `--floor render`). */
type Round =
  | { build: BuildFigures; floor: FloorFigures; ratio: number }
  | { build: BuildFigures; floor: null; ratio: null }
  | { build: null; floor: FloorFigures; ratio: null };

interface BuildFigures {
  ms: number;
  files: number;
  bytes: number;
  maxRssKiB: number;
  translationsPerSecond: number;
  filesPerSecond: number;
  megabytesPerSecond: number;
  /** CPU of the whole process, every thread: on a loaded machine it says more than the time. */
  userMs: number;
  systemMs: number;
}
interface FloorFigures {
  writeMs: number;
  files: number;
  bytes: number;
  /** CPU of the timed writing alone. */
  userMs: number;
  systemMs: number;
}
interface RebuildFigures {
  ms: number;
  files: number;
  groupsRendered: number;
  mode: string;
}
/** A cold `npm run build`: spawn to exit, and the time and files it reported. */
interface ColdBuildFigures {
  ms: number;
  reportedMs: number;
  files: number;
}
interface SessionFigures {
  openMs: number;
  updates: { name: string; ms: number; files: number; groups: number }[];
}
/** `npm run build -- --watch`: a counter changed in a content file, until the process reports the tree updated. */
interface WatchFigures {
  openMs: number;
  medianMs: number;
  maxMs: number;
  files: number;
  edits: number;
}
interface LoadFigures {
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  errors: number;
  non2xx: number;
}

export async function runBench(options: BenchOptions): Promise<BenchResult> {
  const dir = resolve(options.dir);
  const release = holdRunLock(dir);
  try {
    return await measureAll(dir, options);
  } finally {
    release();
  }
}

// --- internal ---

/**
 * One run at a time in a folder. A second run would set the first one's working folder aside
 * and share the disk with its builds and deletions: its figures (and the first's) would be
 * those of a busy disk.
 */
function holdRunLock(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const lock = join(dir, 'run.lock');
  const holder = lockHolder(lock);
  if (holder !== null)
    throw new UsageError(
      `another benchmark (process ${holder}) is running in ${dir}; wait for it to end, or give another --dir`,
    );
  writeFileSync(lock, `${process.pid}\n`);
  return () => rmSync(lock, { force: true });
}

/** The process holding the lock while it runs; null without a lock, or when its process is gone. */
function lockHolder(lock: string): number | null {
  if (!existsSync(lock)) return null;
  const pid = Number(readFileSync(lock, 'utf8').trim());
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : null;
  }
}

/** The floor alone, fed by the renderer (bench/child.ts floor-render), written to `floor`. */
async function renderedFloor(
  work: string,
  floor: string,
  round: number,
  log: (line: string) => void,
): Promise<FloorFigures> {
  log(`Round ${round}: raw-write floor fed by the renderer (no tree built or read back) …`);
  const floored = JSON.parse(
    await child(['floor-render', join(work, 'content'), floor]),
  ) as FloorFigures;
  log(
    `Round ${round}: raw-write floor ${(floored.writeMs / 1000).toFixed(2)} s, ${floored.files} files, ${floored.bytes} bytes`,
  );
  return floored;
}

async function measureAll(dir: string, options: BenchOptions): Promise<BenchResult> {
  const { log } = options;
  const translations = translationCount(options.scale);
  const { projects, components, languages } = options.scale;
  const flavour = benchSuffix(options.scale);
  const pristine = join(dir, `content-${projects}x${components}x${languages}${flavour}`);
  const content = await ensureContent(pristine, options.scale, log);
  const work = join(dir, 'work');
  // Trees are deleted only once everything is measured (see the end of a round); a leftover of an earlier run waits too.
  setAside(work, dir);
  mkdirSync(work, { recursive: true });
  cpSync(pristine, join(work, 'content'), { recursive: true });
  const result: BenchResult = { scale: { ...options.scale, translations }, content, rounds: [] };
  let out = '';
  // The latest round's full build, which the mirror's first build is compared with.
  let generated: ChildBuild | null = null;

  try {
    if (options.storeOnly) {
      result.store = await measureStore({
        content: join(work, 'content'),
        work,
        pages: options.scale.pages !== false,
        which: options.storeOnly,
        log,
      });
      return finish(result, options);
    }
    if (options.requestsOnly) {
      result.requests = await measureRequests({
        content: join(work, 'content'),
        work,
        components: options.scale.components,
        translations,
        log,
      });
      return finish(result, options);
    }
    if (options.refreshOnly) {
      out = join(work, 'upstream-dist');
      log(
        `Building the upstream tree of ${translations.toLocaleString('en-US')} translations (untimed) …`,
      );
      await settle();
      const upstreamBuild = childBuild(
        await child(['build', join(work, 'content'), out, '--full']),
      );
      log(`Built the upstream tree in ${(upstreamBuild.ms / 1000).toFixed(2)} s`);
      result.refresh = await measureRefresh({
        content: join(work, 'content'),
        tree: out,
        generated: upstreamBuild,
        work,
        pages: options.scale.pages !== false,
        log,
      });
      return finish(result, options);
    }
    for (let round = 1; round <= options.rounds; round++) {
      const roundDir = join(work, `round-${round}`);
      mkdirSync(roundDir);
      out = join(roundDir, 'dist');
      const floor = join(roundDir, 'floor');
      await settle();
      if (options.floor === 'render') {
        result.rounds.push({
          build: null,
          floor: await renderedFloor(work, floor, round, log),
          ratio: null,
        });
        continue;
      }
      log(`Round ${round}: full build of ${translations.toLocaleString('en-US')} translations …`);
      const line = await child(['build', join(work, 'content'), out, '--full']);
      const built = JSON.parse(line);
      generated = childBuild(line);
      const build: BuildFigures = {
        ms: built.ms,
        files: built.files,
        bytes: built.bytes,
        maxRssKiB: built.maxRssKiB,
        translationsPerSecond: translations / (built.ms / 1000),
        filesPerSecond: built.files / (built.ms / 1000),
        megabytesPerSecond: built.bytes / 2 ** 20 / (built.ms / 1000),
        userMs: built.userMs,
        systemMs: built.systemMs,
      };
      log(
        `Round ${round}: full build ${(build.ms / 1000).toFixed(2)} s, ${build.files} files, ${build.bytes} bytes, peak RSS ${(build.maxRssKiB / 1024).toFixed(0)} MiB`,
      );
      if (options.floor === 'none') {
        result.rounds.push({ build, floor: null, ratio: null });
        continue;
      }
      await settle();
      const consume =
        options.buildOnly &&
        round === options.rounds &&
        !roomForTrees(work, 1, build.bytes, build.files);
      log(
        `Round ${round}: raw-write floor${consume ? ' (consuming the built tree to save disk)' : ''} …`,
      );
      const floored = JSON.parse(
        await child(['floor', out, floor, ...(consume ? ['--consume'] : [])]),
      );
      result.rounds.push({ build, floor: floored, ratio: build.ms / floored.writeMs });
      // A round's trees stay until the end: deleting them right before the next round's build made that
      // build up to four times slower on ext4 without a journal, which for minutes after a deletion skips
      // freed inodes whose table block was written recently (`recently_deleted` in the kernel), while the
      // floor after it ran untouched. Only a disk without room for two more trees deletes them.
      if (round < options.rounds && !roomForTrees(work, 2, build.bytes, build.files)) {
        log(
          `Round ${round}: no room to keep this round's trees; deleting them (the next build may be slowed by it, see docs/performance.md)`,
        );
        await removeTree(floor);
        await removeTree(out);
      }
    }
    if (options.buildOnly) return finish(result, options);

    log('Rebuilds in place after one counter changed and after one language renamed …');
    result.rebuilds = await measureRebuilds(join(work, 'content'), out);
    log('Sidecar: DELETE of one translation, 20 times …');
    result.sidecarDelete = await measureSidecarDeletes(join(work, 'content'), out);
    log(`GET throughput of the sidecar and of serve, ${options.getSeconds} s each …`);
    result.get = await measureGets(join(work, 'content'), out, options.getSeconds);
    if (!generated) throw new Error('Internal error: the mirror refresh comes after a round');
    result.refresh = await measureRefresh({
      content: join(work, 'content'),
      tree: out,
      generated,
      work,
      pages: options.scale.pages !== false,
      log,
    });
    return finish(result, options);
  } finally {
    log('Deleting the trees …');
    await removeTree(work);
    for (const name of readdirSync(dir))
      if (name.startsWith('work.old-')) await removeTree(join(dir, name));
  }
}

function finish(result: BenchResult, options: BenchOptions): BenchResult {
  options.measured?.(result);
  return result;
}

async function ensureContent(dir: string, scale: SyntheticScale, log: (line: string) => void) {
  const marker = join(dir, '.complete');
  if (existsSync(marker)) return { files: Number(readFileSync(marker, 'utf8')), reused: true };
  await removeTree(dir);
  log(`Generating a synthetic instance in ${dir} …`);
  const files = await writeSyntheticContent(dir, scale);
  writeFileSync(marker, String(files));
  return { files, reused: false };
}

/** Whether the disk can hold `count` more trees (files take at least a block, a folder each, and an inode for both). */
function roomForTrees(dir: string, count: number, bytes: number, files: number): boolean {
  const fs = statfsSync(dir);
  return (
    fs.bavail * fs.bsize > 1.2 * count * (bytes + files * 2 * fs.bsize) &&
    fs.ffree > 1.2 * 2 * count * files
  );
}

/** Moves a leftover working folder out of the way (deleted at the end of the run, with this run's trees). */
function setAside(work: string, dir: string): void {
  if (existsSync(work)) renameSync(work, join(dir, `work.old-${Date.now()}`));
}

async function measureRebuilds(content: string, out: string) {
  const component = firstComponent(content);
  const original = readFileSync(component, 'utf8');
  writeFileSync(component, bumpFirstCounter(original));
  await settle();
  const counter = pickRebuild(JSON.parse(await child(['build', content, out])));
  // Again, as a scheduled job meets it: a new build process of the packed tool, timed from spawn to exit.
  writeFileSync(component, bumpFirstCounter(bumpFirstCounter(original)));
  await settle();
  const cold = coldBuildFigures(await packedCommand('build', ['--content', content, '--out', out]));
  mkdirSync(join(content, 'languages'), { recursive: true });
  writeFileSync(join(content, 'languages/cs.yaml'), 'name: Czech (renamed)\n');
  await settle();
  const language = pickRebuild(JSON.parse(await child(['build', content, out])));
  // The same two kinds of edit through a session kept open, as the sidecar makes them.
  const edits = join(content, '..', 'edits.json');
  writeFileSync(
    edits,
    JSON.stringify([
      { name: 'counter', changes: [{ path: relative(content, component), text: original }] },
      {
        name: 'language',
        changes: [{ path: 'languages/cs.yaml', text: 'name: Czech (renamed again)\n' }],
      },
    ]),
  );
  const session = JSON.parse(await child(['session', content, out, edits])) as SessionFigures;
  const watch = await measureWatch(content, out, component);
  return { counter, cold, language, session, watch };
}

/**
 * Starts `npm run build -- --watch`, then changes one counter in a component
 * file a few times (as an editor saving it) and times each change from the
 * write to the line that reports the tree updated.
 */
async function measureWatch(
  content: string,
  out: string,
  component: string,
): Promise<WatchFigures> {
  const started = performance.now();
  const watcher = spawn(
    process.execPath,
    [...scriptArgs('scripts/build.ts'), '--watch', '--content', content, '--out', out],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  watcher.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  watcher.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const waitFor = async (pattern: RegExp, from: number) => {
    for (let i = 0; i < 6000; i++) {
      const match = pattern.exec(output.slice(from));
      if (match) return match;
      if (watcher.exitCode !== null) break;
      await new Promise((done) => setTimeout(done, 5));
    }
    throw new Error(`build --watch did not print ${pattern}:\n${output}`);
  };
  try {
    await waitFor(/watching for changes/, 0);
    const openMs = performance.now() - started;
    const original = readFileSync(component, 'utf8');
    const times: number[] = [];
    let files = 0;
    for (let edit = 0; edit < WATCH_EDITS; edit++) {
      const from = output.length;
      const editStarted = performance.now();
      writeFileSync(component, edit % 2 === 0 ? bumpFirstCounter(original) : original);
      const match = await waitFor(/Updated .*: (\d+) files? rewritten/, from);
      times.push(performance.now() - editStarted);
      files = Math.max(files, Number(match[1]));
      await new Promise((done) => setTimeout(done, 300));
    }
    writeFileSync(component, original);
    times.sort((a, b) => a - b);
    return {
      openMs,
      medianMs: times[Math.floor(times.length / 2)]!,
      maxMs: times[times.length - 1]!,
      files,
      edits: times.length,
    };
  } finally {
    watcher.kill('SIGTERM');
    await new Promise((done) =>
      watcher.exitCode !== null ? done(null) : watcher.once('exit', done),
    );
  }
}

const WATCH_EDITS = 9;

function coldBuildFigures({ ms, stdout }: { ms: number; stdout: string }): ColdBuildFigures {
  const summary = / (\d[\d,]*) files? rewritten.* in ([\d.]+) s\./.exec(stdout);
  if (!summary) throw new Error(`expected the summary of an update in place, got:\n${stdout}`);
  return {
    ms,
    files: Number(summary[1]!.replace(/,/g, '')),
    reportedMs: Number(summary[2]) * 1000,
  };
}

function pickRebuild(report: {
  ms: number;
  files: number;
  groupsRendered?: number;
  mode: string;
}): RebuildFigures {
  return {
    ms: report.ms,
    files: report.files,
    groupsRendered: report.groupsRendered ?? 0,
    mode: report.mode,
  };
}

function relative(from: string, to: string): string {
  return to.slice(resolve(from).length + 1);
}

async function measureSidecarDeletes(content: string, out: string) {
  // The sidecar takes keys of 16 characters or more.
  const token = 'bench-token-0000000001';
  const server = await startServer(
    ['scripts/sidecar.ts', '--content', content, '--out', out, '--port', '0'],
    {
      WEBLATE_SNAPSHOT_TOKENS: token,
    },
  );
  try {
    // The rebuilds before left the disk busy writing back; each timed step starts from a flushed disk.
    await settle();
    const targets = pickTranslations(out, 20);
    const times: number[] = [];
    for (const path of targets) {
      const started = performance.now();
      const response = await fetch(new URL(path, server.url), {
        method: 'DELETE',
        headers: { Authorization: `Token ${token}` },
      });
      await response.arrayBuffer();
      times.push(performance.now() - started);
      if (response.status !== 204) throw new Error(`DELETE ${path} answered ${response.status}`);
    }
    times.sort((a, b) => a - b);
    return {
      medianMs: times[Math.floor(times.length / 2)]!,
      p90Ms: times[Math.floor(times.length * 0.9)]!,
      requests: times.length,
    };
  } finally {
    await server.stop();
  }
}

/** Paths of `count` translations spread over the first pages of the global list (no source translation), the same every run. */
function pickTranslations(out: string, count: number): string[] {
  const candidates: string[] = [];
  for (let page = 1; page <= 20; page++) {
    const file = join(
      out,
      page === 1 ? 'api/translations/index.json' : `api/translations/~page/${page}/index.json`,
    );
    if (!existsSync(file)) break;
    const body = JSON.parse(readFileSync(file, 'utf8')) as {
      results: { url: string; is_source: boolean }[];
    };
    for (const t of body.results) if (!t.is_source) candidates.push(new URL(t.url).pathname);
  }
  if (candidates.length < count)
    throw new Error(`the instance has fewer than ${count} translations to delete`);
  const step = Math.floor(candidates.length / count);
  return Array.from({ length: count }, (_, i) => candidates[i * step]!);
}

async function measureGets(content: string, out: string, seconds: number) {
  const urls = sampleUrls(out, 200);
  const sidecar = await startServer(
    ['scripts/sidecar.ts', '--content', content, '--out', out, '--port', '0', '--read-only'],
    {},
  );
  const sidecarLoad = await load(sidecar.url, urls, seconds).finally(() => sidecar.stop());
  const serve = await startServer(['scripts/serve.ts', '--out', out, '--port', '0'], {});
  const serveLoad = await load(serve.url, urls, seconds).finally(() => serve.stop());
  return { sidecar: sidecarLoad, serve: serveLoad, urls: urls.length, seconds };
}

/** API paths of the tree, a fixed mix of details, statistics and list pages. */
function sampleUrls(out: string, count: number): string[] {
  const index = JSON.parse(readFileSync(join(out, 'api/translations/index.json'), 'utf8')) as {
    results: { url: string }[];
  };
  const paths = [
    '/api/',
    '/api/projects/',
    '/api/components/',
    '/api/translations/',
    '/api/languages/',
  ];
  for (const t of index.results) {
    const path = new URL(t.url).pathname;
    paths.push(path, `${path}statistics/`);
    const [, , , project, component] = path.split('/');
    paths.push(`/api/components/${project}/${component}/`, `/api/projects/${project}/statistics/`);
  }
  return paths.slice(0, count);
}

async function load(url: string, paths: string[], seconds: number): Promise<LoadFigures> {
  const { default: autocannon } = await import('autocannon');
  const base = new URL(url);
  const result = await autocannon({
    url: `${base.protocol}//${base.host}`,
    connections: 16,
    duration: seconds,
    requests: paths.map((path) => ({ method: 'GET', path })),
  });
  return {
    requestsPerSecond: result.requests.average,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

/** What sets a run's content and results apart from the default's: `-2026.8` for the current flavour, `-nopages` without the status site, `-allpngs` with every folder's PNG widgets. */
export function benchSuffix(scale: SyntheticScale): string {
  const version = scale.weblateVersion ?? '4';
  const pngs = scale.pngWidgets === 'all' ? '-allpngs' : '';
  return `${version === '4' ? '' : `-${version}`}${scale.pages === false ? '-nopages' : ''}${pngs}`;
}
