/**
 * Issue 24: the model of a large instance in bounded memory. Component files checked in threads
 * come back as copies, and a build cache decodes into copies, so a model would hold Weblate's
 * message templates once per component and file names once per translation, and a decoded
 * model would box every counter of every translation. A real process opens synthetic content in
 * threads, then decodes its model from the build cache's form, and writes a heap snapshot after
 * each; the snapshots show each repeated text held once and the counters unboxed.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeSyntheticContent } from '../../bench/synthetic.ts';
import { tempDir } from '../helpers.ts';
import {
  boxedNumbers,
  MODEL_CODEC_IMPORTS,
  propertyTargets,
  readHeapSnapshot,
  runScriptFile,
  scriptImporting,
  stringUses,
} from '../support/heap-snapshot.ts';

const PROJECTS = 4;
const COMPONENTS = 12;
const LANGUAGES = 3;

/** Opens the content in threads, keeps only the model, snapshots; then the same for the decoded model. */
const SCRIPT = (dir: string) =>
  scriptImporting(
    MODEL_CODEC_IMPORTS,
    `
import { writeHeapSnapshot } from 'node:v8';
const threads = { threads: 1, mainThread: false };
async function open() {
  const opened = await openContent(${JSON.stringify(join(dir, 'content'))}, { threads });
  if (!opened.ok) throw new Error(JSON.stringify(opened.errors));
  return opened.model;
}
function encode(model) {
  const { fingerprints, aggregates } = createContext(model, createFingerprintCache());
  return [...encodeModel(model, fingerprints, aggregates)];
}
let model = await open();
// The last answer of a thread is let go once the event loop has turned.
await new Promise((resolve) => setImmediate(resolve));
globalThis.kept = model;
writeHeapSnapshot(${JSON.stringify(join(dir, 'resolved.heapsnapshot'))});
const parts = encode(model);
model = null;
globalThis.kept = decodeModel(parts).model;
writeHeapSnapshot(${JSON.stringify(join(dir, 'decoded.heapsnapshot'))});
const { translations } = globalThis.kept;
console.log(translations.length);
`,
  );

describe('the model of many components holds each repeated text once', () => {
  const dir = tempDir();
  let translations = 0;

  beforeAll(async () => {
    await writeSyntheticContent(join(dir, 'content'), {
      projects: PROJECTS,
      components: COMPONENTS,
      languages: LANGUAGES,
      seed: 24,
    });
    const out = runScriptFile(join(dir, 'measure.mjs'), SCRIPT(dir));
    translations = Number(out);
  }, 120_000);

  it('keeps one copy of a message template for all components checked in threads', () => {
    const resolved = stringUses(
      propertyTargets(
        readHeapSnapshot(join(dir, 'resolved.heapsnapshot')),
        'pull_message',
        'filemask',
      ),
    );
    expect(resolved.uses).toBeGreaterThanOrEqual(PROJECTS * COMPONENTS);
    expect(resolved.strings).toBe(1);
  });

  it('keeps one copy of each file name that translations of many components share', () => {
    for (const snapshot of ['resolved', 'decoded']) {
      const names = stringUses(
        propertyTargets(
          readHeapSnapshot(join(dir, `${snapshot}.heapsnapshot`)),
          'filename',
          'languageCode',
        ),
      );
      expect(names.uses).toBeGreaterThanOrEqual(translations);
      // One per file mask and language: a few, not one per translation.
      expect(names.strings).toBeLessThan(translations / 4);
    }
  });

  it('keeps one object for the inheritable settings that components share', () => {
    // Each holds every message template twice; the content's components inherit the same few.
    const resolved = stringUses(
      propertyTargets(
        readHeapSnapshot(join(dir, 'resolved.heapsnapshot')),
        'effectiveCheckFlags',
        'effective',
      ),
    );
    expect(resolved.uses).toBeLessThan((PROJECTS * COMPONENTS) / 4);
  });

  it('keeps one copy of a message template in the decoded model, its counters unboxed', () => {
    const heap = readHeapSnapshot(join(dir, 'decoded.heapsnapshot'));
    expect(stringUses(propertyTargets(heap, 'pull_message', 'filemask')).strings).toBe(1);
    // A translation's id and fingerprints are boxed (above 2^31); its 20 counters are not.
    expect(boxedNumbers(heap)).toBeLessThan(5 * translations);
  });
});
