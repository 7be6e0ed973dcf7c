import { describe, expect, it } from 'vitest';
import { createTranslationPacker, isPacked } from '../../../src/model/packed-translations.ts';
import { emptyCounters, type Counters } from '../../../src/model/statistics.ts';
import type { Timestamp } from '../../../src/model/timestamps.ts';
import type { Component, Language, Translation } from '../../../src/model/types.ts';

const FIELDS = [
  'id',
  'component',
  'language',
  'languageCode',
  'filename',
  'revision',
  'isSource',
  'isTemplate',
  'lastAuthor',
  'contentFingerprint',
] as const;

function translation(changes: Partial<Translation> = {}, counters: Partial<Counters> = {}) {
  return {
    id: 2 ** 53 - 1,
    component: {} as Component,
    language: {} as Language,
    languageCode: 'cs',
    filename: 'po/cs.po',
    revision: '3f5db9e0278cdcb27d3888ca113f27166505c581',
    isSource: false,
    isTemplate: true,
    counters: {
      ...emptyCounters(),
      total: 12,
      translated: 7,
      recent_changes: -1,
      last_change: '0007-02-03T04:05:06.000089' as Timestamp,
      ...counters,
    },
    lastAuthor: null,
    contentFingerprint: 2 ** 32 + 5,
    ...changes,
  } satisfies Translation;
}

describe('packed translations', () => {
  const pack = createTranslationPacker();

  it('read back every field they were made from', () => {
    for (const plain of [
      translation(),
      translation({ id: 1, isSource: true, isTemplate: false, contentFingerprint: 2 ** 31 }),
      translation({ contentFingerprint: 0 }, { last_change: null }),
    ]) {
      const packed = pack(plain);
      expect(isPacked(packed.counters)).toBe(true);
      for (const field of FIELDS) expect(packed[field], field).toBe(plain[field]);
      for (const [name, value] of Object.entries(plain.counters))
        expect(packed.counters[name as keyof Counters], name).toBe(value);
    }
  });

  it('compare equal to toEqual only when every number is the same', () => {
    const counters = translation().counters;
    expect(pack(translation()).counters).toEqual(counters);
    expect(pack(translation()).counters).toEqual(pack(translation()).counters);
    expect(pack(translation()).counters).not.toEqual(
      pack(translation({}, { translated: 8 })).counters,
    );
    expect(pack(translation()).counters).not.toEqual({ ...counters, total: 13 });
  });

  it('keep a translation whose numbers do not fit a row as it is', () => {
    for (const plain of [
      translation({}, { total_chars: 2 ** 33 }),
      translation({ id: 2 ** 53 }),
      translation({ contentFingerprint: -1 }),
      translation({}, { last_change: '2024-05-02T10:20:05' as Timestamp }),
    ])
      expect(pack(plain)).toBe(plain);
  });
});
