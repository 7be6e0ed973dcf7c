/**
 * The mirror refresh (issue 15): an instance mirrored and published, one
 * counter changed upstream, then what a scheduled job runs: an incremental
 * `pull`, a cold `build` and a `deploy`, each a process of its own as the
 * job starts it (`npm run <script> -- …`), timed from spawn to exit.
 *
 * Untimed set-up: the upstream instance is the sidecar on loopback over the
 * benchmark's content and tree (read-only); a full pull mirrors it, a full
 * build builds the mirror (and its build cache), reported beside the
 * upstream's own full build (a user's first mirror build against the same
 * instance built from its generated content), and the local S3-protocol
 * server (bench/s3-server.ts) takes a deploy record of the whole tree made
 * without sending it (bench/child.ts seed-deploy). Before the change, a
 * re-pull with nothing changed is counted too. The counter is changed in the
 * upstream content and the sidecar started again on it (it holds no watch).
 * The sidecar's changes feed is a snapshot's (empty), so a front before it
 * (feed-front.ts) serves one as Weblate would: an old entry, then one naming
 * the changed component. The pulls run between statistics sweeps; a last
 * pull with `--sweep-every 1`, untimed in the total, counts a sweep. The page cache is emptied
 * before the timed pull and again before the timed build (processes.ts coldCache).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mirrorPlaces, type MirrorTarget } from '../src/mirror/mirror.ts';
import { startFeedFrontOver } from './feed-front.ts';
import { LOCAL_S3_KEYS, startLocalS3 } from './s3-server.ts';
import { measureWebhook, type WebhookFigures } from './webhook.ts';
import {
  bumpFirstCounter,
  CHANGED_UPSTREAM,
  componentPath,
  child,
  coldCache,
  packedCommand,
  packedToolDir,
  removeTree,
  settle,
  startServer,
  type RunningServer,
} from './processes.ts';

/** A full build in a process of its own (bench/child.ts build): wall time, CPU, and what it wrote. */
export interface ChildBuild {
  ms: number;
  userMs: number;
  systemMs: number;
  files: number;
  bytes: number;
}

export interface RefreshFigures {
  setup: {
    pullMs: number;
    pullRequests: number;
    /** The mirror's first build: the pulled content, as a user's first mirror build. */
    build: ChildBuild;
    /** The build of the same instance from its generated content, to compare with. */
    generated: ChildBuild;
    seedMs: number;
    seededFiles: number;
  };
  /** A re-pull with nothing changed upstream (between sweeps). */
  unchanged: { ms: number; requests: number; written: number };
  /** Afterwards, a pull that sweeps (reads every project's statistics), nothing changed since. */
  sweep: { ms: number; requests: number };
  pull: { ms: number; requests: number; written: number; kept: number };
  build: { ms: number; files: number; reportedMs: number };
  /** How the page cache was emptied before the pull and again before the build. */
  coldCache: string;
  deploy: { ms: number; uploaded: number; deleted: number };
  /** Pull, build and deploy, spawn to exit, one after the other. */
  totalMs: number;
  /** A signed delivery naming the changed component, until the object in the bucket changed. */
  webhook: WebhookFigures;
}

interface RefreshOptions {
  /** The upstream content and its built tree (the sidecar serves them). */
  content: string;
  tree: string;
  /** The latest full build of the upstream content, which the mirror's first build is compared with. */
  generated: ChildBuild;
  /** Where the mirror, its tree and the S3 server's objects go. */
  work: string;
  /** Whether the mirror's tree holds the status site. */
  pages: boolean;
  log: (line: string) => void;
}

