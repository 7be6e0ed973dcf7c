/**
 * Rules within one component file: a file mask with `*`,
 * each counter within its total, timestamps well formed, an author only with
 * a change. Pure: the checked file data in, problems with their field paths out.
 */
import { parseTimestamp } from '../model/timestamps.ts';
import { describeValue } from './describe.ts';
import type { ComponentFile, TranslationEntry } from './schema.ts';

interface CounterProblem {
  path: (string | number)[];
  message: string;
}

/** Every rule of one component file that needs no other file. */
export function checkComponentFile(component: ComponentFile): CounterProblem[] {
  const problems: CounterProblem[] = [];
  if (!component.filemask.includes('*')) {
    problems.push({ path: ['filemask'], message: `expected a file mask with * standing for the language code (got ${describeValue(component.filemask)})` });
  }
  const source = component.source ?? {};
  for (const [code, entry] of Object.entries(component.translations ?? {})) {
    const totals = {
      total: entry?.total ?? source.total ?? 0,
      total_words: entry?.total_words ?? source.total_words ?? 0,
      total_chars: entry?.total_chars ?? source.total_chars ?? 0,
    };
    for (const problem of checkEntry(entry ?? {}, totals)) {
      problems.push({ path: ['translations', code, ...problem.path], message: problem.message });
    }
  }
  return problems;
}

/**
 * What a component file most likely left out by mistake, though the rule
 * (a counter left out is 0) makes it valid: a count of strings given while
 * its words or characters are not, where the source has words or characters.
 * The share shown would be 0.0 beside the share of strings.
 */
export function componentWarnings(component: ComponentFile): CounterProblem[] {
  const warnings: CounterProblem[] = [];
  const source = component.source ?? {};
  for (const [code, entry] of Object.entries(component.translations ?? {})) {
    if (!entry) continue;
    for (const [count, companion, total, unit] of COMPANIONS) {
      const given = entry[count] ?? 0;
      const of = entry[total] ?? source[total] ?? 0;
      if (given > 0 && entry[companion] === undefined && of > 0) {
        warnings.push({
          path: ['translations', code, count],
          message: `expected ${companion} beside ${count} (got ${count} ${given} and no ${companion}: counted as 0 of the ${of} ${unit} in the source)`,
        });
      }
    }
  }
  return warnings;
}

// --- internal ---

/** A count of strings, the count of its words or characters, the total that one is a share of, and its unit. */
const COMPANIONS = [
  ['translated', 'translated_words', 'total_words', 'words'],
  ['translated', 'translated_chars', 'total_chars', 'characters'],
  ['fuzzy', 'fuzzy_words', 'total_words', 'words'],
  ['failing_checks', 'failing_checks_words', 'total_words', 'words'],
] as const satisfies readonly [keyof TranslationEntry, keyof TranslationEntry, 'total_words' | 'total_chars', string][];

interface Totals {
  total: number;
  total_words: number;
  total_chars: number;
}

type Limit = [field: keyof TranslationEntry, limitName: string, limit: (e: Required<Counts>, t: Totals) => number];

type Counts = Pick<TranslationEntry,
  'translated' | 'translated_words' | 'translated_chars' | 'fuzzy' | 'fuzzy_words' | 'failing_checks' |
  'failing_checks_words' | 'approved' | 'readonly' | 'have_suggestion' | 'have_comment' | 'fuzzy_chars' |
  'approved_words' | 'approved_chars' | 'readonly_words' | 'readonly_chars'>;

