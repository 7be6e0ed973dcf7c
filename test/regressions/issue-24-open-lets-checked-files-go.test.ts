/**
 * Issue 24: the opening of a million translations in bounded memory. Every checked component
 * file was held until the whole model stood (by the load's map of files, the content's list and
 * each component's draft), so at its end the opening held both: some 1.3 GB at a million
 * translations against 700 MB for the model. Now a build or a publish opens the content without
 * keeping the files, and each component file is let go once resolved; a session still keeps them.
 * A real process opens synthetic content and, once every component is resolved and the memory
 * collected, counts the checked component files still alive.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeSyntheticContent } from '../../bench/synthetic.ts';
import { tempDir } from '../helpers.ts';
import { runScriptFile, scriptImporting } from '../support/heap-snapshot.ts';

const COMPONENTS = 3 * 10;

/**
 * Loads the content, then resolves it as openContent does (its files let go, or kept as a session
 * keeps them), counting the component files alive when every component is resolved; then
 * openContent itself, with and without keeping its files.
 */
const SCRIPT = (content: string) =>
  scriptImporting(
    {
      'content/load.ts': ['loadContent'],
      'resolve/resolve.ts': ['resolveContent'],
      'resolve/open.ts': ['openContent', 'readText'],
      'catalog/catalog.ts': ['loadCatalog'],
    },
    `
const dir = ${JSON.stringify(content)};
async function aliveWhenResolved(keepFiles) {
  const loaded = await loadContent(dir, { threads: 0 });
  const refs = loaded.content.components.map((checked) => new WeakRef(checked.data.translations));
  if (!keepFiles) loaded.files.clear();
  // A WeakRef holds its target until the job that made it is over.
  await new Promise((resolve) => setImmediate(resolve));
  let alive = -1;
  const onComponents = () => {
    globalThis.gc();
    alive = refs.filter((ref) => ref.deref() !== undefined).length;
  };
  const resolved = resolveContent(loaded.content, {}, loadCatalog(), readText, dir, { onComponents });
  if (!resolved.ok) throw new Error(JSON.stringify(resolved.errors));
  return { alive, files: refs.length, translations: resolved.model.translations.length };
}
const released = await aliveWhenResolved(false);
const held = await aliveWhenResolved(true);
const opened = await openContent(dir);
const kept = await openContent(dir, { keepFiles: true });
console.log(JSON.stringify({
  released,
  held,
  openedFiles: opened.ok ? opened.files : 'failed',
  keptFiles: kept.ok ? kept.files.size : 'failed',
  sameModel: JSON.stringify(opened.model.translations.map((t) => [t.id, t.counters])) ===
    JSON.stringify(kept.model.translations.map((t) => [t.id, t.counters])),
}));
`,
  );

interface Found {
  released: { alive: number; files: number; translations: number };
  held: { alive: number; files: number; translations: number };
  openedFiles: null;
  keptFiles: number;
  sameModel: boolean;
}

describe('the opening lets each checked component file go once resolved', () => {
  const dir = tempDir();
  let found: Found;

  beforeAll(async () => {
    const content = join(dir, 'content');
    await writeSyntheticContent(content, { projects: 3, components: 10, languages: 4, seed: 24 });
    const out = runScriptFile(join(dir, 'release.mjs'), SCRIPT(content), {
      flags: ['--expose-gc'],
    });
    found = JSON.parse(out) as Found;
  }, 120_000);

  it('holds no component file once every component is resolved, when told to let them go', () => {
    expect(found.released.files).toBe(COMPONENTS);
    expect(found.released.alive).toBe(0);
    expect(found.released.translations).toBe(found.held.translations);
  });

  it('holds every component file when not told to, as a session needs them', () => {
    expect(found.held.alive).toBe(COMPONENTS);
  });

  it('keeps the checked files beside the model only when asked to, the model the same', () => {
    expect(found.openedFiles).toBeNull();
    // Every content file: the components, their projects and site.yaml.
    expect(found.keptFiles).toBeGreaterThan(COMPONENTS);
    expect(found.sameModel).toBe(true);
  });
});
