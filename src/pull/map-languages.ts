/**
 * Languages as content files. A language the catalog knows, shown exactly as
 * the catalog has it and used by a translation, needs no file; one that
 * differs gets a file with the fields that differ (a plural that differs in
 * any way is written whole, id included); one the catalog does not know gets
 * every field. A language published without any translation gets a file
 * either way, since only files and translations publish a language. Today's
 * Weblate (2026.8) is compared with the catalog as that flavour shows it:
 * its ids, today's plural types and aliases; a new language's id is written.
 */
import { compareStrings } from '../errors.ts';
import type { Catalog, CatalogLanguage } from '../catalog/catalog.ts';
import type { ApiLanguage } from './shapes.ts';
import type { PulledInstance } from './walk.ts';
import { type ContentFile } from './content-file.ts';

export function mapLanguages(
  instance: PulledInstance,
  catalog: Catalog,
): { files: ContentFile[]; published: number } {
  const used = new Map<string, ApiLanguage>();
  for (const { components } of instance.projects) {
    for (const pulled of components) {
      if ('kept' in pulled) {
        for (const language of pulled.languages) used.set(language.code, language);
        continue;
      }
      used.set(pulled.component.source_language.code, pulled.component.source_language);
      for (const t of pulled.translations) used.set(t.language.code, t.language);
    }
  }
  const listed = new Map(instance.languages.map((language) => [language.code, language]));
  // A partial pull cannot tell a language nobody translates from one only other projects use: it keeps the used ones.
  const codes = new Set([...used.keys(), ...(instance.partial ? [] : listed.keys())]);
  const files: ContentFile[] = [];
  const current = (instance.flavour ?? '4') !== '4';
  for (const code of [...codes].sort(compareStrings)) {
    const language = listed.get(code) ?? used.get(code)!;
    const entry = catalog.get(code);
    const value = entry
      ? differences(language, current ? asToday(entry) : entry, current)
      : everyField(language, current);
    if (Object.keys(value).length === 0 && used.has(code)) continue;
    const file: ContentFile = { path: `languages/${code}.yaml`, value };
    if (!used.has(code)) file.comment = 'Published without any translation.';
    files.push(file);
  }
  return { files, published: codes.size };
}

// --- internal ---

/** A catalog language as the 2026.8 flavour shows it (resolve/languages.ts): today's plural type and aliases. */
function asToday(entry: CatalogLanguage): CatalogLanguage {
  return {
    ...entry,
    aliases: entry.aliasesCurrent,
    plural: { ...entry.plural, type: entry.typeCurrent },
  };
}

function differences(
  language: ApiLanguage,
  entry: CatalogLanguage,
  current: boolean,
): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  if (current && language.id !== undefined && language.id !== entry.id) value.id = language.id;
  if (language.name !== entry.name) value.name = language.name;
  const direction = directionOf(language);
  if (direction !== undefined && direction !== entry.direction) value.direction = direction;
  if (language.population !== undefined && language.population !== entry.population)
    value.population = language.population;
  if (language.aliases !== undefined && !sameList(language.aliases, entry.aliases))
    value.aliases = language.aliases;
  const p = language.plural;
  const q = entry.plural;
  if (
    p.id !== q.id ||
    p.source !== q.source ||
    p.number !== q.number ||
    p.formula !== q.formula ||
    p.type !== q.type
  ) {
    value.plural = pluralOf(language);
  }
  return value;
}

function everyField(language: ApiLanguage, current: boolean): Record<string, unknown> {
  const value: Record<string, unknown> =
    current && language.id !== undefined ? { id: language.id } : {};
  value.name = language.name;
  const direction = directionOf(language);
  if (direction !== undefined) value.direction = direction;
  if (language.population !== undefined) value.population = language.population;
  if (language.aliases !== undefined && language.aliases.length > 0)
    value.aliases = language.aliases;
  value.plural = pluralOf(language);
  return value;
}

function pluralOf(language: ApiLanguage): Record<string, unknown> {
  const p = language.plural;
  const plural: Record<string, unknown> = { id: p.id };
  if (p.source !== 0) plural.source = p.source;
  Object.assign(plural, { number: p.number, formula: p.formula, type: p.type });
  return plural;
}

/** `ltr` or `rtl`; anything else (Weblate's model allows "") is left to the generator's guess. */
function directionOf(language: ApiLanguage): 'ltr' | 'rtl' | undefined {
  return language.direction === 'ltr' || language.direction === 'rtl'
    ? language.direction
    : undefined;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}
