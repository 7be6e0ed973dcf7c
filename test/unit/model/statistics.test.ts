import { describe, expect, it } from 'vitest';
import {
  emptyCounters,
  percent,
  STATISTICS_FIELDS,
  statisticsValues,
  type Counters,
} from '../../../src/model/statistics.ts';
import { defineShape, serialize, ShapedObject } from '../../../src/output/serialize.ts';

const statistics = (c: Counters, hasReview: boolean) =>
  serialize(new ShapedObject(defineShape(STATISTICS_FIELDS), statisticsValues(c, hasReview)));

describe('percent (Weblate translation_percent)', () => {
  it.each([
    // Worked examples, each confirmed by a captured Weblate 4.x response.
    [4, 28, 14.2],
    [308, 326, 94.4],
    [51, 57, 89.4],
    [999, 1000, 99.9],
    [1, 3000, 0.1],
    [0, 4, 0],
    [4, 4, 100],
    // Truncation, not rounding.
    [2, 3, 66.6],
    [1, 7, 14.2],
    // Any share of 0.1% or less is shown as 0.1, never 0.0.
    [1, 1_000_000, 0.1],
    // Just below complete stays below 100.
    [99_999, 100_000, 99.9],
  ])('%i of %i is %d', (count, total, expected) => {
    expect(percent(count, total, true)).toBe(expected);
    expect(percent(count, total, false)).toBe(expected);
  });

  it('counts an empty total as complete only where told to', () => {
    expect(percent(0, 0, true)).toBe(100);
    expect(percent(0, 0, false)).toBe(0);
  });

  it('stays exact for aggregate totals far beyond one instance', () => {
    expect(percent(333_333_333_333, 1_000_000_000_000, false)).toBe(33.3);
  });
});

describe('statistics object', () => {
  it('has the 21 fields of Weblate 4.x in their order', () => {
    expect(Object.keys(JSON.parse(statistics(emptyCounters(), false)))).toEqual([
      'total',
      'total_words',
      'last_change',
      'recent_changes',
      'translated',
      'translated_words',
      'translated_percent',
      'translated_words_percent',
      'translated_chars',
      'translated_chars_percent',
      'total_chars',
      'fuzzy',
      'fuzzy_percent',
      'failing',
      'failing_percent',
      'approved',
      'approved_percent',
      'readonly',
      'readonly_percent',
      'suggestions',
      'comments',
    ]);
  });

  it('shows an empty object as translated without review and as approved with review', () => {
    const withoutReview = statistics(emptyCounters(), false);
    expect(withoutReview).toContain('"translated_percent":100.0,"translated_words_percent":100.0');
    expect(withoutReview).toContain('"translated_chars_percent":100.0');
    expect(withoutReview).toContain('"approved_percent":0.0');
    const withReview = statistics(emptyCounters(), true);
    expect(withReview).toContain('"translated_percent":0.0,"translated_words_percent":0.0');
    expect(withReview).toContain('"approved_percent":100.0');
    expect(withReview).toContain('"fuzzy_percent":0.0');
    expect(withReview).toContain('"readonly_percent":0.0');
  });
});
