/** The route table read backwards: every file of a built tree names its own resource kind. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isParam, matchApiSegments, PARAM_CHARACTERS } from '../../../src/api/match.ts';
import { ROUTES } from '../../../src/api/routes.ts';
import { CODE_PATTERN, SLUG_PATTERN } from '../../../src/content/schema.ts';
import { FIXTURES, ROOT } from '../../helpers.ts';
import { fixtureTree } from '../hosts/tree.ts';

const segmentsOf = (path: string) => path.split('/').filter(Boolean).slice(1);

describe('matchApiSegments', () => {
  it('gives every resource of a built tree its kind, its path and its page', async () => {
    const tree = await fixtureTree(join(FIXTURES, 'features/content'));
    for (const resource of tree.resources) {
      const match = matchApiSegments(segmentsOf(resource.path));
      expect(match?.route.kind, resource.path).toBe(resource.kind);
      expect(match?.path).toBe(resource.listPath);
      expect(match?.page ?? 1).toBe(resource.page);
    }
  });

  it.each([
    [['projects', '~page', '1'], 'page 1 is the list itself'],
    [['projects', '~page', '02'], 'a page number with a leading zero'],
    [['projects', 'demo', '~page', '2'], 'a page of a resource that is not a list'],
    [['projects', 'de.mo'], 'a dot, which no slug has'],
    [['projects', '~page'], 'a page segment alone'],
    [['languages', 'cs', 'nope'], 'an unknown sub-resource'],
    [['translations', 'p', 'c', 'cs', 'file'], 'the raw file, outside the snapshot'],
  ])('finds nothing for %j (%s)', (segments) => {
    expect(matchApiSegments(segments)).toBeNull();
  });

  it('never lets two routes claim one path', () => {
    for (const [i, a] of ROUTES.entries()) {
      for (const b of ROUTES.slice(i + 1)) {
        const overlap =
          a.pattern.length === b.pattern.length &&
          a.pattern.every(
            (part, k) => isParam(part) || isParam(b.pattern[k]!) || part === b.pattern[k],
          );
        expect(overlap, `${a.kind} and ${b.kind}`).toBe(false);
      }
    }
  });

  it('takes every language code of the catalog, and every character a slug or code may have, as a parameter', () => {
    const param = new RegExp(`^[${PARAM_CHARACTERS}]+$`);
    const catalog = JSON.parse(readFileSync(join(ROOT, 'data/languages/catalog.json'), 'utf8')) as {
      languages: [string][];
    };
    const codes = catalog.languages.map(([code]) => code);
    expect(codes.length).toBeGreaterThan(700);
    expect(codes.filter((code) => !param.test(code))).toEqual([]);
    const printable = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i));
    const allowed = printable.filter((c) => SLUG_PATTERN.test(c) || CODE_PATTERN.test(`a${c}`));
    expect(allowed.filter((c) => !param.test(c))).toEqual([]);
  });
});
