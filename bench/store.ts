/**
 * The store target (issue 24): content published with no tree on disk
 * (`npm run deploy -- --content`), its state kept in the store. Against the
 * local S3-protocol server: a first publish, then one counter changed and a
 * publish from a new, empty scratch folder (a runner that kept nothing), each
 * a process of its own timed from spawn to exit, with the peak size of its
 * scratch folder (TMPDIR) sampled while it runs. In memory: the same two runs,
 * each a process of its own (bench/child.ts store-publish), against a store in
 * a process of its own that outlives them (bench/memory-store.ts) and keeps
 * only key hashes, sizes and MD5s, for a scale where the server would be what
 * is measured.
 */
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startCountingProxy, totalRequests } from './counting-proxy.ts';
import { LOCAL_S3_KEYS, startLocalS3 } from './s3-server.ts';
import { startMemoryStore } from './memory-store.ts';
import {
  bumpFirstCounter,
  child,
  firstComponent,
  packedCommand,
  LOADER,
  removeTree,
} from './processes.ts';

interface PublishFigures {
  ms: number;
  uploaded: number;
  deleted: number;
  /** The largest the run's scratch folder was seen (bytes of its files). */
  peakSpoolBytes: number;
  /** Requests the run made of the store (the state's and lease's included). */
  requests: number;
  /** The run's peak RSS (its process's). */
  maxRssKiB: number;
  /** In memory: the process that ran it. */
  pid?: number;
}

export interface StoreFigures {
  /** Against the local S3-protocol server. */
  s3?: { first: PublishFigures; refresh: PublishFigures };
  /** Against a store in a process of its own that keeps key hashes, sizes and MD5s. */
  memory?: {
    first: PublishFigures;
    refresh: PublishFigures;
    objects: number;
    /** The store process's own peak RSS (not the tool's). */
    storeMaxRssKiB: number;
  };
}

interface StoreOptions {
  content: string;
  work: string;
  pages: boolean;
  which: 's3' | 'memory';
  log: (line: string) => void;
}

export async function measureStore(options: StoreOptions): Promise<StoreFigures> {
  const component = firstComponent(options.content);
  if (options.which === 'memory') {
    options.log('Store target in memory: a first publish, then one counter changed …');
    return { memory: await measureMemoryStore(options.content, component, options.pages) };
  }
  const s3 = await startLocalS3(join(options.work, 's3-store'), ['bench']);
  const proxy = await startCountingProxy(s3.url);
  const publish = async (name: string): Promise<PublishFigures> => {
    proxy.counts.clear();
    const spool = join(options.work, `spool-${name}`);
    mkdirSync(spool, { recursive: true });
    let peakSpoolBytes = 0;
    // Sampled while the process runs: the bench may time with timers, a test may not.
    const sampler = setInterval(
      () => (peakSpoolBytes = Math.max(peakSpoolBytes, folderBytes(spool))),
      100,
    );
    try {
      const run = await packedCommand(
        'deploy',
        [
          '--content',
          options.content,
          '--to',
          's3://bench/store',
          '--endpoint',
          proxy.url,
          '--allow-base-url',
          '--concurrency',
          '32',
          ...(options.pages ? [] : ['--pages', 'off']),
        ],
        { ...LOCAL_S3_KEYS, AWS_EC2_METADATA_DISABLED: 'true', TMPDIR: spool },
      );
      return {
        ms: run.ms,
        uploaded: figure(run.stdout, /: ([\d,]+) files? uploaded/),
        deleted: figure(run.stdout, /, ([\d,]+) keys? deleted/),
        peakSpoolBytes,
        requests: totalRequests(proxy.counts),
        maxRssKiB: run.peakRssKiB,
      };
    } finally {
      clearInterval(sampler);
      await removeTree(spool);
    }
  };
  try {
    options.log('Store target on the local S3 server: a first publish …');
    const first = await publish('first');
    options.log(
      'Store target on the local S3 server: one counter changed, a publish from an empty scratch folder …',
    );
    const text = readFileSync(component, 'utf8');
    writeFileSync(component, bumpFirstCounter(text));
    try {
      return { s3: { first, refresh: await publish('refresh') } };
    } finally {
      writeFileSync(component, text);
    }
  } finally {
    await proxy.close();
    await s3.stop();
  }
}

// --- internal ---

/** The two runs against the store in memory, each a process of its own timed from spawn to exit. */
async function measureMemoryStore(content: string, component: string, pages: boolean) {
  const store = await startMemoryStore(LOADER);
  const publish = async (): Promise<PublishFigures> => {
    const started = performance.now();
    const args = ['store-publish', content, store.address, ...(pages ? [] : ['--pages-off'])];
    const figures = JSON.parse(await child(args)) as PublishFigures;
    return { ...figures, ms: performance.now() - started };
  };
  try {
    const first = await publish();
    const text = readFileSync(component, 'utf8');
    writeFileSync(component, bumpFirstCounter(text));
    try {
      const refresh = await publish();
      const { objects, maxRssKiB } = await store.stats();
      return { first, refresh, objects, storeMaxRssKiB: maxRssKiB };
    } finally {
      writeFileSync(component, text);
    }
  } finally {
    await store.stop();
  }
}

function folderBytes(dir: string): number {
  let total = 0;
  try {
    for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }))
      if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  } catch {
    // A file gone between the listing and its stat.
  }
  return total;
}

function figure(text: string, pattern: RegExp): number {
  const match = pattern.exec(text);
  if (!match) throw new Error(`expected ${pattern} in:\n${text}`);
  return Number(match[1]!.replace(/,/g, ''));
}
