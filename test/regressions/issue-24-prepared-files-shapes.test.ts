/**
 * Issue 24: the opening of a million translations in bounded memory. Each component file is
 * prepared (content/prepare.ts) before the model is built from it; a prepared translation made
 * with an object spread, and a component's settings spread from the defaults, each had a hidden
 * class of its own once the spread had seen a few shapes (about 400 bytes more per translation).
 * A real process prepares synthetic content on its main thread and asks V8 how many hidden classes
 * its prepared translations, components and settings have.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeSyntheticContent } from '../../bench/synthetic.ts';
import { ROOT, TSX, tempDir } from '../helpers.ts';

/** Loads the content inline and prints, per kind of prepared object, how many there are and how many hidden classes they have. */
const SCRIPT = (content: string) => `
const src = ${JSON.stringify(pathToFileURL(join(ROOT, 'src')).href)};
const { loadContent } = await import(src + '/content/load.ts');
const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)');
function classes(objects) {
  const seen = [];
  for (const object of objects) if (!seen.some((other) => sameMap(other, object))) seen.push(object);
  return { objects: objects.length, classes: seen.length };
}
const loaded = await loadContent(${JSON.stringify(content)}, { threads: 0 });
const components = loaded.content.components.map((checked) => checked.data);
console.log(JSON.stringify({
  components: classes(components),
  settings: classes(components.map((component) => component.settings)),
  translations: classes(components.flatMap((component) => component.translations)),
}));
`;

type Classes = { objects: number; classes: number };

describe('prepared component files share their hidden classes', () => {
  const dir = tempDir();
  let found: Record<'components' | 'settings' | 'translations', Classes>;

  beforeAll(async () => {
    const content = join(dir, 'content');
    await writeSyntheticContent(content, { projects: 3, components: 20, languages: 4, seed: 24 });
    writeFileSync(join(dir, 'shapes.mts'), SCRIPT(content));
    const out = execFileSync(
      process.execPath,
      ['--allow-natives-syntax', ...TSX, join(dir, 'shapes.mts')],
      { encoding: 'utf8' },
    );
    found = JSON.parse(out) as typeof found;
  }, 120_000);

  it('gives the translations of every component a few hidden classes, not one each', () => {
    expect(found.translations.objects).toBeGreaterThanOrEqual(3 * 20 * 4);
    // A field seen first as null and later as a string moves its objects to a new class: a few.
    expect(found.translations.classes).toBeLessThanOrEqual(4);
  });

  it('gives every component and its settings a few hidden classes, not one each', () => {
    expect(found.components.objects).toBe(3 * 20);
    expect(found.components.classes).toBeLessThanOrEqual(4);
    expect(found.settings.classes).toBeLessThanOrEqual(4);
  });
});
