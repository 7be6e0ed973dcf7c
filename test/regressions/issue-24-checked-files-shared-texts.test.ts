/**
 * Issue 24: the opening of a million translations in bounded memory. Component files checked in
 * threads come back as structured clones, which share no string, so until the model was built
 * from them every prepared translation held its own copy of its author and language code, and
 * every component its own copies of Weblate's message templates. They are now kept once as each
 * chunk of checked files comes in. A real process checks synthetic content in threads and writes
 * a heap snapshot of the checked files alone; the snapshot shows each repeated text held once.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeSyntheticContent } from '../../bench/synthetic.ts';
import { tempDir } from '../helpers.ts';
import {
  propertyTargets,
  readHeapSnapshot,
  runScriptFile,
  scriptImporting,
  stringUses,
  type HeapSnapshot,
} from '../support/heap-snapshot.ts';

const PROJECTS = 4;
const COMPONENTS = 12;
const LANGUAGES = 3;

/** Checks the content in one thread and snapshots what the load returns. */
const SCRIPT = (dir: string) =>
  scriptImporting(
    { 'content/load.ts': ['loadContent'] },
    `
import { writeHeapSnapshot } from 'node:v8';
globalThis.kept = await loadContent(${JSON.stringify(join(dir, 'content'))}, {
  threads: 1,
  mainThread: false,
});
// The last answer of a thread is let go once the event loop has turned.
await new Promise((resolve) => setImmediate(resolve));
writeHeapSnapshot(${JSON.stringify(join(dir, 'checked.heapsnapshot'))});
console.log(globalThis.kept.checkedInThreads);
`,
  );

describe('checked component files hold each repeated text once', () => {
  const dir = tempDir();
  let heap: HeapSnapshot;

  beforeAll(async () => {
    await writeSyntheticContent(join(dir, 'content'), {
      projects: PROJECTS,
      components: COMPONENTS,
      languages: LANGUAGES,
      seed: 24,
    });
    const out = runScriptFile(join(dir, 'checked.mjs'), SCRIPT(dir));
    expect(Number(out)).toBeGreaterThan(PROJECTS * COMPONENTS);
    heap = readHeapSnapshot(join(dir, 'checked.heapsnapshot'));
  }, 120_000);

  it('keeps one copy of each author and language code of the checked translations', () => {
    // A prepared translation is the object with a revision and a last author.
    const authors = stringUses(propertyTargets(heap, 'lastAuthor', 'revision'));
    expect(authors.uses).toBeGreaterThanOrEqual((PROJECTS * COMPONENTS * LANGUAGES) / 2);
    // The synthetic content draws its authors from a short list.
    expect(authors.strings).toBeLessThan(authors.uses / 4);
    const codes = stringUses(propertyTargets(heap, 'code', 'revision'));
    expect(codes.uses).toBeGreaterThanOrEqual(PROJECTS * COMPONENTS * LANGUAGES);
    expect(codes.strings).toBeLessThanOrEqual(LANGUAGES + 1);
  });

  it('keeps one copy of a message template for all checked components', () => {
    const templates = stringUses(propertyTargets(heap, 'pull_message', 'filemask'));
    expect(templates.uses).toBeGreaterThanOrEqual(PROJECTS * COMPONENTS);
    // The defaults' own copy, and the one the checked files share.
    expect(templates.strings).toBeLessThanOrEqual(2);
  });
});
