/**
 * The built-in language catalog (converted from WeblateOrg/language-data, MIT;
 * see data/languages/NOTICE.md): a component can name any of its 799 codes
 * without a language file.
 */
import { readFileSync } from 'node:fs';
import { baseCode } from './plural.ts';
import { packageFile } from '../package-files.ts';

export interface CatalogLanguage {
  /** The id a fresh Weblate install gives it: languages are created in catalog order (lang/models.py setup). */
  id: number;
  code: string;
  name: string;
  direction: 'ltr' | 'rtl';
  population: number;
  aliases: readonly string[];
  /** The aliases Weblate 2026.8 lists (default-country locales only as `<code>_<country>`). */
  aliasesCurrent: readonly string[];
  plural: { id: number; source: 0; number: number; formula: string; type: number };
  /** The plural type Weblate 2026.8 gives the default plural (`plural.type` is the 4.x one). */
  typeCurrent: number;
}

export interface Catalog {
  get(code: string): CatalogLanguage | undefined;
  /** The catalog code an alias (`cze`, `pt-br`) stands for, if any. */
  aliasTarget(alias: string): string | undefined;
  /** Weblate's guess for a code outside the catalog: rtl when the code or its base code is written right to left. */
  guessDirection(code: string): 'ltr' | 'rtl';
  /** Every known plural formula without spaces, with its 4.x type, in look-up order. */
  readonly formulas: readonly (readonly [string, number])[];
  /** The same with the types of Weblate 2026.8. */
  readonly formulasCurrent: readonly (readonly [string, number])[];
  readonly size: number;
}

/** Reads the catalog shipped in data/languages/catalog.json. */
export function loadCatalog(): Catalog {
  const file = packageFile('data/languages/catalog.json');
  return catalogFromData(JSON.parse(readFileSync(file, 'utf8')) as CatalogData);
}

// --- internal ---

type LanguageRow = [
  string,
  string,
  'ltr' | 'rtl',
  number,
  string[],
  number,
  string,
  number,
  number,
  string[]?,
];

interface CatalogData {
  languages: LanguageRow[];
  formulas: [string, number][];
  formulasCurrent: [string, number][];
  rtl: string[];
}

function catalogFromData(data: CatalogData): Catalog {
  const byCode = new Map<string, CatalogLanguage>();
  const byAlias = new Map<string, string>();
  data.languages.forEach(
    (
      [
        code,
        name,
        direction,
        population,
        aliases,
        number,
        formula,
        type,
        typeCurrent,
        aliasesCurrent,
      ],
      index,
    ) => {
      // A fresh Weblate install creates the languages, each with its default plural, in catalog order.
      byCode.set(code, {
        id: index + 1,
        code,
        name,
        direction,
        population,
        aliases,
        aliasesCurrent: aliasesCurrent ?? aliases,
        plural: { id: index + 1, source: 0, number, formula, type },
        typeCurrent,
      });
      for (const alias of aliases) byAlias.set(alias, code);
    },
  );
  const rtl = new Set(data.rtl);
  const lowerCodes = new Map([...byCode.keys()].map((code) => [code.toLowerCase(), code]));
  return {
    get: (code) => byCode.get(code),
    aliasTarget: (alias) => {
      const normalized = alias.toLowerCase().replace(/-/g, '_');
      return byAlias.get(normalized) ?? lowerCodes.get(normalized);
    },
    guessDirection: (code) => (rtl.has(code) || rtl.has(baseCode(code)) ? 'rtl' : 'ltr'),
    formulas: data.formulas,
    formulasCurrent: data.formulasCurrent,
    size: byCode.size,
  };
}