/** Each counter and the bound it must stay within. */
const LIMITS: Limit[] = [
  ['translated', 'total', (_, t) => t.total],
  ['fuzzy', 'total', (_, t) => t.total],
  ['failing_checks', 'total', (_, t) => t.total],
  ['have_suggestion', 'total', (_, t) => t.total],
  ['have_comment', 'total', (_, t) => t.total],
  ['approved', 'translated', (e) => e.translated],
  ['readonly', 'translated', (e) => e.translated],
  ['translated_words', 'total_words', (_, t) => t.total_words],
  ['fuzzy_words', 'total_words', (_, t) => t.total_words],
  ['failing_checks_words', 'total_words', (_, t) => t.total_words],
  ['translated_chars', 'total_chars', (_, t) => t.total_chars],
  ['fuzzy_chars', 'total_chars', (_, t) => t.total_chars],
  ['approved_words', 'translated_words', (e) => e.translated_words],
  ['approved_chars', 'translated_chars', (e) => e.translated_chars],
  ['readonly_words', 'translated_words', (e) => e.translated_words],
  ['readonly_chars', 'translated_chars', (e) => e.translated_chars],
];

/** Translated and fuzzy strings never overlap: their sum stays within the total, in strings, words and characters. */
const SUMS = [
  ['translated', 'fuzzy', 'total'],
  ['translated_words', 'fuzzy_words', 'total_words'],
  ['translated_chars', 'fuzzy_chars', 'total_chars'],
] as const satisfies readonly [keyof Counts, keyof Counts, keyof Totals][];

function checkEntry(entry: TranslationEntry, totals: Totals): CounterProblem[] {
  const problems: CounterProblem[] = [];
  const counts: Required<Counts> = {
    translated: entry.translated ?? 0, translated_words: entry.translated_words ?? 0,
    translated_chars: entry.translated_chars ?? 0, fuzzy: entry.fuzzy ?? 0, fuzzy_words: entry.fuzzy_words ?? 0,
    failing_checks: entry.failing_checks ?? 0, failing_checks_words: entry.failing_checks_words ?? 0,
    approved: entry.approved ?? 0, readonly: entry.readonly ?? 0,
    have_suggestion: entry.have_suggestion ?? 0, have_comment: entry.have_comment ?? 0,
    fuzzy_chars: entry.fuzzy_chars ?? 0, approved_words: entry.approved_words ?? 0, approved_chars: entry.approved_chars ?? 0,
    readonly_words: entry.readonly_words ?? 0, readonly_chars: entry.readonly_chars ?? 0,
  };
  for (const [field, limitName, limitOf] of LIMITS) {
    const value = counts[field as keyof Counts];
    const limit = limitOf(counts, totals);
    if (value > limit) {
      problems.push({ path: [field], message: `expected ${field} <= ${limitName} (${limit}) (got ${value})` });
    }
  }
  // The sums are reported only when each part alone fits, so one mistake gives one error.
  for (const [translated, fuzzy, total] of SUMS) {
    const [a, b, limit] = [counts[translated], counts[fuzzy], totals[total]];
    if (a <= limit && b <= limit && a + b > limit) {
      problems.push({ path: [fuzzy], message: `expected ${translated} + ${fuzzy} <= ${total} (${limit}) (got ${a} + ${b})` });
    }
  }
  problems.push(...checkChange(entry));
  return problems;
}

function checkChange(entry: TranslationEntry): CounterProblem[] {
  const problems: CounterProblem[] = [];
  const hasChange = entry.last_change !== undefined && entry.last_change !== null;
  if (hasChange) {
    const parsed = parseTimestamp(entry.last_change!);
    if (!parsed.ok) problems.push({ path: ['last_change'], message: `expected ${parsed.reason} (got ${describeValue(entry.last_change)})` });
  }
  if (!hasChange && entry.last_author !== undefined && entry.last_author !== null) {
    problems.push({
      path: ['last_author'],
      message: `expected last_change to be set when last_author is (got last_author ${describeValue(entry.last_author)} and no last_change)`,
    });
  }
  if (!hasChange && (entry.recent_changes ?? 0) > 0) {
    problems.push({
      path: ['recent_changes'],
      message: `expected 0 when there is no last_change (got ${entry.recent_changes})`,
    });
  }
  return problems;
}
