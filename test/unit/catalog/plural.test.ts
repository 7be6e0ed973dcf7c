import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../../src/catalog/catalog.ts';
import {
  classifyPlural,
  formulaStaysWithin,
  parsePluralFormula,
} from '../../../src/catalog/plural.ts';

const catalog = loadCatalog();
const rows = JSON.parse(
  readFileSync(new URL('../../../data/languages/catalog.json', import.meta.url), 'utf8'),
).languages as [string, string, string, number, string[], number, string, number][];

describe('plural formulas', () => {
  it('evaluates with Python semantics: floor modulo and comparisons as 0 or 1', () => {
    const parsed = parsePluralFormula('n % 10 == 1 && n % 100 != 11 ? 0 : n != 0 ? 1 : 2');
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect([0, 1, 2, 11, 21, 111].map(parsed.evaluate)).toEqual([2, 0, 1, 1, 0, 1]);
    const modulo = parsePluralFormula('n % 3');
    expect(modulo.ok && modulo.evaluate(-1)).toBe(2);
    const comparison = parsePluralFormula('(n > 1) + (n > 5)');
    expect(comparison.ok && [1, 3, 9].map(comparison.evaluate)).toEqual([0, 1, 2]);
  });

  it.each(['n !=', 'n != 1 ?', 'x > 1', '(n > 1', 'n >> 1', ''])(
    'refuses the malformed formula %j',
    (formula) => {
      expect(parsePluralFormula(formula).ok).toBe(false);
    },
  );

  it('checks that a formula selects only existing forms', () => {
    const parsed = parsePluralFormula('n == 1 ? 0 : n == 2 ? 1 : 2');
    expect(parsed.ok && formulaStaysWithin(parsed.evaluate, 3)).toBe(true);
    expect(parsed.ok && formulaStaysWithin(parsed.evaluate, 2)).toBe(false);
  });

  it('every catalog formula compiles and stays within its number of forms', () => {
    for (const [code, , , , , number, formula] of rows) {
      const parsed = parsePluralFormula(formula);
      expect(parsed.ok && formulaStaysWithin(parsed.evaluate, number), code).toBe(true);
    }
  });

  it('classifies every default plural of the catalog as Weblate 4.x did', () => {
    const mismatches = rows.filter(
      ([code, , , , , , formula, type]) => classifyPlural(formula, code, catalog.formulas) !== type,
    );
    expect(mismatches).toEqual([]);
    expect(rows).toHaveLength(799);
  });

  it('classifies new formulas by look-up, the Arabic rule and behaviour', () => {
    expect(classifyPlural('0', 'xx', catalog.formulas)).toBe(0);
    expect(classifyPlural('n != 1;', 'xx', catalog.formulas)).toBe(1);
    expect(classifyPlural('(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2', 'xx', catalog.formulas)).toBe(2);
    // Same behaviour as "n != 1" written differently.
    expect(classifyPlural('n == 1 ? 0 : 1', 'xx', catalog.formulas)).toBe(1);
    expect(classifyPlural('n % 7', 'ar_XX', catalog.formulas)).toBe(3);
    expect(classifyPlural('n % 7', 'xx', catalog.formulas)).toBe(666);
  });
});
