/**
 * The state's parts sent to and fetched from the local S3-protocol server:
 * files of every size (empty ones among them, and one the reader does not
 * take) come back byte for byte; a second write of the same files sends no
 * part; a damaged part leaves the reader's folder as it was, with no
 * temporary file behind.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { s3Store } from '../../src/deploy/s3.ts';
import { parseStateRoot, partKey } from '../../src/deploy/state-parts.ts';
import { readStateParts, writeStateParts } from '../../src/deploy/state-transfer.ts';
import { tempDir } from '../helpers.ts';
import { fixedRandomBytes } from '../support/fixed-bytes.ts';
import { useLocalS3 } from '../support/s3-proxy.ts';

const BUCKET = 'state-transfer';
const servers = useLocalS3(BUCKET);

const FILES: [string, Buffer][] = [
  ['empty-first', Buffer.alloc(0)],
  ['record', Buffer.from(fixedRandomBytes(5 * 2 ** 20, 'state-transfer').toString('base64'))],
  ['empty', Buffer.alloc(0)],
  ['not-taken', Buffer.from('left out by the reader\n')],
  ['carried/a/b.yaml', Buffer.from('slug: b\n')],
];

const md5 = (body: Buffer) => createHash('md5').update(body).digest('base64');

const policy = () => ({
  retries: 0,
  backoffMs: 1,
  maxBackoffMs: 1,
  sleep: async () => {},
  random: () => 0.5,
  held: null,
  damaged: new Set<string>(),
});

async function write(key: string): Promise<void> {
  const dir = tempDir();
  const files = FILES.map(([name, body], n) => {
    const path = join(dir, `${n}`);
    writeFileSync(path, body);
    return { name, path };
  });
  const store = s3Store({ bucket: BUCKET, endpoint: servers.proxy.url, region: null });
  try {
    await writeStateParts(store, key, { target: 't', files }, policy(), async (root) => {
      await store.put(key, root, { contentType: 'text/plain', cacheControl: null, md5: md5(root) });
    });
  } finally {
    store.close();
  }
}

async function read(key: string, into: string): Promise<string | null> {
  const store = s3Store({ bucket: BUCKET, endpoint: servers.proxy.url, region: null });
  try {
    const parsed = parseStateRoot((await store.get(key))!);
    if (!parsed.ok) throw new Error(parsed.reason);
    const place = (name: string) => (name === 'not-taken' ? null : join(into, ...name.split('/')));
    return await readStateParts(store, key, parsed.root, place, policy());
  } finally {
    store.close();
  }
}

const partPuts = () =>
  servers.proxy.log.filter((r) => r.method === 'PUT' && r.url.includes('.parts/'));

describe('the state parts through the store', () => {
  it('bring back every file taken, byte for byte; the same files again send no part', async () => {
    await write('a/state');
    expect(partPuts().length).toBeGreaterThan(1);
    const into = tempDir();
    expect(await read('a/state', into)).toBeNull();
    for (const [name, body] of FILES)
      if (name !== 'not-taken')
        expect(readFileSync(join(into, ...name.split('/'))).equals(body)).toBe(true);
    expect(readdirSync(into).sort()).toEqual(['carried', 'empty', 'empty-first', 'record']);

    servers.proxy.log.length = 0;
    await write('a/state');
    expect(partPuts()).toEqual([]);
  });

  it('leave the folder as it was when a part is damaged', async () => {
    await write('b/state');
    const store = s3Store({ bucket: BUCKET, endpoint: servers.proxy.url, region: null });
    const parsed = parseStateRoot((await store.get('b/state'))!);
    if (!parsed.ok) throw new Error(parsed.reason);
    const last = parsed.root.parts.at(-1)!.sha256;
    const body = Buffer.from('x');
    const metadata = { contentType: 'text/plain', cacheControl: null, md5: md5(body) };
    await store.put(partKey('b/state', last), body, metadata);
    store.close();
    const into = tempDir();
    mkdirSync(join(into, 'kept'));
    expect(await read('b/state', into)).toMatch(`its part ${last} is not gzip data (`);
    expect(readdirSync(into)).toEqual(['kept']);
  });
});
