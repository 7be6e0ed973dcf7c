/**
 * Issue 24: a publish to a store in bounded memory. Past a number of changed file groups it holds
 * no more of them at once (each depth is found again in a pass over the model), and it never
 * holds the deploy record whole; what it publishes, and the record it leaves, are those of a
 * publish that held everything: a refresh after one counter changed sends only what changed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bumpFirstCounter, firstComponent } from '../../bench/processes.ts';
import { writeSyntheticContent } from '../../bench/synthetic.ts';
import { publishContent } from '../../src/deploy/publish.ts';
import { s3Store } from '../../src/deploy/s3.ts';
import { tempDir } from '../helpers.ts';
import { useLocalS3 } from '../support/s3-proxy.ts';

const BUCKET = 'held';
const servers = useLocalS3(BUCKET);

const store = () => s3Store({ bucket: BUCKET, endpoint: servers.s3.url, region: null });

function publish(content: string, prefix: string, heldGroups?: number) {
  return publishContent(
    {
      contentDir: content,
      settings: { pages: false },
      target: { bucket: BUCKET, prefix, endpoint: servers.s3.url },
      state: { bucket: BUCKET, key: `${prefix}/.weblate-snapshot/state` },
      waitMs: 0,
      cacheControl: null,
      concurrency: 16,
      retries: 0,
      allowBaseUrl: true,
      ...(heldGroups !== undefined && { heldGroups }),
    },
    { store, stateStore: store, sleep: async () => {}, random: () => 0.5, now: Date.now },
  );
}

/** Each published key under the prefix (the state left out), with its MD5. */
async function published(prefix: string): Promise<Map<string, string>> {
  const objects = new Map<string, string>();
  const bucket = store();
  try {
    let token: string | null = null;
    do {
      const page = await bucket.list(`${prefix}/`, token);
      for (const object of page.objects)
        if (!object.key.includes('/.weblate-snapshot/'))
          objects.set(object.key.slice(prefix.length + 1), object.etag);
      token = page.next;
    } while (token !== null);
  } finally {
    bucket.close();
  }
  return objects;
}

describe('a publish with many changed groups', () => {
  it('holds a bounded number of groups, publishes the same bytes, and leaves a record that holds', async () => {
    const content = join(tempDir(), 'content');
    await writeSyntheticContent(content, { projects: 1, components: 12, languages: 4 });

    const whole = await publish(content, 'whole');
    const bounded = await publish(content, 'bounded', 10);
    expect(whole).toMatchObject({ ok: true });
    expect(bounded).toMatchObject({ ok: true, uploaded: whole.errors ? -1 : whole.uploaded });
    if (whole.errors || bounded.errors || !bounded.ok) return;
    // Some 120 groups changed: the plan holds 10, a pass 10 of one depth and 10 shallower ones.
    expect(whole.held).toBeGreaterThan(100);
    expect(bounded.held).toBeLessThanOrEqual(21);
    expect(await published('bounded')).toEqual(await published('whole'));

    const component = firstComponent(content);
    writeFileSync(component, bumpFirstCounter(readFileSync(component, 'utf8')));
    const refreshed = await publish(content, 'bounded', 10);
    expect(refreshed).toMatchObject({ ok: true, deleted: 0 });
    if (refreshed.errors || !refreshed.ok) return;
    expect(refreshed.uploaded).toBeGreaterThan(0);
    expect(refreshed.uploaded).toBeLessThan(20);
    const fresh = await publish(content, 'fresh');
    expect(await published('bounded')).toEqual(await published('fresh'));
    expect(fresh).toMatchObject({ ok: true });
  });
});
