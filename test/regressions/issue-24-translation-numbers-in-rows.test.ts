/**
 * Issue 24: a refresh at a million translations under 1 GiB. A model's translation was an object
 * of eleven fields with a view of its counters (48 bytes), a box for each of its id and content
 * fingerprint (16 bytes each) and its time of change as a text (48 bytes): some 430 bytes of heap
 * a translation. Its numbers now sit in a row of a shared 32-bit array; the translation holds
 * its texts and references, and reads the rest from the row. Resolved from the content and
 * decoded from the build cache alike, every field reads the same as before.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeSyntheticContent } from '../../bench/synthetic.ts';
import { decodeModel, encodeModel } from '../../src/cache/model-codec.ts';
import { COUNTER_NUMBERS } from '../../src/model/statistics.ts';
import type { Model, Translation } from '../../src/model/types.ts';
import { openContent } from '../../src/resolve/open.ts';
import { createFingerprintCache } from '../../src/tree/fingerprints.ts';
import { createContext } from '../../src/tree/groups.ts';
import { tempDir } from '../helpers.ts';

const NUMBERS = ['id', 'contentFingerprint', 'isSource', 'isTemplate', 'counters'] as const;
const COUNTERS = [...COUNTER_NUMBERS, 'last_change'] as const;

describe('a translation keeps its numbers in a row of a shared array', () => {
  const dir = tempDir();
  let resolved: Model;
  let decoded: Model;

  beforeAll(async () => {
    await writeSyntheticContent(join(dir, 'content'), {
      projects: 2,
      components: 3,
      languages: 3,
      seed: 24,
    });
    const opened = await openContent(join(dir, 'content'), { threads: { threads: 0 } });
    if (!opened.ok) throw new Error('the content does not open');
    resolved = opened.model;
    const { fingerprints, aggregates } = createContext(resolved, createFingerprintCache());
    decoded = decodeModel([...encodeModel(resolved, fingerprints, aggregates)!]).model;
  }, 60_000);

  it('holds no field of its own for its numbers, resolved or decoded', () => {
    for (const model of [resolved, decoded])
      for (const translation of model.translations) {
        const own = Object.getOwnPropertyNames(translation);
        expect(own).toContain('revision');
        for (const name of NUMBERS) expect(own).not.toContain(name);
        // Its counters are a view made when asked for, not an object it keeps.
        expect(translation.counters).not.toBe(translation.counters);
      }
  });

  it('reads every field the same after a round trip through the build cache', () => {
    expect(decoded.translations).toHaveLength(resolved.translations.length);
    const withTimes = resolved.translations.filter((t) => t.counters.last_change !== null);
    expect(withTimes.length).toBeGreaterThan(resolved.translations.length / 2);
    decoded.translations.forEach((t, i) => {
      const before = resolved.translations[i]!;
      expect(fieldsOf(t)).toEqual(fieldsOf(before));
      expect(t.id).toBeGreaterThan(2 ** 31);
    });
  });
});

/** A translation's numbers and texts as a plain object. */
function fieldsOf(t: Translation) {
  return {
    ...Object.fromEntries(NUMBERS.map((name) => [name, t[name]])),
    counters: Object.fromEntries(COUNTERS.map((name) => [name, t.counters[name]])),
    revision: t.revision,
    languageCode: t.languageCode,
    filename: t.filename,
    lastAuthor: t.lastAuthor,
  };
}