export async function measureRefresh(options: RefreshOptions): Promise<RefreshFigures> {
  const { work, log } = options;
  // The folders `weblate-snapshot mirror --work` keeps, so that the webhook latency starts from this refresh.
  const mirrorWork = join(work, 'mirror');
  const { content: mirror, tree: mirrorTree } = mirrorPlaces(mirrorWork, MIRROR_TARGET);
  let upstream = await startUpstream(options);
  // The mirror pulls through the front, whose URL stays when the upstream starts again.
  const { front, from } = await startFeedFrontOver(upstream.url);
  const changed = componentPath(CHANGED_UPSTREAM);
  const s3 = await startLocalS3(join(work, 's3'), ['bench']);
  try {
    log(`Mirror refresh: a full pull of the upstream sidecar (${upstream.url}) …`);
    const fullPull = await packedCommand('pull', [
      '--from',
      from,
      '--out',
      mirror,
      '--concurrency',
      '8',
    ]);
    log(
      `Mirror refresh: full pull ${seconds(fullPull.ms)} (${figure(fullPull.stdout, / ([\d,]+) requests?/)} requests); a full build of the mirror …`,
    );
    // Flushed first, as before every timed build: the upstream tree and the pull were just written.
    await settle();
    const built = childBuild(
      await child([
        'build',
        mirror,
        mirrorTree,
        '--full',
        ...(options.pages ? [] : ['--pages-off']),
      ]),
    );
    // The build cache is keyed by the code that wrote it: a build of the packed tool leaves the
    // cache the timed builds read, as a scheduled job that always runs one tool finds it.
    log(`Mirror refresh: built in ${seconds(built.ms)}; the packed tool's build cache …`);
    await packedCommand('build', [
      '--content',
      mirror,
      '--out',
      mirrorTree,
      ...(options.pages ? [] : ['--pages', 'off']),
    ]);
    log('Mirror refresh: the deploy record of the whole tree, sent nowhere …');
    const seeded = JSON.parse(await child(['seed-deploy', mirrorTree, 'bench', 'mirror', s3.url]));
    const setup = {
      pullMs: fullPull.ms,
      pullRequests: figure(fullPull.stdout, / ([\d,]+) requests?/),
      build: built,
      generated: options.generated,
      seedMs: seeded.ms,
      seededFiles: seeded.files,
    };

    await settle();
    const again = await packedCommand('pull', ['--from', from, '--out', mirror]);
    const unchanged = {
      ms: again.ms,
      requests: figure(again.stdout, / ([\d,]+) requests?/),
      written: figure(again.stdout, /\(([\d,]+) files? written/),
    };
    log(
      `Mirror refresh: a re-pull with nothing changed: ${seconds(unchanged.ms)}, ${unchanged.requests} requests, ${unchanged.written} files written`,
    );

    log('Mirror refresh: one counter changed upstream (the sidecar started again on it) …');
    await upstream.stop();
    const component = join(
      options.content,
      `projects/${changed.replace('/', '/components/')}.yaml`,
    );
    writeFileSync(component, bumpFirstCounter(readFileSync(component, 'utf8')));
    upstream = await startUpstream(options);
    front.upstream = new URL(upstream.url).origin;
    front.record({
      component: `${upstream.url}components/${changed}/`,
      translation: null,
      action: 2,
    });
    await settle();
    const changeUpstream = async () => {
      await upstream.stop();
      writeFileSync(component, bumpFirstCounter(readFileSync(component, 'utf8')));
      upstream = await startUpstream(options, new URL(upstream.url).port);
    };

    // A fresh runner starts with an empty page cache; the build is measured with one too.
    const cold = [mirror, `${mirrorTree}.state`, await packedToolDir()];
    const coldCacheHow = await coldCache(cold);
    const pulled = await packedCommand('pull', ['--from', from, '--out', mirror]);
    await coldCache(cold);
    // A flag holds for its run only: the full build's --pages off is given again.
    const built2 = await packedCommand('build', [
      '--content',
      mirror,
      '--out',
      mirrorTree,
      ...(options.pages ? [] : ['--pages', 'off']),
    ]);
    const deployed = await packedCommand(
      'deploy',
      // The mirror's links name the loopback upstream, which a deploy refuses unless told.
      ['--out', mirrorTree, '--to', 's3://bench/mirror', '--endpoint', s3.url, '--allow-base-url'],
      {
        ...LOCAL_S3_KEYS,
        AWS_EC2_METADATA_DISABLED: 'true',
      },
    );
    const swept = await packedCommand('pull', [
      '--from',
      from,
      '--out',
      mirror,
      '--sweep-every',
      '1',
    ]);
    const sweep = { ms: swept.ms, requests: figure(swept.stdout, / ([\d,]+) requests?/) };
    // A mirror into a bucket keeps its state there: put it as a mirror run would have left it.
    log('Webhook latency: the state a mirror keeps in the bucket …');
    await child(['seed-state', mirrorTree, mirror, 'bench', 'mirror', s3.url], LOCAL_S3_KEYS);
    const webhook = await measureWebhook({
      upstream: from,
      s3: s3.url,
      work: mirrorWork,
      buildFlags: options.pages ? [] : ['--pages', 'off'],
      ...CHANGED_UPSTREAM,
      changeUpstream,
      log,
    });
    log(`Webhook latency: ${seconds(webhook.ms)} from the delivery to the changed object`);
    return {
      webhook,
      setup,
      unchanged,
      sweep,
      pull: {
        ms: pulled.ms,
        requests: figure(pulled.stdout, / ([\d,]+) requests?/),
        written: figure(pulled.stdout, /\(([\d,]+) files? written/),
        kept: figure(pulled.stdout, /incrementally[^:]*: ([\d,]+) components? kept/),
      },
      build: {
        ms: built2.ms,
        files: figure(built2.stdout, /: ([\d,]+) files? rewritten/),
        reportedMs: 1000 * Number(/ in ([\d.]+) s\.$/m.exec(built2.stdout)?.[1] ?? Number.NaN),
      },
      coldCache: coldCacheHow,
      deploy: {
        ms: deployed.ms,
        uploaded: figure(deployed.stdout, /: ([\d,]+) files? uploaded/),
        deleted: figure(deployed.stdout, /, ([\d,]+) keys? deleted/),
      },
      totalMs: pulled.ms + built2.ms + deployed.ms,
    };
  } finally {
    await upstream.stop();
    await front.close();
    await s3.stop();
    await removeTree(mirrorTree);
    await removeTree(`${mirrorTree}.state`);
  }
}

// --- internal ---

const MIRROR_TARGET: MirrorTarget = {
  kind: 's3',
  target: { bucket: 'bench', prefix: 'mirror', endpoint: null },
};

/** The sidecar over the upstream content and tree, read-only, on loopback (a free port unless given). */
async function startUpstream(options: RefreshOptions, port = '0'): Promise<RunningServer> {
  return startServer(
    [
      'scripts/sidecar.ts',
      '--content',
      options.content,
      '--out',
      options.tree,
      '--port',
      port,
      '--read-only',
    ],
    {},
  );
}

/** The figures of a `bench/child.ts build` line. */
export function childBuild(line: string): ChildBuild {
  const { ms, userMs, systemMs, files, bytes } = JSON.parse(line) as ChildBuild;
  return { ms, userMs, systemMs, files, bytes };
}

/** A count printed in a command's summary. */
export function figure(text: string, pattern: RegExp): number {
  const match = pattern.exec(text);
  if (!match) throw new Error(`expected ${pattern} in:\n${text}`);
  return Number(match[1]!.replace(/,/g, ''));
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}
