/**
 * Issue 24: a damaged part of the state in the store (its bytes no longer
 * gzip, or no longer those its name hashes) is said, the run compares the
 * target with a listing instead, as for any state it cannot trust, and the
 * state it writes after sends that part again, so the next run trusts it.
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { s3Store } from '../../src/deploy/s3.ts';
import { parseStateRoot, partKey } from '../../src/deploy/state-parts.ts';
import { useContentBucket } from '../support/content-bucket.ts';

const BUCKET = 'part-damaged';
const STATE = 'site/.weblate-snapshot/state';
const bucket = useContentBucket(BUCKET);
const { servers } = bucket;
const publish = (content: string) => bucket.publish('site', content);

/** Puts `body` over the state's first part. */
async function damageFirstPart(body: Buffer): Promise<void> {
  const store = s3Store({ bucket: BUCKET, endpoint: servers.s3.url, region: null });
  try {
    const parsed = parseStateRoot((await store.get(STATE))!);
    if (!parsed.ok) throw new Error(parsed.reason);
    const key = partKey(STATE, parsed.root.parts[0]!.sha256);
    const md5 = createHash('md5').update(body).digest('base64');
    await store.put(key, body, { contentType: 'application/gzip', cacheControl: null, md5 });
  } finally {
    store.close();
  }
}

describe('a damaged part of the state', () => {
  it.each([
    ['not gzip', Buffer.from('not gzip at all'), 'is not gzip data'],
    ['other bytes', gzipSync('other bytes'), 'does not match its SHA-256'],
  ])('(%s) is said, the target listed instead, and the part sent again', async (_, body, said) => {
    const content = bucket.checkout();
    expect((await publish(content)).code).toBe(0);
    await damageFirstPart(body);

    const run = await publish(content);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      `Not using the state: the state at s3://${BUCKET}/${STATE} is damaged: its part `,
    );
    expect(run.stderr).toContain(said);
    expect(run.stdout).toContain(': 0 files uploaded');

    const next = await publish(content);
    expect(next.stderr).toBe('');
    expect(next.stdout).toContain(': 0 files uploaded');
  });
});
