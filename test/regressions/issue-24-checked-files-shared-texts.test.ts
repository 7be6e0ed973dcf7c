/**
 * Issue 24: the opening of a million translations in bounded memory. Component files checked in
 * threads come back as structured clones, which share no string, so until the model was built
 * from them every prepared translation held its own copy of its author and language code, and
 * every component its own copies of Weblate's message templates. They are now kept once as each
 * chunk of checked files comes in. A real process checks synthetic content in threads and writes
 * a heap snapshot of the checked files alone; the snapshot shows each repeated text held once.
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

/** Checks the content in one thread and snapshots what the load returns. */
const SCRIPT = (dir: string) => `
import { writeHeapSnapshot } from 'node:v8';
const src = ${JSON.stringify(pathToFileURL(join(ROOT, 'src')).href)};
const { loadContent } = await import(src + '/content/load.ts');
globalThis.kept = await loadContent(${JSON.stringify(join(dir, 'content'))}, {
  threads: 1,
  mainThread: false,
});
// The last answer of a thread is let go once the event loop has turned.
await new Promise((resolve) => setImmediate(resolve));
writeHeapSnapshot(${JSON.stringify(join(dir, 'checked.heapsnapshot'))});
console.log(globalThis.kept.checkedInThreads);
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
 * named `owner` point to a string, and how many distinct strings they point to.
 */
function count(heap: Snapshot, property: string, owner: string): { uses: number; strings: number } {
  const { node_fields: fields, node_types, edge_fields, edge_types } = heap.snapshot.meta;
  const [type, edgeCount] = [fields.indexOf('type'), fields.indexOf('edge_count')];
  const [edgeType, edgeName, edgeTo] = ['type', 'name_or_index', 'to_node'].map((f) =>
    edge_fields.indexOf(f),
  ) as [number, number, number];
  const named = edge_types[0].indexOf('property');
  const kind = (node: number) => node_types[0][heap.nodes[node + type]!]!;
  let [uses, edge] = [0, 0];
  const targets = new Set<number>();
  for (let node = 0; node < heap.nodes.length; node += fields.length) {
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
  return { uses, strings: targets.size };
}

describe('checked component files hold each repeated text once', () => {
  const dir = tempDir();
  let heap: Snapshot;

  beforeAll(async () => {
    await writeSyntheticContent(join(dir, 'content'), {
      projects: PROJECTS,
      components: COMPONENTS,
      languages: LANGUAGES,
      seed: 24,
    });
    writeFileSync(join(dir, 'checked.mts'), SCRIPT(dir));
    const out = execFileSync(process.execPath, [...TSX, join(dir, 'checked.mts')], {
      encoding: 'utf8',
    });
    expect(Number(out)).toBeGreaterThan(PROJECTS * COMPONENTS);
    heap = JSON.parse(readFileSync(join(dir, 'checked.heapsnapshot'), 'utf8')) as Snapshot;
  }, 120_000);

  it('keeps one copy of each author and language code of the checked translations', () => {
    // A prepared translation is the object with a revision and a last author.
    const authors = count(heap, 'lastAuthor', 'revision');
    expect(authors.uses).toBeGreaterThanOrEqual((PROJECTS * COMPONENTS * LANGUAGES) / 2);
    // The synthetic content draws its authors from a short list.
    expect(authors.strings).toBeLessThan(authors.uses / 4);
    const codes = count(heap, 'code', 'revision');
    expect(codes.uses).toBeGreaterThanOrEqual(PROJECTS * COMPONENTS * LANGUAGES);
    expect(codes.strings).toBeLessThanOrEqual(LANGUAGES + 1);
  });

  it('keeps one copy of a message template for all checked components', () => {
    const templates = count(heap, 'pull_message', 'filemask');
    expect(templates.uses).toBeGreaterThanOrEqual(PROJECTS * COMPONENTS);
    // The defaults' own copy, and the one the checked files share.
    expect(templates.strings).toBeLessThanOrEqual(2);
  });
});
