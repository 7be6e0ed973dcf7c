/**
 * Issue 24: the model of a large instance in bounded memory. Component files checked in threads
 * come back as copies, and a build cache decodes into copies, so a model would hold Weblate's
 * message templates once per component and file names once per translation, and a decoded
 * model would box every counter of every translation. A real process opens synthetic content in
 * threads, then decodes its model from the build cache's form, and writes a heap snapshot after
 * each; the snapshots show each repeated text held once and the counters unboxed.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeSyntheticContent } from '../../bench/synthetic.ts';
import { ROOT, TSX, tempDir } from '../helpers.ts';

const PROJECTS = 4;
const COMPONENTS = 12;
const LANGUAGES = 3;

/** Opens the content in threads, keeps only the model, snapshots; then the same for the decoded model. */
const SCRIPT = (dir: string) => `
import { writeHeapSnapshot } from 'node:v8';
const src = ${JSON.stringify(pathToFileURL(join(ROOT, 'src')).href)};
const { openContent } = await import(src + '/resolve/open.ts');
const { encodeModel, decodeModel } = await import(src + '/cache/model-codec.ts');
const { createContext } = await import(src + '/tree/groups.ts');
const { createFingerprintCache } = await import(src + '/tree/fingerprints.ts');
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
`;

interface Snapshot {
  snapshot: {
    meta: {
      node_fields: string[];
      node_types: [string[]];
      edge_fields: string[];
      edge_types: [string[]];
    };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/**
 * In a heap snapshot: how many properties named `property` of objects that also have a property
 * named `owner` point to a string, how many distinct strings they point to, and how many numbers
 * are boxed.
 */
function count(
  file: string,
  property: string,
  owner: string,
): { uses: number; strings: number; boxed: number } {
  const heap = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const { node_fields: fields, node_types, edge_fields, edge_types } = heap.snapshot.meta;
  const [type, edgeCount] = [fields.indexOf('type'), fields.indexOf('edge_count')];
  const [edgeType, edgeName, edgeTo] = ['type', 'name_or_index', 'to_node'].map((f) =>
    edge_fields.indexOf(f),
  ) as [number, number, number];
  const named = edge_types[0].indexOf('property');
  const kind = (node: number) => node_types[0][heap.nodes[node + type]!]!;
  let [uses, boxed, edge] = [0, 0, 0];
  const targets = new Set<number>();
  for (let node = 0; node < heap.nodes.length; node += fields.length) {
    if (kind(node) === 'number') boxed++;
    let [owned, target] = [false, -1];
    const end = edge + heap.nodes[node + edgeCount]! * edge_fields.length;
    for (; edge < end; edge += edge_fields.length) {
      if (heap.edges[edge + edgeType] !== named) continue;
      const name = heap.strings[heap.edges[edge + edgeName]!];
      if (name === owner) owned = true;
      if (name === property) target = heap.edges[edge + edgeTo]!;
    }
    if (!owned || target < 0 || !kind(target).endsWith('string')) continue;
    uses++;
    targets.add(target);
  }
  return { uses, strings: targets.size, boxed };
}

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
    writeFileSync(join(dir, 'measure.mts'), SCRIPT(dir));
    const out = execFileSync(process.execPath, [...TSX, join(dir, 'measure.mts')], {
      encoding: 'utf8',
    });
    translations = Number(out);
  }, 120_000);

  it('keeps one copy of a message template for all components checked in threads', () => {
    const resolved = count(join(dir, 'resolved.heapsnapshot'), 'pull_message', 'filemask');
    expect(resolved.uses).toBeGreaterThanOrEqual(PROJECTS * COMPONENTS);
    expect(resolved.strings).toBe(1);
  });

  it('keeps one copy of each file name that translations of many components share', () => {
    for (const snapshot of ['resolved', 'decoded']) {
      const names = count(join(dir, `${snapshot}.heapsnapshot`), 'filename', 'isTemplate');
      expect(names.uses).toBeGreaterThanOrEqual(translations);
      // One per file mask and language: a few, not one per translation.
      expect(names.strings).toBeLessThan(translations / 4);
    }
  });

  it('keeps one object for the inheritable settings that components share', () => {
    // Each holds every message template twice; the content's components inherit the same few.
    const resolved = count(join(dir, 'resolved.heapsnapshot'), 'effectiveCheckFlags', 'effective');
    expect(resolved.uses).toBeLessThan((PROJECTS * COMPONENTS) / 4);
  });

  it('keeps one copy of a message template in the decoded model, its counters unboxed', () => {
    const decoded = count(join(dir, 'decoded.heapsnapshot'), 'pull_message', 'filemask');
    expect(decoded.strings).toBe(1);
    // A translation's id and fingerprints are boxed (above 2^31); its 20 counters are not.
    expect(decoded.boxed).toBeLessThan(5 * translations);
  });
});
