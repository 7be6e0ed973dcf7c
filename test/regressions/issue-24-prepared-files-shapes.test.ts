/**
 * Issue 24: the opening of a million translations in bounded memory. Each component file is
 * prepared (content/prepare.ts) before the model is built from it; a prepared translation made
 * with an object spread, and a component's settings spread from the defaults, each had a hidden
 * class of its own once the spread had seen a few shapes (about 400 bytes more per translation).
 * A real process prepares synthetic content on its main thread and asks V8 how many hidden classes
 * its prepared translations, components and settings have.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeSyntheticContent } from '../../bench/synthetic.ts';
import { tempDir } from '../helpers.ts';
import { runScriptFile, scriptImporting } from '../support/heap-snapshot.ts';

/** Loads the content inline and prints, per kind of prepared object, how many there are and how many hidden classes they have. */
const SCRIPT = (content: string) =>
  scriptImporting(
    { 'content/load.ts': ['loadContent'] },
    `
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
`,
  );

type Classes = { objects: number; classes: number };

describe('prepared component files share their hidden classes', () => {
  const dir = tempDir();
  let found: Record<'components' | 'settings' | 'translations', Classes>;

  beforeAll(async () => {
    const content = join(dir, 'content');
    await writeSyntheticContent(content, { projects: 3, components: 20, languages: 4, seed: 24 });
    const out = runScriptFile(join(dir, 'shapes.mjs'), SCRIPT(content), {
      flags: ['--allow-natives-syntax'],
    });
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
