/**
 * Languages: content/languages/<code>.yaml files over the built-in catalog.
 * A catalog code needs no file; a file may override any field of a catalog
 * language, or define a new language (then `name` and `plural` are required).
 */
import { hasTrait, type Release } from '../model/releases.ts';
import type { Catalog } from '../catalog/catalog.ts';
import { classifyPlural, formulaStaysWithin, parsePluralFormula } from '../catalog/plural.ts';
import { derivedId } from '../model/ids.ts';
import type { Language, Plural } from '../model/types.ts';
import { quote } from '../content/describe.ts';
import type { CheckedFile } from '../content/files.ts';
import type { FieldPath } from '../content/locate.ts';
import { codeExpectation } from '../content/schema.ts';
import { type Problem } from '../content/problems.ts';

/** Languages defined or overridden by content files, by code. */
export function resolveLanguageFiles(
  files: readonly CheckedFile<'language'>[],
  catalog: Catalog,
  version: Release,
  problems: Problem[],
): Map<string, Language> {
  const definitions = new Map<string, Language>();
  for (const checked of files) {
    const language = resolveLanguageFile(checked, catalog, version, problems);
    if (language) definitions.set(language.code, language);
  }
  return definitions;
}

export interface LanguageResolver {
  /** The language of a code used in a component; reports unknown codes with a suggestion. */
  resolve(
    code: string,
    file: string,
    path: FieldPath,
    problems: Problem[],
    atKey?: boolean,
  ): Language | null;
  /** Every language resolved so far. */
  used(): Iterable<Language>;
}

/** Languages by code, for a snapshot of the given flavour (which decides plural types and aliases of catalog languages). */
export function languageResolver(
  definitions: Map<string, Language>,
  catalog: Catalog,
  version: Release,
): LanguageResolver {
  const resolved = new Map<string, Language>(definitions);
  return {
    resolve(code, file, path, problems, atKey = false) {
      const known = resolved.get(code);
      if (known) return known;
      const entry = catalog.get(code);
      if (entry) {
        const language = fromCatalog(entry, version);
        resolved.set(code, language);
        return language;
      }
      const target = catalog.aliasTarget(code);
      const hint = target
        ? `; did you mean ${quote(target)}?`
        : '; define it in languages/<code>.yaml';
      problems.push({
        file,
        path,
        atKey,
        message: `expected a language code from the catalog or languages/ (got ${quote(code)}${hint})`,
      });
      return null;
    },
    used: () => resolved.values(),
  };
}

/** Checks that no two languages share an id (2026.8 shows them): an explicit id may take a catalog language's. */
export function checkLanguageIds(languages: Iterable<Language>, problems: Problem[]): void {
  const seen = new Map<number, Language>();
  for (const language of languages) {
    const other = seen.get(language.id);
    if (other && other !== language) {
      problems.push({
        file: language.file ?? other.file ?? '',
        path: ['id'],
        message: `expected a language id used once (got ${language.id}, also the id of ${quote(other.code)})`,
      });
    } else {
      seen.set(language.id, language);
    }
  }
}

// --- internal ---

type CatalogEntry = NonNullable<ReturnType<Catalog['get']>>;

/** A catalog language as a snapshot of the flavour shows it: today's plural type and aliases differ from 4.x's. */
function fromCatalog(entry: CatalogEntry, version: Release): Language {
  const currentTypes = hasTrait(version, 'currentPluralTypes');
  return {
    id: entry.id,
    code: entry.code,
    name: entry.name,
    plural: { ...entry.plural, type: currentTypes ? entry.typeCurrent : entry.plural.type },
    aliases: hasTrait(version, 'shapes5') ? entry.aliasesCurrent : entry.aliases,
    direction: entry.direction,
    population: entry.population,
    inCatalog: true,
    file: null,
  };
}

function resolveLanguageFile(
  checked: CheckedFile<'language'>,
  catalog: Catalog,
  version: Release,
  problems: Problem[],
): Language | null {
  const code = checked.place.code;
  const file = checked.file;
  const d = checked.data;
  const expectation = codeExpectation(code);
  if (expectation !== null) {
    problems.push({
      file,
      path: [],
      message: `${expectation} as the file name (got ${quote(code)})`,
    });
    return null;
  }
  const entry = catalog.get(code);
  const sameButCase = entry ? undefined : catalog.aliasTarget(code);
  if (sameButCase && sameButCase.toLowerCase() === code.toLowerCase()) {
    problems.push({
      file,
      path: [],
      message: `expected the catalog's spelling ${quote(sameButCase)} as the file name (got ${quote(code)})`,
    });
    return null;
  }
  if (!entry) {
    if (d.name === undefined)
      problems.push({
        file,
        path: [],
        message: 'expected a name for a language that is not in the catalog (missing name)',
      });
    if (d.plural === undefined)
      problems.push({
        file,
        path: [],
        message: 'expected a plural for a language that is not in the catalog (missing plural)',
      });
    if (d.name === undefined || d.plural === undefined) return null;
  }
  const shown = entry && fromCatalog(entry, version);
  const plural = resolvePlural(code, d.plural, shown?.plural, catalog, version, file, problems);
  if (!plural) return null;
  return {
    id: d.id ?? shown?.id ?? derivedId('language', code),
    code,
    name: d.name ?? entry!.name,
    plural,
    aliases: d.aliases ?? shown?.aliases ?? [],
    direction: d.direction ?? entry?.direction ?? catalog.guessDirection(code),
    population: d.population ?? entry?.population ?? 0,
    inCatalog: entry !== undefined,
    file,
  };
}

function resolvePlural(
  code: string,
  given: CheckedFile<'language'>['data']['plural'],
  catalogPlural: Plural | undefined,
  catalog: Catalog,
  version: Release,
  file: string,
  problems: Problem[],
): Plural | null {
  if (!given) return { ...catalogPlural! };
  const parsed = parsePluralFormula(given.formula);
  if (!parsed.ok) {
    problems.push({
      file,
      path: ['plural', 'formula'],
      message: `expected a gettext plural formula such as "n != 1" (got ${quote(given.formula)}: ${parsed.reason})`,
    });
    return null;
  }
  if (!formulaStaysWithin(parsed.evaluate, given.number)) {
    problems.push({
      file,
      path: ['plural', 'formula'],
      message: `expected a formula that gives a form from 0 to ${given.number - 1} for every n (got ${quote(given.formula)} with number ${given.number})`,
    });
    return null;
  }
  const unchanged =
    catalogPlural &&
    catalogPlural.formula === given.formula &&
    catalogPlural.number === given.number;
  return {
    id: given.id ?? (unchanged ? catalogPlural.id : derivedId('plural', code)),
    source: given.source ?? 0,
    number: given.number,
    formula: given.formula,
    type:
      given.type ??
      (!hasTrait(version, 'currentPluralTypes')
        ? classifyPlural(given.formula, code, catalog.formulas)
        : classifyPlural(given.formula, code, catalog.formulasCurrent, true)),
  };
}
