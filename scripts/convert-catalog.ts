/**
 * Dev-time tool: converts the upstream language catalog (WeblateOrg/language-data,
 * MIT) into the compact data file this project ships in data/languages/.
 *
 *   npx tsx scripts/convert-catalog.ts <path-to-catalog.json>
 *
 * Nothing reads the upstream copy at run time; only the converted file is used.
 */
import { readFileSync, writeFileSync } from 'node:fs';

interface UpstreamPlural {
  number: number;
  formula: string;
  source: number;
  type: number;
  type_v4: number;
}
interface UpstreamLanguage {
  code: string;
  name: string;
  direction: string;
  population: number;
  aliases: string[];
  plurals: UpstreamPlural[];
}

const input = process.argv[2];
if (!input) {
  console.error('usage: tsx scripts/convert-catalog.ts <catalog.json>');
  process.exit(1);
}
const upstream = JSON.parse(readFileSync(input, 'utf8')) as UpstreamLanguage[];

// Formula table for classifying user-supplied plurals (4.x types): every formula
// the catalog uses, without spaces, with the 4.x type it was given. A formula
// whose 4.x type depends on the language (the Arabic rule) is left out, as the
// 4.x table does not hold it, and so is any formula typed by that rule.
const spaceless = (formula: string) => formula.replace(/;$/, '').replace(/ /g, '');
const arabicRule = new Set(
  upstream.flatMap((language) =>
    /^ar(?:[-_]|$)/.test(language.code)
      ? language.plurals
          .filter((plural) => plural.type_v4 === 3)
          .map((plural) => spaceless(plural.formula))
      : [],
  ),
);
/** The formula table of one Weblate generation: each formula typed alike everywhere, by type then text. */
function formulaTable(
  typeOf: (plural: UpstreamPlural) => number,
  skip: ReadonlySet<string>,
): (readonly [string, number])[] {
  const typesByFormula = new Map<string, Set<number>>();
  for (const language of upstream) {
    for (const plural of language.plurals) {
      const key = spaceless(plural.formula);
      const type = typeOf(plural);
      if (key === '0' || type === 666 || skip.has(key)) continue;
      const types = typesByFormula.get(key) ?? new Set<number>();
      types.add(type);
      typesByFormula.set(key, types);
    }
  }
  return [...typesByFormula]
    .filter(([, types]) => types.size === 1)
    .map(([formula, types]) => [formula, [...types][0]!] as const)
    .sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}
const formulas = formulaTable((plural) => plural.type_v4, arabicRule);
// Today's table holds the Arabic formulas (type 12), so nothing is left out of it.
const formulasCurrent = formulaTable((plural) => plural.type, new Set());

// Today's Weblate lists as aliases the alias codes of a language and the
// default-country locales of the form `<code>_<country>` (Language.get_aliases_names
// in 2026.8: `startswith(f"{code}_")`); upstream's catalog.json, like the 4.x
// lists, also takes locales that merely start with the code (`ast_es` for `as`).
const folder = new URL(input, `file://${process.cwd()}/`);
const csvRows = (name: string) =>
  readFileSync(new URL(name, folder), 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.split(',').map((cell) => cell.trim()))
    .filter((cells) => cells[0] && cells[0] !== '#');
const aliasRows = csvRows('aliases.csv');
const defaultCountries = csvRows('default_countries.csv').map((cells) => cells[0]!);
function currentAliases(code: string): string[] {
  const aliases = aliasRows.filter((cells) => cells[1] === code).map((cells) => cells[0]!);
  aliases.push(...defaultCountries.filter((locale) => locale.startsWith(`${code}_`)));
  return aliases.sort();
}

const languages = upstream.map((language) => {
  const plural = language.plurals[0]!;
  if (plural.source !== 0) throw new Error(`${language.code}: first plural is not the default one`);
  return [
    language.code,
    language.name,
    language.direction,
    language.population,
    language.aliases,
    plural.number,
    plural.formula,
    plural.type_v4,
    plural.type,
    // Today's aliases only where they differ from the 4.x list.
    ...(sameList(currentAliases(language.code), language.aliases)
      ? []
      : [currentAliases(language.code)]),
  ];
});

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

// Codes written right to left, for guessing the direction of a language that
// is not in the catalog (its code or its base code is looked up here).
const rtlCsv = readFileSync(new URL('rtl.csv', folder), 'utf8');
const rtl = rtlCsv
  .split('\n')
  .slice(1)
  .map((line) => line.split(',')[0]!.trim())
  .filter(Boolean)
  .sort();

const data = {
  about:
    'Converted from WeblateOrg/language-data @ f6fa893b3dc0b1f3d0878cb939515105aad83dd4 (MIT, see LICENSE and NOTICE.md). ' +
    'languages: [code, name, direction, population, aliases, plural number, plural formula, plural type (Weblate 4.x), ' +
    'plural type (Weblate 2026.8), aliases in Weblate 2026.8 where they differ]; ' +
    'formulas and formulasCurrent: [formula without spaces, plural type of Weblate 4.x and of 2026.8]; rtl: codes written right to left.',
  languages,
  formulas,
  formulasCurrent,
  rtl,
};
const lines = [
  '{',
  `"about":${JSON.stringify(data.about)},`,
  '"languages":[',
  languages.map((row) => JSON.stringify(row)).join(',\n'),
  '],',
  '"formulas":[',
  formulas.map((row) => JSON.stringify(row)).join(',\n'),
  '],',
  '"formulasCurrent":[',
  formulasCurrent.map((row) => JSON.stringify(row)).join(',\n'),
  '],',
  `"rtl":${JSON.stringify(rtl)}`,
  '}',
];
writeFileSync(new URL('../data/languages/catalog.json', import.meta.url), lines.join('\n') + '\n');
console.log(
  `wrote ${languages.length} languages, ${formulas.length} 4.x formulas and ${formulasCurrent.length} current ones`,
);
