/**
 * The language writes: POST `/api/languages/`, PUT and PATCH
 * `/api/languages/<code>/`, DELETE `/api/languages/<code>/`. Each checks the
 * request as Weblate's serializer does, then edits `content/languages/` and
 * the component files in one queued session edit.
 */
import { formulaStaysWithin, parsePluralFormula } from '../catalog/plural.ts';
import type { Catalog } from '../catalog/catalog.ts';
import { CODE_MAX_LENGTH } from '../content/schema.ts';
import type { Language, Model } from '../model/types.ts';
import { languageBody } from '../api/bodies.ts';
import type { ContentChange, Session } from '../session/session.ts';
import { apiPath, apiUrl } from '../api/urls.ts';
import { answerEdit, invalid, json, noContent, notFound, type Answer } from './answer.ts';
import { notADictionary, type BodyResult, type Fields } from './body.ts';
import {
  componentFile,
  languageFile,
  removeTranslation,
  setFields,
  type FieldValue,
} from './edit.ts';
import {
  checkChoice,
  checkInteger,
  checkText,
  fail,
  fieldOf,
  FieldErrors,
  REQUIRED,
  type Checked,
} from './fields.ts';

export interface WriteContext {
  session: Session;
  catalog: Catalog;
}

/** POST `/api/languages/`: 201 with the new Language and its URL in `Location`. */
export async function createLanguage(
  { session, catalog }: WriteContext,
  body: BodyResult,
): Promise<Answer> {
  if (!body.ok) return body.answer;
  const errors = new FieldErrors();
  const code = errors.take('code', checkNewCode(fieldOf(body.data, 'code')));
  const given = checkLanguageFields(body.data, errors);
  if (code !== undefined && given.name === undefined && !catalog.get(code))
    errors.add('name', REQUIRED);
  if (errors.any) return invalid(errors.body);
  if (!given.plural) return invalid(['No valid plural data was provided.']);
  const path = languageFile(code!);
  const outcome = await session.edit<Answer>(({ model }) => {
    const folded = code!.toLowerCase();
    if (model.languages.some((language) => language.code.toLowerCase() === folded)) {
      return { refuse: invalid(['Language with this Language code already exists.']) };
    }
    const { name, direction, population, plural } = given;
    const text = setFields(null, { name, direction: direction || undefined, population, plural });
    return { changes: [{ path, text }], result: noContent() };
  });
  return answerEdit(outcome, session.contentDir, (model) => {
    const url = apiUrl(model.settings, apiPath.language(code!));
    return json(201, languageBody(model.settings, publishedLanguage(model, code!)), {
      Location: url,
    });
  });
}

/**
 * PUT (`partial` false: `code` required) or PATCH `/api/languages/<code>/`:
 * name, direction and population are written to the language's file, which a
 * catalog language gets when it first changes. `plural` is checked but, as in
 * Weblate, not stored.
 */
export async function updateLanguage(
  { session }: WriteContext,
  code: string,
  body: BodyResult,
  partial: boolean,
): Promise<Answer> {
  const path = languageFile(code);
  const outcome = await session.edit<Answer>(async ({ model, read }) => {
    const language = model.languages.find((candidate) => candidate.code === code);
    if (!language) return { refuse: notFound() };
    if (!body.ok) return { refuse: body.answer };
    const errors = new FieldErrors();
    const sent = fieldOf(body.data, 'code');
    if (sent === undefined && !partial) errors.add('code', REQUIRED);
    const sentCode = errors.take(
      'code',
      sent === undefined ? undefined : checkText(sent, { maxLength: CODE_MAX_LENGTH }),
    );
    if (sentCode !== undefined && sentCode !== code) errors.add('code', RENAME_REFUSED);
    const given = checkLanguageFields(body.data, errors);
    if (errors.any) return { refuse: invalid(errors.body) };
    const current = await read(path);
    const updates = changedFields(language, given, current !== null);
    if (Object.keys(updates).length === 0) return { changes: [], result: noContent() };
    return { changes: [{ path, text: setFields(current, updates) }], result: noContent() };
  });
  return answerEdit(outcome, session.contentDir, (model) =>
    json(200, languageBody(model.settings, publishedLanguage(model, code))),
  );
}

/**
 * DELETE `/api/languages/<code>/`: the language's file and its translation
 * in every component go, in one edit. Refused while a component has it as
 * its source language (Weblate would delete those components with it).
 */
export async function deleteLanguage({ session }: WriteContext, code: string): Promise<Answer> {
  const outcome = await session.edit<Answer>(async ({ model, read }) => {
    if (!model.languages.some((language) => language.code === code)) return { refuse: notFound() };
    const sources = model.components.filter((component) => component.sourceLanguage.code === code);
    if (sources.length > 0) {
      const names = sources.map((component) => `${component.project.slug}/${component.slug}`);
      return { refuse: invalid([sourceLanguageRefusal(code, names)]) };
    }
    const changes: ContentChange[] = [];
    for (const component of model.components) {
      if (!component.translations.some((translation) => translation.language.code === code))
        continue;
      const path = componentFile(component.project.slug, component.slug);
      const text = removeTranslation((await read(path)) ?? '', code);
      if (text !== null) changes.push({ path, text });
    }
    // Deleted last (Session writes before it deletes): a crash in between leaves the language defined.
    if ((await read(languageFile(code))) !== null)
      changes.push({ path: languageFile(code), text: null });
    return { changes, result: noContent() };
  });
  return answerEdit(outcome, session.contentDir, () => noContent());
}

