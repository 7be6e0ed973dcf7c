/**
 * Issue 24: a state of one object, as versions before the state's parts
 * wrote it, is still read: the next publish trusts it (its record and build
 * cache), sends only what changed, and leaves the state as a root and parts.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { s3Store } from '../../src/deploy/s3.ts';
import { encodeStateBundle } from '../../src/deploy/state-bundle.ts';
import { isStateRoot, partsPrefix } from '../../src/deploy/state-parts.ts';
import { changeCounter, useContentBucket } from '../support/content-bucket.ts';
import { listBucket } from '../support/s3-proxy.ts';
import { readStateFiles } from '../support/state-files.ts';

const BUCKET = 'old-state';
const STATE = 'site/.weblate-snapshot/state';
const APP = 'projects/alpha/components/strings.yaml';
const bucket = useContentBucket(BUCKET);
const { servers } = bucket;
const publish = (content: string) => bucket.publish('site', content);

/** Puts the state back as one object of the same files, with no parts beside it. */
async function asOneObject(): Promise<void> {
  const store = s3Store({ bucket: BUCKET, endpoint: servers.s3.url, region: null });
  try {
    const { target, files } = await readStateFiles(store, STATE);
    const body = await encodeStateBundle(target, files);
    const md5 = createHash('md5').update(body).digest('base64');
    await store.put(STATE, body, {
      contentType: 'application/octet-stream',
      cacheControl: null,
      md5,
    });
    await store.remove([...(await listBucket(servers.s3.url, BUCKET, partsPrefix(STATE))).keys()]);
  } finally {
    store.close();
  }
}

describe('a state of one object', () => {
  it('is read, only what changed is sent, and the state is left in parts', async () => {
    const content = bucket.checkout();
    expect((await publish(content)).code).toBe(0);
    await asOneObject();

    changeCounter(content, APP);
    const run = await publish(content);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('the rest vouched for by the build cache in the state');
    expect(run.stdout).toMatch(/: [1-9]\d? files? uploaded/);

    const store = s3Store({ bucket: BUCKET, endpoint: servers.s3.url, region: null });
    try {
      expect(isStateRoot((await store.get(STATE))!)).toBe(true);
    } finally {
      store.close();
    }
    expect((await listBucket(servers.s3.url, BUCKET, partsPrefix(STATE))).size).toBeGreaterThan(0);
    expect((await publish(content)).stderr).toBe('');
  });
});
