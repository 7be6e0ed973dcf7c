/**
 * Issue 25, item 4: every trait of the release table is exercised. A trait names its test: a file
 * of a release's golden, which must differ from the same path in the golden of the newest earlier
 * release without the trait (or be missing there), or a test file that names the trait.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasTrait, TRAITS, type TraitName } from '../../src/model/releases.ts';
import { ROOT } from '../helpers.ts';

const GOLDEN = /^test\/golden\/release-([^/]+)\/(.+)$/;

/** The releases with a golden, oldest first. */
const goldenReleases = readdirSync(join(ROOT, 'test/golden'))
  .filter((name) => name.startsWith('release-'))
  .map((name) => name.slice('release-'.length))
  .sort((a, b) => compareNumbers(a.split('.').map(Number), b.split('.').map(Number)));

describe.each(Object.keys(TRAITS) as TraitName[])('trait %s', (trait) => {
  const test = TRAITS[trait].test;

  it('names a test that exists', () => {
    expect(existsSync(join(ROOT, test))).toBe(true);
  });

  it('is visible in its test', () => {
    const golden = GOLDEN.exec(test);
    if (!golden) {
      expect(readFileSync(join(ROOT, test), 'utf8')).toContain(trait);
      return;
    }
    const [, release, path] = golden;
    expect(hasTrait(release!, trait)).toBe(true);
    const before = goldenReleases.filter((r) => !hasTrait(r, trait)).at(-1);
    expect(before, 'a golden of a release without the trait').toBeDefined();
    const earlier = join(ROOT, 'test/golden', `release-${before!}`, path!);
    const now = readFileSync(join(ROOT, test));
    expect(existsSync(earlier) && readFileSync(earlier).equals(now)).toBe(false);
  });
});

function compareNumbers(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
  }
  return 0;
}
