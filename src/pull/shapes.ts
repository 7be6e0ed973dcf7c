/**
 * The parts of Weblate 4.x API bodies a pull reads, as zod schemas. Objects
 * are loose (other fields are allowed and ignored); what is read is checked,
 * so a server that is not Weblate gets a clear message instead of a crash,
 * and slugs and codes are checked before they become file names.
 */
import { z } from 'zod';
import { CODE_MAX_LENGTH, CODE_PATTERN, SLUG_MAX_LENGTH, SLUG_PATTERN } from '../content/schema.ts';
import { PullError } from './errors.ts';
import { COMPONENT_FIELD_DEFAULTS } from '../model/defaults.ts';

const count = z.number().int().min(0);
const id = z.number().int().positive();
const text = z.string();
// Slugs and codes become file names: held to what the content accepts (and a file system takes) before anything is written.
const slug = z
  .string()
  .regex(SLUG_PATTERN, { error: 'expected a slug of letters, digits, "-" and "_"' })
  .max(SLUG_MAX_LENGTH, { error: `expected a slug of at most ${SLUG_MAX_LENGTH} characters` });
const code = z
  .string()
  .regex(CODE_PATTERN, { error: 'expected a language code of letters, digits, "_", "-" and "@"' })
  .max(CODE_MAX_LENGTH, { error: `expected a language code of at most ${CODE_MAX_LENGTH} characters` });

export const rootShape = z.looseObject({
  projects: text,
  languages: text.optional(),
  changes: text.optional(),
});

export const pageShape = z.looseObject({
  count,
  next: text.nullable(),
  previous: text.nullable().optional(),
  results: z.array(z.unknown()),
});

export const languageShape = z.looseObject({
  code,
  name: text,
  plural: z.looseObject({ id, source: count, number: count, formula: text, type: count }),
  aliases: z.array(text).optional(),
  direction: text.optional(),
  /** Absent before Weblate 4.13. */
  population: count.optional(),
  web_url: text.optional(),
});
export type ApiLanguage = z.output<typeof languageShape>;

export const projectShape = z.looseObject({
  name: text,
  slug,
  id: id.optional(),
  web: text.optional(),
  web_url: text,
  components_list_url: text,
  /** Read by an incremental pull (pull/refresh.ts): a project's sums move when anything counted in it does. */
  statistics_url: text.optional(),
  translation_review: z.boolean().optional(),
  source_review: z.boolean().optional(),
  set_language_team: z.boolean().optional(),
  instructions: text.optional(),
  enable_hooks: z.boolean().optional(),
  language_aliases: text.optional(),
});
export type ApiProject = z.output<typeof projectShape>;

export const componentShape = z.looseObject({
  name: text,
  slug,
  id: id.optional(),
  source_language: languageShape,
  web_url: text,
  translations_url: text,
  statistics_url: text,
  lock_url: text,
  links_url: text,
  license_url: text.nullable().optional(),
  addons: z.array(z.unknown()).optional(),
  ...settingShapes(),
});
export type ApiComponent = z.output<typeof componentShape>;

export const translationShape = z.looseObject({
  language: languageShape,
  language_code: text,
  id: id.optional(),
  filename: text.nullable(),
  revision: text.nullable().optional(),
  is_source: z.boolean(),
  total: count,
  total_words: count,
  translated: count,
  translated_words: count,
  fuzzy: count,
  fuzzy_words: count,
  failing_checks: count,
  failing_checks_words: count,
  have_suggestion: count,
  have_comment: count,
  last_change: text.nullable(),
  last_author: text.nullable(),
  statistics_url: text,
});
export type ApiTranslation = z.output<typeof translationShape>;

/** A translation's statistics: the counters its Translation object does not carry. */
export const statisticsShape = z.looseObject({
  code,
  total_chars: count,
  translated_chars: count,
  approved: count,
  readonly: count,
  recent_changes: count,
});
export type ApiStatistics = z.output<typeof statisticsShape>;

export const lockShape = z.looseObject({ locked: z.boolean() });

/** An entry of the changes feed: what it names (links, or null for what has none). */
export const changeShape = z.looseObject({
  component: text.nullable().optional(),
  translation: text.nullable().optional(),
});

/** Checks a body against a shape; a mismatch stops the pull with the URL, the field and what was wrong. */
export function parseShape<T extends z.ZodType>(shape: T, value: unknown, what: string, url: string): z.output<T> {
  const result = shape.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  throw new PullError(`${url} does not look like Weblate 4.x: ${what}, ${field}${issue.message}.`);
}

// --- internal ---

/**
 * A schema for every component setting, typed like its default. Text settings
 * may be null: Weblate hides `vcs`, `repo`, `branch`, `filemask` and `push`
 * from callers who may not see the repository.
 */
function settingShapes() {
  const shapes: Record<string, z.ZodType> = {};
  for (const [key, value] of Object.entries(COMPONENT_FIELD_DEFAULTS)) {
    shapes[key] =
      typeof value === 'boolean'
        ? z.boolean().optional()
        : typeof value === 'number'
          ? z.number().int().optional()
          : Array.isArray(value)
            ? z.array(text).optional()
            : text.nullable().optional();
  }
  return shapes as Record<keyof typeof COMPONENT_FIELD_DEFAULTS, z.ZodType<unknown>>;
}
