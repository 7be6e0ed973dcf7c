/**
 * The content format, as zod schemas: the single definition of what each YAML
 * file may hold. Types come from these schemas. Objects are strict (an unknown
 * key is an error, so a typo is never silently dropped), and every check
 * carries the "expected ..." half of its error message; the loader adds what
 * was found.
 */
import { z } from 'zod';
import { checkBaseUrl } from './base-url.ts';
import { isWebLink, WEB_LINK_EXPECTATION } from './web-link.ts';
import { isRelease, RELEASE_RANGE, type Release } from '../model/releases.ts';
import { FORMULA_MAX_LENGTH } from '../catalog/plural.ts';

// --- building blocks ---

const count = z
  .number({ error: 'expected a non-negative integer' })
  .refine((value) => Number.isSafeInteger(value) && value >= 0, { error: 'expected a non-negative integer' });
/**
 * The largest counter: sums of two million translations (2^21) of such
 * counters stay below 2^53, where a JavaScript number stops counting exactly.
 */
export const COUNTER_MAX = 2 ** 32 - 1;
const counter = z
  .number({ error: 'expected a non-negative integer' })
  .refine((value) => Number.isInteger(value) && value >= 0, { error: 'expected a non-negative integer', abort: true })
  .refine((value) => value <= COUNTER_MAX, { error: `expected a non-negative integer of at most ${COUNTER_MAX}` });
const positiveId = z
  .number({ error: 'expected a positive integer id' })
  .refine((value) => Number.isSafeInteger(value) && value > 0, { error: 'expected a positive integer id' });
const text = z.string({ error: 'expected text' });
const flag = z.boolean({ error: 'expected true or false' });
const name = (max: number) =>
  z.string({ error: 'expected a non-empty name' })
    .min(1, { error: 'expected a non-empty name' })
    .max(max, { error: `expected a name of at most ${max} characters` });
const optionalText = text.optional();

/** Project and component slugs: `^[-a-zA-Z0-9_]+$`, as Weblate's slug validator. */
export const SLUG_PATTERN = /^[-a-zA-Z0-9_]+$/;
export const SLUG_MAX_LENGTH = 100;
const SLUG_EXPECTATION = 'expected a slug of letters, digits, "-" and "_"';
/**
 * Device names Windows reserves in any letter case and with any extension:
 * a tree with a folder or file of such a name cannot be copied there.
 */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;
const NOT_RESERVED = 'not a name Windows reserves (CON, PRN, AUX, NUL, COM0-9, LPT0-9, in any letter case)';

/** What is wrong with a slug read from a file or folder name, as an "expected …" text; null when nothing. */
export function slugExpectation(slug: string): string | null {
  if (slug.length > SLUG_MAX_LENGTH) return `expected a slug of at most ${SLUG_MAX_LENGTH} characters`;
  if (!SLUG_PATTERN.test(slug)) return SLUG_EXPECTATION;
  if (WINDOWS_RESERVED.test(slug)) return `expected a slug that is ${NOT_RESERVED}`;
  return null;
}
/**
 * Language codes: letters, digits, `_`, `-` and `@` (as in `ca@valencia`),
 * starting with a letter or digit. A dot is refused so that a code never looks
 * like a file name on a static host.
 */
export const CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_@-]*$/;
export const CODE_MAX_LENGTH = 50;
const CODE_EXPECTATION = 'expected a language code of letters, digits, "_", "-" and "@"';

/** What is wrong with a language code read from a file name, as an "expected …" text; null when nothing. */
export function codeExpectation(code: string): string | null {
  if (!CODE_PATTERN.test(code) || code.length > CODE_MAX_LENGTH) return CODE_EXPECTATION;
  if (WINDOWS_RESERVED.test(code)) return `expected a language code that is ${NOT_RESERVED}`;
  return null;
}

const code = z
  .string({ error: 'expected a language code' })
  .regex(CODE_PATTERN, { error: CODE_EXPECTATION })
  .max(CODE_MAX_LENGTH, { error: `expected a language code of at most ${CODE_MAX_LENGTH} characters` });
