/**
 * Issue 24: pull's check resolves the content in parts, each part's component files beside the
 * rest. It held every checked file of a part until the part was resolved, where the build lets
 * each go once resolved. Now the part's files are held by its content alone, whose resolve lets
 * each go. A real process checks synthetic content whose last component alone names a language
 * of the catalog; when the resolve first asks the catalog for it, the process writes a heap
 * snapshot, which shows the checked component files still alive.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeSyntheticContent } from '../../bench/synthetic.ts';
import { tempDir } from '../helpers.ts';
import {
  propertyTargets,
  readHeapSnapshot,
  runScriptFile,
  scriptImporting,
} from '../support/heap-snapshot.ts';

const COMPONENTS = 20;
const LAST = join('projects/project-00001/components', `component-0${COMPONENTS}.yaml`);

/** Checks the content in one part, snapshotting the heap when the catalog is asked for `kab`. */
const SCRIPT = (dir: string) =>
  scriptImporting(
    {
      'catalog/catalog.ts': ['loadCatalog'],
      'pull/check.ts': ['checkInParts'],
      'pull/write.ts': ['contentOnDisk'],
    },
    `
import { writeHeapSnapshot } from 'node:v8';
const dir = ${JSON.stringify(join(dir, 'content'))};
const catalog = loadCatalog();
let snapshots = 0;
const watched = Object.create(catalog, {
  get: {
    value: (code) => {
      if (code === 'kab' && snapshots++ === 0)
        writeHeapSnapshot(${JSON.stringify(join(dir, 'resolving.heapsnapshot'))});
      return catalog.get(code);
    },
  },
});
const errors = checkInParts(dir, await contentOnDisk(dir), watched);
console.log(JSON.stringify({ errors: errors.length, snapshots }));
`,
  );

describe("pull's check lets each component file go once resolved", () => {
  const dir = tempDir();
  let found: { errors: number; snapshots: number };

  beforeAll(async () => {
    const content = join(dir, 'content');
    await writeSyntheticContent(content, { projects: 1, components: COMPONENTS, languages: 2 });
    const last = join(content, LAST);
    const text = readFileSync(last, 'utf8');
    writeFileSync(last, text.replace(/^translations:\n/m, '$&  kab:\n    translated: 1\n'));
    found = JSON.parse(runScriptFile(join(dir, 'check.mjs'), SCRIPT(dir))) as typeof found;
  }, 120_000);

  it('holds none of the files resolved before the last, while the last is resolved', () => {
    expect(found).toEqual({ errors: 0, snapshots: 1 });
    const heap = readHeapSnapshot(join(dir, 'resolving.heapsnapshot'));
    // A checked component file is the object with the keys it was given and a list of translations.
    const alive = propertyTargets(heap, 'translations', 'givenKeys').filter(
      (t) => t.kind === 'object',
    );
    // The last file, being resolved; every other is gone.
    expect(alive).toHaveLength(1);
  });
});
