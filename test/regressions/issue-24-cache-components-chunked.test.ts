/**
 * Issue 24: the first publish of a million translations peaked over 1 GiB while it wrote the
 * build cache at its end, with the model live. The cache's head held every component as one
 * JSON text (some 90 MB at a million), made at once with the arrays it was made of, then copied
 * into the head's bytes. The components now follow the head in chunks of their own, each
 * encoded only when the writer reaches it, and the parts read back as the same model.
 */
import { join } from 'node:path';
import { deserialize } from 'node:v8';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeSyntheticContent } from '../../bench/synthetic.ts';
import { decodeModel, encodeModel } from '../../src/cache/model-codec.ts';
import { openContent } from '../../src/resolve/open.ts';
import { createFingerprintCache } from '../../src/tree/fingerprints.ts';
import { createContext } from '../../src/tree/groups.ts';
import { tempDir } from '../helpers.ts';

afterEach(() => vi.restoreAllMocks());

describe("the build cache's components", () => {
  it('follow the head in chunks, each encoded when reached, and read back the same', async () => {
    const content = join(tempDir(), 'content');
    await writeSyntheticContent(content, { projects: 3, components: 1500, languages: 1, seed: 24 });
    const opened = await openContent(content, { threads: { threads: 0 } });
    if (!opened.ok) throw new Error('the content does not open');
    const { model } = opened;
    expect(model.components).toHaveLength(4500);
    const { fingerprints, aggregates } = createContext(model, createFingerprintCache());

    const stringify = vi.spyOn(JSON, 'stringify');
    // Lists of encoded components (a component's inheritable settings are keyed by JSON too).
    const componentLists = () =>
      stringify.mock.calls.filter(([value]) => Array.isArray(value) && Array.isArray(value[0]));
    const reading = encodeModel(model, fingerprints, aggregates)![Symbol.iterator]();
    const head = reading.next().value!;
    // The head carries a few numbers per component, none of its texts.
    expect(head.length).toBeLessThan(32 * model.components.length);
    expect(componentLists()).toHaveLength(0);
    const components = [reading.next().value!, reading.next().value!];
    expect(componentLists()).toHaveLength(2);
    expect(JSON.parse(components[0]!.toString())).toHaveLength(4096);
    const translations = [...{ [Symbol.iterator]: () => reading }];
    expect(translations).toHaveLength(1);

    vi.restoreAllMocks();
    // Read back, the model encodes the same (a deep comparison of thousands of components, each
    // linked to its project's list of them, takes minutes).
    const decoded = decodeModel([head, ...components, ...translations]);
    const again = createContext(decoded.model, decoded.fingerprints);
    const parts = [...encodeModel(decoded.model, again.fingerprints, again.aggregates)!];
    // The head's arrays may come back as another kind of array: the same values, other bytes.
    expect(deserialize(parts[0]!)).toEqual(deserialize(head));
    // As texts: a deep comparison of megabytes compares byte by byte.
    const text = (bytes: Buffer) => bytes.toString('base64');
    expect(parts.slice(1).map(text)).toEqual([...components, ...translations].map(text));
    expect(decoded.model.components.map((c) => c.slug)).toEqual(
      model.components.map((c) => c.slug),
    );
  });
});
