/**
 * Statistics arithmetic of Weblate 4.x (spec section 3): the percentage rule,
 * counters summed over children, and the statistics objects built from them.
 * Pure: counters in, numbers out.
 */
import type { FieldKind } from '../output/serialize.ts';
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
  failing_checks: number;
  failing_checks_words: number;
  approved: number;
  readonly: number;
  have_suggestion: number;
  have_comment: number;
  recent_changes: number;
  last_change: Timestamp | null;
}

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
    failing_checks: 0,
    failing_checks_words: 0,
    approved: 0,
    readonly: 0,
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
  sum.failing_checks += part.failing_checks;
  sum.failing_checks_words += part.failing_checks_words;
  sum.approved += part.approved;
  sum.readonly += part.readonly;
  sum.have_suggestion += part.have_suggestion;
  sum.have_comment += part.have_comment;
  sum.recent_changes += part.recent_changes;
  sum.last_change = laterTimestamp(sum.last_change, part.last_change);
}

/** The 21 common fields of Weblate 4.x's statistics object, in its order, with the kind of each value. */
export const STATISTICS_FIELDS = [
  ['total', 'int'],
  ['total_words', 'int'],
  ['last_change', 'text'],
  ['recent_changes', 'int'],
  ['translated', 'int'],
  ['translated_words', 'int'],
  ['translated_percent', 'float'],
  ['translated_words_percent', 'float'],
  ['translated_chars', 'int'],
  ['translated_chars_percent', 'float'],
  ['total_chars', 'int'],
  ['fuzzy', 'int'],
  ['fuzzy_percent', 'float'],
  ['failing', 'int'],
  ['failing_percent', 'float'],
  ['approved', 'int'],
  ['approved_percent', 'float'],
  ['readonly', 'int'],
  ['readonly_percent', 'float'],
  ['suggestions', 'int'],
  ['comments', 'int'],
] as const satisfies readonly (readonly [string, FieldKind])[];

/**
 * The values of the 21 common statistics fields. The "completed" percentages
 * (approved with review, translated without) count an empty total as 100.0;
 * every other one as 0.0.
 */
export function statisticsValues(c: Counters, hasReview: boolean): unknown[] {
  return [
    c.total,
    c.total_words,
    c.last_change === null ? null : formatTimestamp(c.last_change),
    c.recent_changes,
    c.translated,
    c.translated_words,
    percent(c.translated, c.total, !hasReview),
    percent(c.translated_words, c.total_words, !hasReview),
    c.translated_chars,
    percent(c.translated_chars, c.total_chars, !hasReview),
    c.total_chars,
    c.fuzzy,
    percent(c.fuzzy, c.total, false),
    c.failing_checks,
    percent(c.failing_checks, c.total, false),
    c.approved,
    percent(c.approved, c.total, hasReview),
    c.readonly,
    percent(c.readonly, c.total, false),
    c.have_suggestion,
    c.have_comment,
  ];
}
