/**
 * Issue 24: the model of a million translations in bounded memory. Each translation held its
 * counters as a plain object of 21 fields (some 200 bytes without pointer compression), and the
 * revision and time of change of a file checked on the main thread, or decoded from the build
 * cache, as a view of a larger string (some 40 bytes more each). A real process opens synthetic
 * content on the main thread, then decodes its model from the build cache's form, and writes a
 * heap snapshot after each; the snapshots show flat texts, and no object or box of its own for a
 * translation's counters, time of change, id or fingerprint: they are kept in a row of a shared
 * array. The counters read the same after the round trip through the cache, field by field. The translations of a
 * component mostly show one revision (its repository's), held once rather than once each.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeSyntheticContent } from '../../bench/synthetic.ts';
import { decodeModel, encodeModel } from '../../src/cache/model-codec.ts';
import { isPacked } from '../../src/model/packed-translations.ts';
import { openContent } from '../../src/resolve/open.ts';
import { createContext } from '../../src/tree/groups.ts';
import { createFingerprintCache } from '../../src/tree/fingerprints.ts';
import { tempDir } from '../helpers.ts';
import {
  type HeapSnapshot,
  MODEL_CODEC_IMPORTS,
  propertyTargets,
  readHeapSnapshot,
  runScriptFile,
  scriptImporting,
} from '../support/heap-snapshot.ts';

/**
 * Opens the content on the main thread, keeps only the model, snapshots, and writes the model in
 * the build cache's form; a second process reads that back and snapshots the decoded model alone
 * (in the first, V8's allocation sites may keep a resolved translation, and through it the model).
 */
const SCRIPT = (dir: string) =>
  scriptImporting(
    MODEL_CODEC_IMPORTS,
    `
import { readFileSync, writeFileSync } from 'node:fs';
import { deserialize, serialize, writeHeapSnapshot } from 'node:v8';
const partsFile = ${JSON.stringify(join(dir, 'model.parts'))};
if (process.argv[2] === 'open') {
  const opened = await openContent(${JSON.stringify(join(dir, 'content'))}, { threads: { threads: 0 } });
  if (!opened.ok) throw new Error(JSON.stringify(opened.errors));
  globalThis.kept = opened.model;
  writeHeapSnapshot(${JSON.stringify(join(dir, 'resolved.heapsnapshot'))});
  const { fingerprints, aggregates } = createContext(opened.model, createFingerprintCache());
  writeFileSync(partsFile, serialize([...encodeModel(opened.model, fingerprints, aggregates)]));
} else {
  globalThis.kept = decodeModel(deserialize(readFileSync(partsFile))).model;
  writeHeapSnapshot(${JSON.stringify(join(dir, 'decoded.heapsnapshot'))});
  console.log(globalThis.kept.translations.length);
}
`,
  );

/** Runs SCRIPT's two steps; the number of translations of the decoded model. */
function snapshotModels(dir: string): number {
  const run = (step: string) =>
    runScriptFile(join(dir, 'measure.mjs'), SCRIPT(dir), { args: [step] });
  run('open');
  return Number(run('decode'));
}

