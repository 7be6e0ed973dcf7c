/**
 * Statistics arithmetic of Weblate (weblate/utils/stats.py): the counters a
 * translation carries, the percentage rule, and counters summed over
 * children. Pure: counters in, numbers out. Which counters an API object
 * shows, and in which order, is api/shapes.ts's.
 */
import type { SourcedField } from '../output/serialize.ts';
import { STRING_OR_NULL } from '../output/value-types.ts';
import type { WeblateVersion } from './defaults.ts';
import type { Timestamp } from './timestamps.ts';
import { formatTimestamp, laterTimestamp } from './timestamps.ts';

/** The counters one translation carries; aggregates carry the same, summed. */
export interface Counters {
  total: number;
  total_words: number;
  total_chars: number;
  translated: number;
  translated_words: number;
  translated_chars: number;
  fuzzy: number;
  fuzzy_words: number;
  /** Characters of the fuzzy strings (shown by the 2026.8 flavour only, as are the next four). */
  fuzzy_chars: number;
  failing_checks: number;
  failing_checks_words: number;
  approved: number;
  approved_words: number;
  approved_chars: number;
  readonly: number;
  readonly_words: number;
  readonly_chars: number;
  have_suggestion: number;
  have_comment: number;
  recent_changes: number;
  last_change: Timestamp | null;
}

/**
 * The numeric counters, in a fixed order: the order of a row of packed counters
 * (model/packed-translations.ts) and of the build cache's numbers (cache/model-codec.ts;
 * a change of order is a change of the cache's format).
 */
export const COUNTER_NUMBERS = [
  'total',
  'total_words',
  'total_chars',
  'translated',
  'translated_words',
  'translated_chars',
  'fuzzy',
  'fuzzy_words',
  'fuzzy_chars',
  'failing_checks',
  'failing_checks_words',
  'approved',
  'approved_words',
  'approved_chars',
  'readonly',
  'readonly_words',
  'readonly_chars',
  'have_suggestion',
  'have_comment',
  'recent_changes',
] as const satisfies readonly Exclude<keyof Counters, 'last_change'>[];

/**
 * Weblate's translation_percent(): truncated (not rounded) to one decimal, a
 * non-empty share never shown as 0.0, an incomplete one never as 100.0, and an
 * empty total counting as complete only where `zeroComplete` says so.
 */
export function percent(count: number, total: number, zeroComplete: boolean): number {
  if (total === 0) return zeroComplete ? 100 : 0;
  const result = Math.floor((1000 * count) / total) / 10;
  if (result === 0 && count !== 0) return 0.1;
  if (result === 100 && count < total) return 99.9;
  return result;
}

export function emptyCounters(): Counters {
  return {
    total: 0,
    total_words: 0,
    total_chars: 0,
    translated: 0,
    translated_words: 0,
    translated_chars: 0,
    fuzzy: 0,
    fuzzy_words: 0,
    fuzzy_chars: 0,
    failing_checks: 0,
    failing_checks_words: 0,
    approved: 0,
    approved_words: 0,
    approved_chars: 0,
    readonly: 0,
    readonly_words: 0,
    readonly_chars: 0,
    have_suggestion: 0,
    have_comment: 0,
    recent_changes: 0,
    last_change: null,
  };
}

/** Adds `part` into `sum` counter by counter; the last change is the later of the two. */
export function addCounters(sum: Counters, part: Counters): void {
  // Field by field rather than by name in a loop: this runs for every translation several times.
  sum.total += part.total;
  sum.total_words += part.total_words;
  sum.total_chars += part.total_chars;
  sum.translated += part.translated;
  sum.translated_words += part.translated_words;
  sum.translated_chars += part.translated_chars;
  sum.fuzzy += part.fuzzy;
  sum.fuzzy_words += part.fuzzy_words;
  sum.fuzzy_chars += part.fuzzy_chars;
  sum.failing_checks += part.failing_checks;
  sum.failing_checks_words += part.failing_checks_words;
  sum.approved += part.approved;
  sum.approved_words += part.approved_words;
  sum.approved_chars += part.approved_chars;
  sum.readonly += part.readonly;
  sum.readonly_words += part.readonly_words;
  sum.readonly_chars += part.readonly_chars;
  sum.have_suggestion += part.have_suggestion;
  sum.have_comment += part.have_comment;
  sum.recent_changes += part.recent_changes;
  sum.last_change = laterTimestamp(sum.last_change, part.last_change);
}

/** What a statistics object is computed from: the counters, and whether reviews count as completion. */
export interface StatisticsSource {
  counters: Counters;
  /** `has_review`: approved strings are the completed ones (an empty total counts as approved, not translated). */
  review: boolean;
}

/**
 * Every counter field of Weblate's statistics objects, with the kind of its
 * value and how it is computed (utils/stats.py calculate_percent: words and
 * characters are shares of all words and characters; only the "completed"
 * share counts an empty total as 100.0).
 */
