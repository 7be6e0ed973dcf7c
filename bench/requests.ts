/**
 * The requests a mirror refresh makes of the upstream (issue 24), at a scale
 * whose tree would not fit the disk: the upstream is the benchmark's content
 * served from memory (model-upstream.ts), behind the feed front that serves
 * a changes feed as Weblate does. Untimed set-up: a full pull of the packed
 * tool mirrors it. Then, each a new `weblate-snapshot pull` process, counted
 * by the requests it reports: a re-pull with nothing changed (between
 * sweeps), one counter changed upstream (the upstream started again on the
 * changed content, the feed naming the component) and a re-pull, then a
 * pull with `--sweep-every 1` with nothing changed since.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFeedFrontOver } from './feed-front.ts';
import {
  bumpFirstCounter,
  CHANGED_UPSTREAM,
  componentPath,
  highWaterMark,
  packedCommand,
  removeTree,
  ROOT,
  scriptArgs,
} from './processes.ts';
import { figure } from './refresh.ts';

export interface RequestFigures {
  setup: {
    /** The upstream's content opened into its model, the first time. */
    openMs: number;
    pullMs: number;
    pullRequests: number;
    pullPeakRssKiB: number;
  };
  /** A re-pull with nothing changed upstream (between sweeps). */
  unchanged: { ms: number; requests: number; written: number };
  /** One counter changed upstream, then a re-pull (between sweeps). */
  changed: { ms: number; requests: number; written: number; kept: number };
  /** A pull that reads every project's statistics, nothing changed since. */
  sweep: { ms: number; requests: number };
  /** The components of the changed component's project (the C of 40 + C). */
  components: number;
  /** The upstream's peak RSS over the run (both of its processes). */
  upstreamPeakRssKiB: number;
}

interface RequestOptions {
  /** The upstream content (a counter of one of its components is changed). */
  content: string;
  /** Where the mirror goes. */
  work: string;
  /** Components a project has. */
  components: number;
  /** Translations of the content (the full pull's heap is sized by them). */
  translations: number;
  log: (line: string) => void;
}

export async function measureRequests(options: RequestOptions): Promise<RequestFigures> {
  const { log } = options;
  const mirror = join(options.work, 'mirror');
  log('Upstream requests: opening the upstream content in memory …');
  let upstream = await startModelUpstream(options.content);
  log(`Upstream requests: opened in ${seconds(upstream.openMs)} (${upstream.url})`);
  // The mirror pulls through the front, whose URL stays when the upstream starts again.
  const { front, from } = await startFeedFrontOver(upstream.url);
  const changed = componentPath(CHANGED_UPSTREAM);
  let upstreamPeak = 0;
  try {
    log('Upstream requests: a full pull (untimed set-up) …');
    const full = await packedCommand(
      'pull',
      ['--from', from, '--out', mirror, ...CONCURRENCY],
      fullPullHeap(options.translations),
    );
    const setup = {
      openMs: upstream.openMs,
      pullMs: full.ms,
      pullRequests: figure(full.stdout, / ([\d,]+) requests?/),
      pullPeakRssKiB: full.peakRssKiB,
    };
    log(`Upstream requests: full pull ${seconds(full.ms)}, ${setup.pullRequests} requests`);
    const again = await packedCommand('pull', ['--from', from, '--out', mirror]);
    const unchanged = { ms: again.ms, ...counts(again.stdout) };
    log(`Upstream requests: nothing changed, ${unchanged.requests} requests`);

    log('Upstream requests: one counter changed upstream (the upstream opened again) …');
    upstreamPeak = Math.max(upstreamPeak, upstream.peakRssKiB());
    await upstream.stop();
    const component = join(
      options.content,
      `projects/${changed.replace('/', '/components/')}.yaml`,
    );
    writeFileSync(component, bumpFirstCounter(readFileSync(component, 'utf8')));
    upstream = await startModelUpstream(options.content);
    front.upstream = new URL(upstream.url).origin;
    front.record({
      component: `${upstream.url}components/${changed}/`,
      translation: null,
      action: 2,
    });
    const pulled = await packedCommand('pull', ['--from', from, '--out', mirror]);
    const after = {
      ms: pulled.ms,
      ...counts(pulled.stdout),
      kept: figure(pulled.stdout, /incrementally[^:]*: ([\d,]+) components? kept/),
    };
    log(`Upstream requests: one counter changed, ${after.requests} requests`);
    const swept = await packedCommand('pull', [
      '--from',
      from,
      '--out',
      mirror,
      '--sweep-every',
      '1',
      ...CONCURRENCY,
    ]);
    const sweep = { ms: swept.ms, requests: figure(swept.stdout, / ([\d,]+) requests?/) };
    log(`Upstream requests: a sweep, ${sweep.requests} requests`);
    upstreamPeak = Math.max(upstreamPeak, upstream.peakRssKiB());
    return {
      setup,
      unchanged,
      changed: after,
      sweep,
      components: options.components,
      upstreamPeakRssKiB: upstreamPeak,
    };
  } finally {
    await upstream.stop();
    await front.close();
    await removeTree(mirror);
  }
}

// --- internal ---

/** A full pull and a sweep read many resources: 8 at once keep the upstream's one thread busy. */
const CONCURRENCY = ['--concurrency', '8'];

/**
 * A full pull holds all it read until it writes: at 19,800 translations it failed with a heap of
 * 128 MiB and finished with 220 MiB, so at 1,000,000 it would pass Node's default heap (4 GiB).
 * The set-up's pull is given about 12 KiB a translation, never less than that default.
 */
function fullPullHeap(translations: number): Record<string, string> {
  const mib = Math.ceil((translations * 12) / 1024);
  return mib > 4096 ? { NODE_OPTIONS: `--max-old-space-size=${mib}` } : {};
}

function counts(stdout: string) {
  return {
    requests: figure(stdout, / ([\d,]+) requests?/),
    written: figure(stdout, /\(([\d,]+) files? written/),
  };
}

interface RunningUpstream {
  url: string;
  openMs: number;
  /** Its peak RSS so far (VmHWM); 0 without /proc. */
  peakRssKiB(): number;
  stop(): Promise<void>;
}

/** bench/model-upstream-child.ts over the content, on a free port; resolves once it listens. */
function startModelUpstream(content: string): Promise<RunningUpstream> {
  const child = spawn(
    process.execPath,
    [...scriptArgs('bench/model-upstream-child.ts'), content, '0'],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /^(http:\/\/\S+\/api\/) opened in (\d+) ms$/m.exec(output);
      if (!match) return;
      child.stdout.off('data', onData);
      resolve({
        url: match[1]!,
        openMs: Number(match[2]),
        peakRssKiB: () => highWaterMark(child.pid),
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`the upstream exited with ${code}: ${output}`)));
  });
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}
