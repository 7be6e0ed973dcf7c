/**
 * Issue 24: a publish at a million translations writes the build cache at its end, while the
 * model is live. The cache's model went as one list of parts, every chunk of translations
 * encoded before the first was written (some 500 MB at a million). Now each chunk is encoded
 * only when the writer asks for it, and the parts read back as the same model.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeModel, encodeModel } from '../../src/cache/model-codec.ts';
import { loadCatalog } from '../../src/catalog/catalog.ts';
import type { Translation } from '../../src/model/types.ts';
import { openContent } from '../../src/resolve/open.ts';
import { createFingerprintCache } from '../../src/tree/fingerprints.ts';
import { createContext } from '../../src/tree/groups.ts';
import { FIXTURES } from '../helpers.ts';

async function encodingOfFixture() {
  const opened = await openContent(join(FIXTURES, 'features', 'content'), {
    catalog: loadCatalog(),
  });
  if (!opened.ok) throw new Error('the fixture does not open');
  const { fingerprints, aggregates } = createContext(opened.model, createFingerprintCache());
  // The versions asked of each translation say which chunks were encoded.
  const asked: Translation[] = [];
  const counting = {
    component: fingerprints.component,
    translation: (t: Translation) => (asked.push(t), fingerprints.translation(t)),
  };
  return { model: opened.model, parts: encodeModel(opened.model, counting, aggregates)!, asked };
}

describe("the build cache's model, written part by part", () => {
  it('encodes no translation before the head is taken, and each chunk when asked for', async () => {
    const { model, parts, asked } = await encodingOfFixture();
    const reading = parts[Symbol.iterator]();
    const head = reading.next();
    expect(head.done).toBe(false);
    // The fixture's components fit in one chunk, and so do its translations.
    const components = reading.next();
    expect(components.done).toBe(false);
    expect(asked).toEqual([]);
    const chunk = reading.next();
    expect(chunk.done).toBe(false);
    expect(asked).toEqual(model.translations);
    expect(reading.next().done).toBe(true);
    expect(decodeModel([head.value, components.value, chunk.value]).model).toEqual(model);
  });

  it('is still refused whole for a text the format cannot carry', async () => {
    const { model } = await encodingOfFixture();
    Object.assign(model.translations.at(-1)!, { revision: 'a\u0000b' });
    const { fingerprints, aggregates } = createContext(model, createFingerprintCache());
    expect(encodeModel(model, fingerprints, aggregates)).toBeNull();
  });
});