const slug = z.string({ error: 'expected a project slug' }).regex(SLUG_PATTERN, { error: SLUG_EXPECTATION });
/** A base URL, as content/base-url.ts decides; `api` also refuses one that names the API itself. */
const httpUrl = (options: { api?: boolean } = {}) =>
  z.string({ error: 'expected an http(s) URL' }).superRefine((value, context) => {
    const checked = checkBaseUrl(value, options);
    if (!checked.ok) context.addIssue({ code: 'custom', message: checked.expected });
  });

/** A link shown as it is: an http(s) URL, or "" for none. */
const webLink = z
  .string({ error: WEB_LINK_EXPECTATION })
  .refine((value) => value === '' || isWebLink(value), { error: WEB_LINK_EXPECTATION });

/**
 * A release such as `"5.10"`, or `"4"`: YAML reads the unquoted forms as numbers, taken as they
 * print, but unquoted 5.10 reads as 5.1, a release too, so that one number must be quoted.
 */
const weblateVersion = z
  .union([z.string(), z.number()], { error: `expected ${RELEASE_RANGE}` })
  .refine((value) => value !== 5.1, {
    error: 'expected "5.1" or "5.10" in quotes (YAML reads unquoted 5.10 as 5.1)',
  })
  .transform(String)
  .refine((value): value is Release => isRelease(value), { error: `expected ${RELEASE_RANGE}` });

