/**
 * Issue 25, item 1 (trait statistics33): Weblate 5.0 and 5.1 serve today's objects but 4.x's
 * statistics, 21 counters with `total_chars` 11th; 5.2 brought the 33 counters with it third. A
 * build of the current fixture in each release holds every statistics object (translations,
 * component lists, projects, languages, categories, a project's languages) in its release's layout.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildInMemory, FIXTURES } from '../helpers.ts';

const COUNTERS_21 = [
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
];

const COUNTERS_33 = [
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
];

const TRAILING = new Set(['code', 'name', 'url', 'translate_url']);

/** Every statistics object in a body: the objects with `recent_changes` (translations have none). */
function statisticsIn(value: unknown, into: Record<string, unknown>[]): void {
  if (Array.isArray(value)) for (const item of value) statisticsIn(item, into);
  else if (typeof value === 'object' && value !== null) {
    const object = value as Record<string, unknown>;
    if ('recent_changes' in object) into.push(object);
    else for (const item of Object.values(object)) statisticsIn(item, into);
  }
}

async function statisticsOf(release: string) {
  const built = await buildInMemory(join(FIXTURES, 'current/content'), {
    weblateVersion: release,
  });
  expect(built.report.errors).toEqual([]);
  const found: { path: string; counters: string[] }[] = [];
  for (const [path, text] of built.files) {
    if (!path.startsWith('api/') || !path.endsWith('.json')) continue;
    const objects: Record<string, unknown>[] = [];
    statisticsIn(JSON.parse(text), objects);
    for (const object of objects)
      found.push({ path, counters: Object.keys(object).filter((key) => !TRAILING.has(key)) });
  }
  return found;
}

describe('statistics counters by release', () => {
  it.each([
    ['5.0', COUNTERS_21],
    ['5.1.1', COUNTERS_21],
    ['5.2', COUNTERS_33],
  ])('a %s tree serves its statistics in that release’s layout', async (release, counters) => {
    const found = await statisticsOf(release);
    const paths = new Set(found.map((entry) => entry.path));
    for (const kind of [
      /^api\/translations\/.*\/statistics\/index\.json$/,
      /^api\/components\/.*\/statistics\/index\.json$/,
      /^api\/projects\/[^/]+\/statistics\/index\.json$/,
      /^api\/projects\/[^/]+\/languages\/index\.json$/,
      /^api\/languages\/[^/]+\/statistics\/index\.json$/,
      /^api\/categories\/[^/]+\/statistics\/index\.json$/,
    ])
      expect(
        [...paths].some((path) => kind.test(path)),
        String(kind),
      ).toBe(true);
    for (const entry of found) expect(entry.counters, entry.path).toEqual(counters);
  });
});
