/**
 * Issue 24: a publish from the state's build cache read the cache file whole and kept its bytes
 * (the model's, some 90 MB at 200,000 translations) in the cache it holds to the end of the run,
 * beside the model decoded from them, all in one buffer of the whole file. The cache now holds
 * where each part of the model is in the file (each checked), and each part is read into a
 * buffer of its own as it is decoded, then let go; the model read through the cache is the one
 * the content gives.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bumpFirstCounter, firstComponent } from '../../bench/processes.ts';
import { writeSyntheticContent } from '../../bench/synthetic.ts';
import { readBuildCache } from '../../src/cache/cache-file.ts';
import { modelFromCache, recordBuild, STORE_STAMP } from '../../src/cache/cold-build.ts';
import { decodeModel } from '../../src/cache/model-codec.ts';
import { loadCatalog } from '../../src/catalog/catalog.ts';
import { openContent } from '../../src/resolve/open.ts';
import { createFingerprintCache } from '../../src/tree/fingerprints.ts';
import { tempDir } from '../helpers.ts';

describe('a model read through the build cache', () => {
  it('lets the bytes of the cached model go once decoded', async () => {
    const dir = tempDir();
    const content = join(dir, 'content');
    await writeSyntheticContent(content, { projects: 2, components: 4, languages: 3, seed: 24 });
    const catalog = loadCatalog();
    const opened = await openContent(content, { catalog });
    if (!opened.ok) throw new Error('the content does not open');
    const outDir = join(dir, 'tree');
    const key = { contentDir: '', settings: '{}' };
    const { model, signatures } = opened;
    const takenAt = Date.now();
    await recordBuild({
      outDir,
      key,
      model,
      signatures,
      warnings: [],
      takenAt,
      stamp: STORE_STAMP,
      fingerprints: createFingerprintCache(),
    });
    const cache = await readBuildCache(outDir, key);
    if (!cache) throw new Error('the cache does not read back');
    const [first, again] = [[...cache.model], [...cache.model]];
    expect(first.length).toBeGreaterThan(1);
    // Read from the file each time it is asked for, each part in a buffer of its own.
    first.forEach((part, index) => {
      expect(part).not.toBe(again[index]);
      expect(part.equals(again[index]!)).toBe(true);
      expect(part.buffer.byteLength).toBe(part.length);
    });
    expect(decodeModel(cache.model).model.translations.length).toBe(model.translations.length);

    const component = firstComponent(content);
    writeFileSync(component, bumpFirstCounter(readFileSync(component, 'utf8')));

    const cached = await modelFromCache({ contentDir: content, outDir, key, catalog });
    if (!cached || cached === 'untrusted') throw new Error(`no model from the cache: ${cached}`);
    expect(cached.parsed).toBe(1);
    const reopened = await openContent(content, { catalog });
    if (!reopened.ok) throw new Error('the content does not open');
    const counters = (m: typeof model) => m.translations.map((t) => [t.id, t.counters.translated]);
    expect(counters(cached.model)).toEqual(counters(reopened.model));
  });
});
