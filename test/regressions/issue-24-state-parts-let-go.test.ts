/**
 * Issue 24: a refresh from an empty folder read the state's parts a few at a time, but kept every
 * part it had fetched until the last was written: at 200,000 translations some 220 MB beside the
 * build cache, and the state grows with the instance. Now each part is let go once written. A
 * real process reads a state of many parts from the local S3 server and, as it asks for the
 * last part, writes a heap snapshot: it holds only the parts in flight.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { s3Store } from '../../src/deploy/s3.ts';
import { parseStateRoot } from '../../src/deploy/state-parts.ts';
import { writeStateParts } from '../../src/deploy/state-transfer.ts';
import { compiledModule, tempDir } from '../helpers.ts';
import { fixedRandomBytes } from '../support/fixed-bytes.ts';
import { TEST_AWS_ENV, useLocalS3 } from '../support/s3-proxy.ts';
import { readHeapSnapshot, type HeapSnapshot } from '../support/heap-snapshot.ts';

const BUCKET = 'parts-let-go';
const KEY = 'x/state';
const servers = useLocalS3(BUCKET);

/** Reads the state's parts into `into`, writing a heap snapshot when it asks for the last part. */
const SCRIPT = `
import { writeHeapSnapshot } from 'node:v8';
const { s3Store } = await import(${JSON.stringify(compiledModule('src/deploy/s3.ts'))});
const { parseStateRoot, partKey } = await import(${JSON.stringify(compiledModule('src/deploy/state-parts.ts'))});
const { readStateParts } = await import(${JSON.stringify(compiledModule('src/deploy/state-transfer.ts'))});
const [endpoint, bucket, key, into, snapshot] = process.argv.slice(2);
const store = s3Store({ bucket, endpoint, region: null });
const parsed = parseStateRoot(await store.get(key));
const last = partKey(key, parsed.root.parts.at(-1).sha256);
const watched = {
  ...store,
  get: async (k) => {
    if (k === last) writeHeapSnapshot(snapshot);
    return store.get(k);
  },
};
// Retries as a refresh has them: writing the snapshot can hold this process for seconds on a busy
// machine, long enough for the server to close an idle kept-alive socket as a request reuses it.
const policy = { retries: 2, backoffMs: 1, maxBackoffMs: 1, sleep: async () => {}, random: () => 0.5, held: null, damaged: new Set() };
const failed = await readStateParts(watched, key, parsed.root, () => into, policy);
store.close();
console.log(JSON.stringify({ failed }));
`;

/** The sizes of the ArrayBuffers' bytes a snapshot holds. */
function bufferSizes(heap: HeapSnapshot): number[] {
  const fields = heap.snapshot.meta.node_fields;
  const [name, size] = [fields.indexOf('name'), fields.indexOf('self_size')];
  const sizes: number[] = [];
  for (let node = 0; node < heap.nodes.length; node += fields.length)
    if (heap.strings[heap.nodes[node + name]!] === 'system / JSArrayBufferData')
      sizes.push(heap.nodes[node + size]!);
  return sizes;
}

describe('reading the state from the store', () => {
  it('holds only the parts in flight, not every part fetched', async () => {
    const dir = tempDir();
    const record = Buffer.from(
      fixedRandomBytes(24 * 2 ** 20, 'state-parts-let-go').toString('base64'),
    );
    writeFileSync(join(dir, 'record'), record);
    const store = s3Store({ bucket: BUCKET, endpoint: servers.s3.url, region: null });
    const state = { target: 't', files: [{ name: 'deploy-record', path: join(dir, 'record') }] };
    const policy = {
      retries: 0,
      backoffMs: 1,
      maxBackoffMs: 1,
      held: null,
      damaged: new Set<string>(),
    };
    const deps = { sleep: async () => {}, random: () => 0.5 };
    let root: Buffer | null = null;
    await writeStateParts(store, KEY, state, { ...policy, ...deps }, async (body) => {
      root = body;
      const md5 = createHash('md5').update(body).digest('base64');
      await store.put(KEY, body, { contentType: 'text/plain', cacheControl: null, md5 });
    });
    store.close();
    const parsed = parseStateRoot(root!);
    if (!parsed.ok) throw new Error(parsed.reason);
    const partSizes = new Set(parsed.root.parts.map((part) => part.size));
    expect(parsed.root.parts.length).toBeGreaterThanOrEqual(8);

    const script = join(dir, 'read.mjs');
    writeFileSync(script, SCRIPT);
    const [into, snapshot] = [join(dir, 'read-back'), join(dir, 'at-last.heapsnapshot')];
    const args = [script, servers.s3.url, BUCKET, KEY, into, snapshot];
    const out = execFileSync(process.execPath, args, {
      encoding: 'utf8',
      env: { ...process.env, ...TEST_AWS_ENV },
    });
    expect(JSON.parse(out)).toEqual({ failed: null });
    expect(readFileSync(into).equals(record)).toBe(true);

    const held = bufferSizes(readHeapSnapshot(snapshot)).filter((size) => partSizes.has(size));
    // Four fetched ahead and the one being written, at most.
    expect(held.length).toBeLessThanOrEqual(5);
  }, 120_000);
});