/** `"a", "b" or "c"`. */
export function quoteAll(values: readonly string[]): string {
  const quoted = values.map((value) => `"${value}"`);
  return quoted.length === 1 ? quoted[0]! : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)!}`;
}

// --- site.yaml ---

export const siteSchema = z.strictObject({
  base_url: httpUrl({ api: true }).optional(),
  web_url: httpUrl().optional(),
  page_size: z
    .number({ error: 'expected an integer from 1 to 1000' })
    .refine((value) => Number.isInteger(value) && value >= 1 && value <= 1000, {
      error: 'expected an integer from 1 to 1000',
    })
    .optional(),
  pagination: z.enum(['path', 'query'], { error: 'expected "path" or "query"' }).optional(),
  weblate_version: weblateVersion.optional(),
  pages: flag.optional(),
  png_widgets: z.enum(['projects', 'all'], { error: 'expected "projects" or "all"' }).optional(),
  edit_url: httpUrl().optional(),
  title: name(100).optional(),
});
export type SiteFile = z.output<typeof siteSchema>;

// --- languages/<code>.yaml ---

export const pluralSchema = z.strictObject({
  id: positiveId.optional(),
  source: z
    .number({ error: 'expected a plural source from 0 to 6' })
    .refine((value) => Number.isInteger(value) && value >= 0 && value <= 6, { error: 'expected a plural source from 0 to 6' })
    .optional(),
  number: z
    .number({ error: 'expected the number of plural forms, from 1 to 10' })
    .refine((value) => Number.isInteger(value) && value >= 1 && value <= 10, {
      error: 'expected the number of plural forms, from 1 to 10',
    }),
  formula: z
    .string({ error: 'expected a gettext plural formula such as "n != 1"' })
    .min(1, { error: 'expected a gettext plural formula such as "n != 1"' })
    .max(FORMULA_MAX_LENGTH, {
      error: `expected a gettext plural formula of at most ${FORMULA_MAX_LENGTH} characters`,
    }),
  type: z
    .number({ error: 'expected a plural type (0 to 23, or 666)' })
    .refine((value) => Number.isInteger(value) && ((value >= 0 && value <= 23) || value === 666), {
      error: 'expected a plural type (0 to 23, or 666)',
    })
    .optional(),
});

export const languageSchema = z.strictObject({
  id: positiveId.optional(),
  name: name(100).optional(),
  direction: z.enum(['ltr', 'rtl'], { error: 'expected "ltr" or "rtl"' }).optional(),
  population: count.optional(),
  aliases: z.array(z.string({ error: 'expected an alias code' }), { error: 'expected a list of alias codes' }).optional(),
  plural: pluralSchema.optional(),
});
export type LanguageFile = z.output<typeof languageSchema>;

// --- settings a project, a category and a component share (2026.8) ---

const newLang = z.enum(['contact', 'url', 'add', 'none'], { error: 'expected "contact", "url", "add" or "none"' }).optional();

/** The inheritable settings (model/defaults.ts INHERITABLE_SETTINGS) and their switches; `secondary_language` is a language code. */
const inheritable = {
  license: optionalText,
  agreement: optionalText,
  new_lang: newLang,
  language_code_style: optionalText,
  secondary_language: code.optional(),
  ...messageTemplates(),
  ...inheritSwitches(),
};

/** The commit and merge request message templates. */
function messageTemplates() {
  return {
    commit_message: optionalText,
    add_message: optionalText,
    delete_message: optionalText,
    merge_message: optionalText,
    addon_message: optionalText,
    pull_message: optionalText,
  };
}

/** `inherit_<setting>` for each inheritable setting. */
function inheritSwitches() {
  return {
  inherit_license: flag.optional(),
  inherit_agreement: flag.optional(),
  inherit_new_lang: flag.optional(),
  inherit_language_code_style: flag.optional(),
  inherit_secondary_language: flag.optional(),
  inherit_commit_message: flag.optional(),
  inherit_add_message: flag.optional(),
  inherit_delete_message: flag.optional(),
  inherit_merge_message: flag.optional(),
  inherit_addon_message: flag.optional(),
  inherit_pull_message: flag.optional(),
  };
}

/** A choice among integers, worded with its choices. */
const intChoice = (choices: readonly number[], what: string) =>
  z
    .number({ error: `expected ${what}: ${choices.join(', ')}` })
    .refine((value) => choices.includes(value), { error: `expected ${what}: ${choices.join(', ')}` });

/** A map of scalars (file_format_params, vcs_params): text, integers and true or false. */
const params = z.record(
  z.string(),
  z.union([z.string(), z.boolean(), z.number().int()], { error: 'expected text, an integer or true or false' }),
  { error: 'expected a map of parameters' },
);

// --- projects/<project>/project.yaml ---

export const projectSchema = z.strictObject({
  name: name(60),
  id: positiveId.optional(),
  web: webLink.optional(),
  translation_review: flag.optional(),
  source_review: flag.optional(),
  set_language_team: flag.optional(),
  instructions: optionalText,
  enable_hooks: flag.optional(),
  language_aliases: optionalText,
  // The 2026.8 flavour's project settings (model/defaults.ts PROJECT_FIELD_DEFAULTS_2026).
  check_flags: optionalText,
  commit_policy: intChoice([0, 20, 30], 'a commit policy').optional(),
  access_control: intChoice([0, 1, 100, 200], 'an access control').optional(),
  public_sharing: flag.optional(),
  use_shared_tm: flag.optional(),
  contribute_shared_tm: flag.optional(),
  use_workspace_tm: flag.optional(),
  contribute_workspace_tm: flag.optional(),
  autoclean_tm: flag.optional(),
  enforced_2fa: flag.optional(),
  ...inheritable,
});
export type ProjectFile = z.output<typeof projectSchema>;

// --- projects/<project>/categories/<category>.yaml (2026.8) ---

export const categorySchema = z.strictObject({
  name: name(100),
  id: positiveId.optional(),
  parent: z.string({ error: 'expected the slug of a category of the project' }).regex(SLUG_PATTERN, { error: SLUG_EXPECTATION }).optional(),
  check_flags: optionalText,
  ...inheritable,
});
export type CategoryFile = z.output<typeof categorySchema>;

// --- projects/<project>/components/<component>.yaml ---

export const translationSchema = z.strictObject({
  id: positiveId.optional(),
  filename: optionalText,
  language_code: text.min(1, { error: 'expected a non-empty language code' }).optional(),
  revision: optionalText,
  total: counter.optional(),
  total_words: counter.optional(),
  total_chars: counter.optional(),
  translated: counter.optional(),
  translated_words: counter.optional(),
  translated_chars: counter.optional(),
  fuzzy: counter.optional(),
  fuzzy_words: counter.optional(),
  fuzzy_chars: counter.optional(),
  failing_checks: counter.optional(),
  failing_checks_words: counter.optional(),
  approved: counter.optional(),
  approved_words: counter.optional(),
  approved_chars: counter.optional(),
  readonly: counter.optional(),
  readonly_words: counter.optional(),
  readonly_chars: counter.optional(),
  have_suggestion: counter.optional(),
  have_comment: counter.optional(),
  recent_changes: counter.optional(),
  last_change: z.string({ error: 'expected an ISO 8601 timestamp or null' }).nullable().optional(),
  last_author: z.string({ error: 'expected a name or null' }).nullable().optional(),
});
export type TranslationEntry = z.output<typeof translationSchema>;

export const sourceCountersSchema = z.strictObject({
  total: counter.optional(),
  total_words: counter.optional(),
  total_chars: counter.optional(),
});

export const componentSchema = z.strictObject({
  name: name(100),
  id: positiveId.optional(),
  source_language: code,
  vcs: z.string({ error: 'expected a version control system such as "git"' }).regex(/^[a-z0-9_-]+$/, {
    error: 'expected a version control system such as "git"',
  }).optional(),
  repo: text,
  git_export: optionalText,
  branch: optionalText,
  push_branch: optionalText,
  filemask: text,
  template: optionalText,
  edit_template: flag.optional(),
  intermediate: optionalText,
  new_base: optionalText,
  file_format: text.min(1, { error: 'expected a file format such as "po"' }),
  license: optionalText,
  license_url: z
    .string({ error: `${WEB_LINK_EXPECTATION} or null` })
    .nullable()
    .refine((value) => value === null || value === '' || isWebLink(value), {
      error: `${WEB_LINK_EXPECTATION} or null`,
    })
    .optional(),
  agreement: optionalText,
  new_lang: z.enum(['contact', 'url', 'add', 'none'], { error: 'expected "contact", "url", "add" or "none"' }).optional(),
  language_code_style: optionalText,
  push: optionalText,
  check_flags: optionalText,
  priority: z.number({ error: 'expected an integer priority' }).int({ error: 'expected an integer priority' }).optional(),
  enforced_checks: z.array(z.string({ error: 'expected a check name' }), { error: 'expected a list of check names' }).optional(),
  restricted: flag.optional(),
  repoweb: webLink.optional(),
  report_source_bugs: optionalText,
  merge_style: z.enum(['merge', 'rebase', 'merge_noff'], { error: 'expected "merge", "rebase" or "merge_noff"' }).optional(),
  ...messageTemplates(),
  allow_translation_propagation: flag.optional(),
  manage_units: flag.optional(),
  enable_suggestions: flag.optional(),
  suggestion_voting: flag.optional(),
  suggestion_autoaccept: count.optional(),
  push_on_commit: flag.optional(),
  commit_pending_age: count.optional(),
  auto_lock_error: flag.optional(),
  language_regex: optionalText,
  variant_regex: optionalText,
  is_glossary: flag.optional(),
  glossary_color: optionalText,
  locked: flag.optional(),
  // The 2026.8 flavour's component settings (model/defaults.ts COMPONENT_FIELD_DEFAULTS_2026).
  vcs_params: params.optional(),
  screenshot_filemask: optionalText,
  file_format_params: params.optional(),
  hide_glossary_matches: flag.optional(),
  contribute_project_tm: flag.optional(),
  key_filter: optionalText,
  secondary_language: code.optional(),
  category: z.string({ error: 'expected the slug of a category of the project' }).regex(SLUG_PATTERN, { error: SLUG_EXPECTATION }).optional(),
  ...inheritSwitches(),
  links: z.array(slug, { error: 'expected a list of project slugs' }).optional(),
  source: sourceCountersSchema.optional(),
  translations: z
    .record(z.string(), translationSchema.nullable(), { error: 'expected a map from language code to counters' })
    .optional(),
});
export type ComponentFile = z.output<typeof componentSchema>;
