/**
 * The parts of Weblate API bodies a pull reads, as zod schemas: 4.x's, and
 * the fields today's Weblate (the 2026.8 flavour) adds, all optional. Objects
 * are loose (other fields are allowed and ignored); what is read is checked,
 * so a server that is not Weblate gets a clear message instead of a crash,
 * and slugs and codes are checked before they become file names.
 */
import { z } from 'zod';
import {
  CODE_MAX_LENGTH,
  CODE_PATTERN,
  COUNTER_MAX,
  SLUG_MAX_LENGTH,
  SLUG_PATTERN,
} from '../content/schema.ts';
import { FORMULA_MAX_LENGTH } from '../catalog/plural.ts';
import { PullError } from './errors.ts';
import {
  COMPONENT_FIELD_DEFAULTS,
  COMPONENT_FIELD_DEFAULTS_2026,
  PROJECT_FIELD_DEFAULTS_2026,
  INHERITABLE_SETTINGS,
  type InheritableSetting,
} from '../model/defaults.ts';

const count = z.number().int().min(0);
const id = z.number().int().positive();
// Counters and plural formulas are held to what the content accepts, so a pulled folder always builds.
const counter = count.max(COUNTER_MAX, {
  error: `expected a counter of at most ${COUNTER_MAX}`,
});
const formula = z.string().max(FORMULA_MAX_LENGTH, {
  error: `expected a plural formula of at most ${FORMULA_MAX_LENGTH} characters`,
});
const text = z.string();
// Slugs and codes become file names: held to what the content accepts (and a file system takes) before anything is written.
const slug = z
  .string()
  .regex(SLUG_PATTERN, { error: 'expected a slug of letters, digits, "-" and "_"' })
  .max(SLUG_MAX_LENGTH, { error: `expected a slug of at most ${SLUG_MAX_LENGTH} characters` });
const code = z
  .string()
  .regex(CODE_PATTERN, { error: 'expected a language code of letters, digits, "_", "-" and "@"' })
  .max(CODE_MAX_LENGTH, {
    error: `expected a language code of at most ${CODE_MAX_LENGTH} characters`,
  });

export const rootShape = z.looseObject({
  projects: text,
  languages: text.optional(),
  changes: text.optional(),
  categories: text.optional(),
});

export const pageShape = z.looseObject({
  count,
  next: text.nullable(),
  previous: text.nullable().optional(),
  results: z.array(z.unknown()),
});

export const languageShape = z.looseObject({
  /** 5.0.1 and later. */
  id: id.optional(),
  code,
  name: text,
  plural: z.looseObject({ id, source: count, number: count, formula, type: count }),
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
  // Today's Weblate (5.0 and later, 2026.8's settings).
  categories_url: text.optional(),
  ...typedLike(PROJECT_FIELD_DEFAULTS_2026),
  ...inheritableShapes(),
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
  ...typedLike(COMPONENT_FIELD_DEFAULTS),
  // Today's Weblate: its settings (vcs_params and screenshot_filemask hidden as null like the repository), its place, its lock.
  ...typedLike(COMPONENT_FIELD_DEFAULTS_2026),
  ...inheritableShapes(),
  category: text.nullable().optional(),
  linked_component: text.nullable().optional(),
  locked: z.boolean().optional(),
});
export type ApiComponent = z.output<typeof componentShape>;

export const translationShape = z.looseObject({
  language: languageShape,
  language_code: text,
  id: id.optional(),
  filename: text.nullable(),
  revision: text.nullable().optional(),
  is_source: z.boolean(),
  total: counter,
  total_words: counter,
  translated: counter,
  translated_words: counter,
  fuzzy: counter,
  fuzzy_words: counter,
  failing_checks: counter,
  failing_checks_words: counter,
  have_suggestion: counter,
  have_comment: counter,
  last_change: text.nullable(),
  last_author: text.nullable(),
  statistics_url: text,
});
export type ApiTranslation = z.output<typeof translationShape>;

/** A translation's statistics: the counters its Translation object does not carry. */
export const statisticsShape = z.looseObject({
  code,
  total_chars: counter,
  translated_chars: counter,
  approved: counter,
  readonly: counter,
  recent_changes: counter,
  // Weblate 5.2 and later.
  fuzzy_chars: counter.optional(),
  approved_words: counter.optional(),
  approved_chars: counter.optional(),
  readonly_words: counter.optional(),
  readonly_chars: counter.optional(),
});
export type ApiStatistics = z.output<typeof statisticsShape>;

/** A category (today's Weblate): its project and parent as links, its settings as a project's. */
export const categoryShape = z.looseObject({
  id,
  name: text,
  slug,
  project: text,
  category: text.nullable(),
  url: text,
  check_flags: text.optional(),
  ...inheritableShapes(),
});
export type ApiCategory = z.output<typeof categoryShape>;

export const lockShape = z.looseObject({ locked: z.boolean() });

/** An entry of the changes feed: what it names (links, or null for what has none). */
export const changeShape = z.looseObject({
  component: text.nullable().optional(),
  translation: text.nullable().optional(),
});

/** Checks a body against a shape; a mismatch stops the pull with the URL, the field and what was wrong. */
export function parseShape<T extends z.ZodType>(
  shape: T,
  value: unknown,
  what: string,
  url: string,
): z.output<T> {
  const result = shape.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  throw new PullError(
    `${url} does not look like Weblate's API: ${what}, ${field}${issue.message}.`,
  );
}

// --- internal ---

/**
 * A schema for each setting of `defaults`, typed like its default. Text and
 * maps may be null: Weblate hides `vcs`, `repo`, `branch`, `filemask`,
 * `push` (and today `vcs_params`, `screenshot_filemask`, …) from callers who
 * may not see the repository.
 */
function typedLike<K extends string>(defaults: Readonly<Record<K, unknown>>): Record<K, Optional> {
  const shapes = {} as Record<K, Optional>;
  for (const [key, value] of Object.entries(defaults) as [K, unknown][])
    shapes[key] = shapeOf(value);
  return shapes;
}

type Optional = z.ZodOptional<z.ZodType<unknown>>;

function shapeOf(value: unknown): Optional {
  if (typeof value === 'boolean') return z.boolean().optional();
  if (typeof value === 'number') return z.number().int().optional();
  if (Array.isArray(value)) return z.array(text).optional();
  if (value !== null && typeof value === 'object')
    return z.record(z.string(), z.unknown()).nullable().optional();
  return text.nullable().optional();
}

/**
 * The inheritable settings as today's Weblate shows them: the own value, the
 * `inherit_` switch and the `effective_` value; a secondary language as its id.
 */
function inheritableShapes(): Record<
  `${'' | 'inherit_' | 'effective_'}${InheritableSetting}`,
  Optional
> {
  const shapes = {} as Record<`${'' | 'inherit_' | 'effective_'}${InheritableSetting}`, Optional>;
  for (const setting of INHERITABLE_SETTINGS) {
    const value = setting === 'secondary_language' ? id.nullable().optional() : text.optional();
    shapes[setting] = value;
    shapes[`inherit_${setting}`] = z.boolean().optional();
    shapes[`effective_${setting}`] = value;
  }
  return shapes;
}
