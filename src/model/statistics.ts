/**
 * Statistics arithmetic of Weblate 4.x (spec section 3): the percentage rule,
 * counters summed over children, and the statistics objects built from them.
 * Pure: counters in, numbers out.
 */
import { JsonFloat } from '../output/serialize.ts';
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

export const COUNTER_NAMES = [
  'total', 'total_words', 'total_chars',
  'translated', 'translated_words', 'translated_chars',
  'fuzzy', 'fuzzy_words', 'failing_checks', 'failing_checks_words',
  'approved', 'readonly', 'have_suggestion', 'have_comment', 'recent_changes',
] as const satisfies readonly (keyof Counters)[];

export type CounterName = (typeof COUNTER_NAMES)[number];

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
    total: 0, total_words: 0, total_chars: 0,
    translated: 0, translated_words: 0, translated_chars: 0,
    fuzzy: 0, fuzzy_words: 0, failing_checks: 0, failing_checks_words: 0,
    approved: 0, readonly: 0, have_suggestion: 0, have_comment: 0, recent_changes: 0,
    last_change: null,
  };
}

/** Adds `part` into `sum` counter by counter; the last change is the later of the two. */
export function addCounters(sum: Counters, part: Counters): void {
  for (const name of COUNTER_NAMES) sum[name] += part[name];
  sum.last_change = laterTimestamp(sum.last_change, part.last_change);
}

/**
 * The 21 common fields of Weblate 4.x's statistics object, in its order. The
 * "completed" percentages (approved with review, translated without) count an
 * empty total as 100.0; every other one as 0.0.
 */
export function statisticsFields(c: Counters, hasReview: boolean) {
  return {
    total: c.total,
    total_words: c.total_words,
    last_change: c.last_change === null ? null : formatTimestamp(c.last_change),
    recent_changes: c.recent_changes,
    translated: c.translated,
    translated_words: c.translated_words,
    translated_percent: new JsonFloat(percent(c.translated, c.total, !hasReview)),
    translated_words_percent: new JsonFloat(percent(c.translated_words, c.total_words, !hasReview)),
    translated_chars: c.translated_chars,
    translated_chars_percent: new JsonFloat(percent(c.translated_chars, c.total_chars, !hasReview)),
    total_chars: c.total_chars,
    fuzzy: c.fuzzy,
    fuzzy_percent: new JsonFloat(percent(c.fuzzy, c.total, false)),
    failing: c.failing_checks,
    failing_percent: new JsonFloat(percent(c.failing_checks, c.total, false)),
    approved: c.approved,
    approved_percent: new JsonFloat(percent(c.approved, c.total, hasReview)),
    readonly: c.readonly,
    readonly_percent: new JsonFloat(percent(c.readonly, c.total, false)),
    suggestions: c.have_suggestion,
    comments: c.have_comment,
  };
}