describe('the model holds each translation compactly', () => {
  const dir = tempDir();
  let translations = 0;

  beforeAll(async () => {
    await writeSyntheticContent(join(dir, 'content'), {
      projects: 3,
      components: 8,
      languages: 3,
      seed: 24,
    });
    translations = snapshotModels(dir);
  }, 120_000);

  it('keeps its numbers in a row, not in objects of their own, resolved and decoded', () => {
    for (const snapshot of ['resolved', 'decoded']) {
      const heap = readHeapSnapshot(join(dir, `${snapshot}.heapsnapshot`));
      // A translation is named by its language code; what it points to is texts and references
      // (an object literal's template, which V8 keeps, points to nothing: undefined).
      const owned = (property: string) =>
        propertyTargets(heap, property, 'languageCode').filter((t) => t.kind !== 'hidden');
      expect(owned('revision').length, snapshot).toBeGreaterThanOrEqual(translations);
      for (const property of ['counters', 'id', 'contentFingerprint', 'isSource'])
        expect(owned(property), `${snapshot}: ${property}`).toEqual([]);
      // Nor are times of change held as texts.
      expect(timesOfChange(heap), snapshot).toBeLessThan(translations / 10);
    }
  });

  it('keeps each revision as a flat string of its own', () => {
    for (const snapshot of ['resolved', 'decoded']) {
      const heap = readHeapSnapshot(join(dir, `${snapshot}.heapsnapshot`));
      const texts = propertyTargets(heap, 'revision', 'languageCode');
      expect(texts.length).toBeGreaterThanOrEqual(translations);
      // Not a view of the file's text or of the cache's joined texts, nor a tree of parts.
      const views = texts.filter(
        (t) => t.kind === 'sliced string' || t.kind === 'concatenated string',
      );
      expect(views.length, snapshot).toBe(0);
      expect(texts.filter((t) => t.kind === 'string').length).toBeGreaterThan(translations / 2);
    }
  });

  it('reads the same counters after a round trip through the build cache', async () => {
    const opened = await openContent(join(dir, 'content'), { threads: { threads: 0 } });
    if (!opened.ok) throw new Error('the content does not open');
    const { fingerprints, aggregates } = createContext(opened.model, createFingerprintCache());
    const decoded = decodeModel([...encodeModel(opened.model, fingerprints, aggregates)!]).model;
    expect(decoded.translations.length).toBe(opened.model.translations.length);
    decoded.translations.forEach((t, i) => {
      const before = opened.model.translations[i]!;
      expect(isPacked(t.counters) && isPacked(before.counters)).toBe(true);
      // The views keep their rows private: compared field by field, not as objects.
      expect(Object.keys(countersOf(t.counters))).toHaveLength(21);
      expect(countersOf(t.counters)).toEqual(countersOf(before.counters));
    });
  });
});

describe('the model holds a revision that translations of a component share once', () => {
  const dir = tempDir();
  let translations = 0;
  const COMPONENTS = 2 * 6;

  beforeAll(async () => {
    await writeSyntheticContent(join(dir, 'content'), {
      projects: 2,
      components: 6,
      languages: 4,
      seed: 24,
    });
    // As Weblate shows them: every translation of a component at its repository's revision.
    for (const project of readdirSync(join(dir, 'content/projects'))) {
      const folder = join(dir, 'content/projects', project, 'components');
      for (const name of readdirSync(folder)) {
        const file = join(folder, name);
        const revision = `${project}-${name}`.padEnd(40, '0');
        const text = readFileSync(file, 'utf8');
        writeFileSync(file, text.replace(/revision: \S+/g, `revision: ${revision}`));
      }
    }
    translations = snapshotModels(dir);
  }, 120_000);

  it('keeps one copy per component, resolved and decoded', () => {
    for (const snapshot of ['resolved', 'decoded']) {
      const revisions = propertyTargets(
        readHeapSnapshot(join(dir, `${snapshot}.heapsnapshot`)),
        'revision',
        'languageCode',
      );
      expect(revisions.length).toBeGreaterThanOrEqual(translations);
      // Source translations not listed in the file show none ('').
      const strings = revisions.filter((r) => r.kind === 'string' && r.text !== '');
      expect(strings.length, snapshot).toBeGreaterThan(translations / 2);
      expect(new Set(strings.map((r) => r.node)).size, snapshot).toBeLessThanOrEqual(COMPONENTS);
    }
  });
});

/** How many strings of the heap are times of change as the model keeps them. */
function timesOfChange(heap: HeapSnapshot): number {
  const fields = heap.snapshot.meta.node_fields;
  const [type, name] = [fields.indexOf('type'), fields.indexOf('name')];
  const kinds = heap.snapshot.meta.node_types[0];
  let found = 0;
  for (let node = 0; node < heap.nodes.length; node += fields.length)
    if (
      kinds[heap.nodes[node + type]!]!.endsWith('string') &&
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/.test(heap.strings[heap.nodes[node + name]!]!)
    )
      found++;
  return found;
}

/** Every counter by name, read through whatever holds them. */
function countersOf(counters: object): Record<string, unknown> {
  const names = [
    ...Object.keys(counters),
    ...Object.getOwnPropertyNames(Object.getPrototypeOf(counters)),
  ].filter((name) => name !== 'constructor');
  return Object.fromEntries(
    names.map((name) => [name, (counters as Record<string, unknown>)[name]]),
  );
}