// --- internal ---

const RENAME_REFUSED =
  'Renaming a language is not supported here: create the new code, then delete this one.';

type PluralFields = {
  number: number;
  formula: string;
  source?: number;
};

interface LanguageFields {
  name?: string;
  direction?: '' | 'ltr' | 'rtl';
  population?: number;
  plural?: PluralFields;
}

function publishedLanguage(model: Model, code: string): Language {
  const language = model.languages.find((candidate) => candidate.code === code);
  if (!language)
    throw new Error(`Internal error: language ${code} is not published after its edit`);
  return language;
}

function sourceLanguageRefusal(code: string, components: string[]): string {
  const list =
    components.length === 1
      ? components[0]!
      : `${components.slice(0, -1).join(', ')} and ${components.at(-1)!}`;
  return (
    `Language "${code}" is the source language of ${list}; deleting it would delete ` +
    `${components.length === 1 ? 'that component' : 'those components'}. Change their source_language or delete them first.`
  );
}

/** A new code: DRF's slug rules (letters, digits, `_`, `-`; at most 50), starting with a letter or digit as content codes do. */
function checkNewCode(value: unknown): Checked<string> {
  if (value === undefined) return fail(REQUIRED);
  const text = checkText(value, { maxLength: CODE_MAX_LENGTH });
  if (!text.ok) return text;
  if (!/^[-a-zA-Z0-9_]+$/.test(text.value))
    return fail('Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.');
  if (!/^[a-zA-Z0-9]/.test(text.value))
    return fail('Enter a language code that starts with a letter or a digit.');
  return text;
}

/** The writable fields present in a body, each checked; errors go to `errors`. */
function checkLanguageFields(data: Fields, errors: FieldErrors): LanguageFields {
  const fields: LanguageFields = {};
  const present = (name: string) => fieldOf(data, name) !== undefined;
  if (present('name'))
    fields.name = errors.take('name', checkText(fieldOf(data, 'name'), { maxLength: 100 }));
  if (present('direction'))
    fields.direction = errors.take(
      'direction',
      checkChoice(fieldOf(data, 'direction'), ['', 'ltr', 'rtl'] as const),
    );
  if (present('population')) {
    fields.population = errors.take(
      'population',
      checkInteger(fieldOf(data, 'population'), { min: 0, max: Number.MAX_SAFE_INTEGER }),
    );
  }
  if (present('plural'))
    fields.plural = errors.take('plural', checkPlural(fieldOf(data, 'plural')));
  return fields;
}

/** The nested plural: `{number, formula, source?}` (`id` and `type` are read-only); number 2 and `n != 1` by default. */
function checkPlural(value: unknown): Checked<PluralFields> {
  if (value === null) return fail('This field may not be null.');
  if (typeof value !== 'object' || Array.isArray(value))
    return { ok: false, errors: { non_field_errors: [notADictionary(value)] } };
  const data = value as Fields;
  if (Object.keys(data).length === 0) return fail(REQUIRED);
  const errors = new FieldErrors();
  const number =
    fieldOf(data, 'number') === undefined
      ? 2
      : errors.take('number', checkInteger(fieldOf(data, 'number'), { min: 1, max: 10 }));
  const formula =
    fieldOf(data, 'formula') === undefined
      ? 'n != 1'
      : errors.take('formula', checkText(fieldOf(data, 'formula'), { maxLength: 1000 }));
  const source =
    fieldOf(data, 'source') === undefined
      ? undefined
      : errors.take('source', checkChoice(fieldOf(data, 'source'), [0, 1, 2, 3]));
  if (formula !== undefined && number !== undefined) {
    const parsed = parsePluralFormula(formula);
    if (!parsed.ok) errors.add('formula', `Could not evaluate plural formula: ${parsed.reason}`);
    else if (!formulaStaysWithin(parsed.evaluate, number))
      errors.add(
        'formula',
        `The formula must give a plural form from 0 to ${number - 1} for every n.`,
      );
  }
  if (errors.any) return { ok: false, errors: errors.body };
  return {
    ok: true,
    value: { number: number!, formula: formula!, ...(source === undefined ? {} : { source }) },
  };
}

/** The file keys a PUT or PATCH changes: each given field that differs from what the language shows. */
function changedFields(
  language: Language,
  given: LanguageFields,
  hasFile: boolean,
): Record<string, FieldValue> {
  const updates: Record<string, FieldValue> = {};
  if (given.name !== undefined && given.name !== language.name) updates.name = given.name;
  if (given.population !== undefined && given.population !== language.population)
    updates.population = given.population;
  // An empty direction is guessed again, as Weblate does on save: the key goes.
  if (given.direction === '' && hasFile) updates.direction = undefined;
  else if (given.direction && given.direction !== language.direction)
    updates.direction = given.direction;
  return updates;
}