export const STATISTICS_COUNTERS = {
  total: ['int', (s) => s.counters.total],
  total_words: ['int', (s) => s.counters.total_words],
  total_chars: ['int', (s) => s.counters.total_chars],
  last_change: [
    'text',
    (s) => (s.counters.last_change === null ? null : formatTimestamp(s.counters.last_change)),
    STRING_OR_NULL,
  ],
  recent_changes: ['int', (s) => s.counters.recent_changes],
  translated: ['int', (s) => s.counters.translated],
  translated_words: ['int', (s) => s.counters.translated_words],
  translated_chars: ['int', (s) => s.counters.translated_chars],
  translated_percent: ['float', (s) => percent(s.counters.translated, s.counters.total, !s.review)],
  translated_words_percent: [
    'float',
    (s) => percent(s.counters.translated_words, s.counters.total_words, !s.review),
  ],
  translated_chars_percent: [
    'float',
    (s) => percent(s.counters.translated_chars, s.counters.total_chars, !s.review),
  ],
  fuzzy: ['int', (s) => s.counters.fuzzy],
  fuzzy_percent: ['float', (s) => percent(s.counters.fuzzy, s.counters.total, false)],
  fuzzy_words: ['int', (s) => s.counters.fuzzy_words],
  fuzzy_words_percent: [
    'float',
    (s) => percent(s.counters.fuzzy_words, s.counters.total_words, false),
  ],
  fuzzy_chars: ['int', (s) => s.counters.fuzzy_chars],
  fuzzy_chars_percent: [
    'float',
    (s) => percent(s.counters.fuzzy_chars, s.counters.total_chars, false),
  ],
  failing: ['int', (s) => s.counters.failing_checks],
  failing_percent: ['float', (s) => percent(s.counters.failing_checks, s.counters.total, false)],
  approved: ['int', (s) => s.counters.approved],
  approved_percent: ['float', (s) => percent(s.counters.approved, s.counters.total, s.review)],
  approved_words: ['int', (s) => s.counters.approved_words],
  approved_words_percent: [
    'float',
    (s) => percent(s.counters.approved_words, s.counters.total_words, s.review),
  ],
  approved_chars: ['int', (s) => s.counters.approved_chars],
  approved_chars_percent: [
    'float',
    (s) => percent(s.counters.approved_chars, s.counters.total_chars, s.review),
  ],
  readonly: ['int', (s) => s.counters.readonly],
  readonly_percent: ['float', (s) => percent(s.counters.readonly, s.counters.total, false)],
  readonly_words: ['int', (s) => s.counters.readonly_words],
  readonly_words_percent: [
    'float',
    (s) => percent(s.counters.readonly_words, s.counters.total_words, false),
  ],
  readonly_chars: ['int', (s) => s.counters.readonly_chars],
  readonly_chars_percent: [
    'float',
    (s) => percent(s.counters.readonly_chars, s.counters.total_chars, false),
  ],
  suggestions: ['int', (s) => s.counters.have_suggestion],
  comments: ['int', (s) => s.counters.have_comment],
} as const satisfies Record<string, SourcedField<StatisticsSource>>;

type StatisticsKey = keyof typeof STATISTICS_COUNTERS;

/**
 * The counter fields of a statistics object, in each flavour's order: the 21
 * of Weblate 4.x, and the 33 of Weblate 5.2 and later
 * (StatisticsSerializer.to_representation in weblate/api/serializers.py).
 */
export const STATISTICS_ORDER: Record<WeblateVersion, readonly StatisticsKey[]> = {
  '4': [
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
  ],
  '2026.8': [
    'total',
    'total_words',
    'total_chars',
    'last_change',
    'recent_changes',
    'translated',
    'translated_words',
    'translated_percent',
    'translated_words_percent',
    'translated_chars',
    'translated_chars_percent',
    'fuzzy',
    'fuzzy_percent',
    'fuzzy_words',
    'fuzzy_words_percent',
    'fuzzy_chars',
    'fuzzy_chars_percent',
    'failing',
    'failing_percent',
    'approved',
    'approved_percent',
    'approved_words',
    'approved_words_percent',
    'approved_chars',
    'approved_chars_percent',
    'readonly',
    'readonly_percent',
    'readonly_words',
    'readonly_words_percent',
    'readonly_chars',
    'readonly_chars_percent',
    'suggestions',
    'comments',
  ],
};

/** The 21 common fields of Weblate 4.x's statistics object, in its order, with the kind of each value. */
export const STATISTICS_FIELDS = STATISTICS_ORDER['4'].map(
  (key) => [key, STATISTICS_COUNTERS[key][0]] as const,
);

/** The values of the 21 common statistics fields of Weblate 4.x. */
export function statisticsValues(counters: Counters, review: boolean): unknown[] {
  return STATISTICS_ORDER['4'].map((key) => STATISTICS_COUNTERS[key][1]({ counters, review }));
}
