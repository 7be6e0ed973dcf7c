/**
 * Runs a script in a process of its own, and reads a heap snapshot it wrote
 * (`v8.writeHeapSnapshot`): what objects point to by a named property, to count how many copies
 * of a text or how large an object the model keeps.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { compiledModule } from '../helpers.ts';

export interface HeapSnapshot {
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

/** What an object found points to by a property: its kind, own size, place in the snapshot and (a string's) text. */
export interface PropertyTarget {
  kind: string;
  size: number;
  node: number;
  text: string;
}

export function readHeapSnapshot(file: string): HeapSnapshot {
  return JSON.parse(readFileSync(file, 'utf8')) as HeapSnapshot;
}

/** What the objects that have a property named `owner` point to by the property named `property`. */
export function propertyTargets(
  heap: HeapSnapshot,
  property: string,
  owner: string,
): PropertyTarget[] {
  const { node_fields: fields, edge_fields } = heap.snapshot.meta;
  const edgeCount = fields.indexOf('edge_count');
  const [edgeType, edgeName, edgeTo] = ['type', 'name_or_index', 'to_node'].map((f) =>
    edge_fields.indexOf(f),
  ) as [number, number, number];
  const named = heap.snapshot.meta.edge_types[0].indexOf('property');
  const found: PropertyTarget[] = [];
  let edge = 0;
  for (let node = 0; node < heap.nodes.length; node += fields.length) {
    let [owned, target] = [false, -1];
    const end = edge + heap.nodes[node + edgeCount]! * edge_fields.length;
    for (; edge < end; edge += edge_fields.length) {
      if (heap.edges[edge + edgeType] !== named) continue;
      const name = heap.strings[heap.edges[edge + edgeName]!];
      if (name === owner) owned = true;
      if (name === property) target = heap.edges[edge + edgeTo]!;
    }
    if (owned && target >= 0) found.push(describeNode(heap, target));
  }
  return found;
}

/** How many of `targets` are strings, and how many distinct strings they are. */
export function stringUses(targets: readonly PropertyTarget[]): { uses: number; strings: number } {
  const strings = targets.filter((t) => t.kind.endsWith('string'));
  return { uses: strings.length, strings: new Set(strings.map((t) => t.node)).size };
}

/** How many numbers the heap holds boxed (outside the small-integer range, or as a field's box). */
export function boxedNumbers(heap: HeapSnapshot): number {
  const fields = heap.snapshot.meta.node_fields;
  const type = fields.indexOf('type');
  const number = heap.snapshot.meta.node_types[0].indexOf('number');
  let boxed = 0;
  for (let node = 0; node < heap.nodes.length; node += fields.length)
    if (heap.nodes[node + type] === number) boxed++;
  return boxed;
}

/**
 * The text of a script for a process of its own, which takes `imports` (names by module path
 * under src/, compiled) before `body`: a heap measured there holds nothing of the test runner's.
 */
export function scriptImporting(
  imports: Readonly<Record<string, readonly string[]>>,
  body: string,
): string {
  const lines = Object.entries(imports).map(
    ([module, names]) =>
      `import { ${names.join(', ')} } from ${JSON.stringify(compiledModule(`src/${module}`))};`,
  );
  return `${lines.join('\n')}\n${body}`;
}

/** What a script that opens content and puts its model through the build cache's form takes. */
export const MODEL_CODEC_IMPORTS = {
  'resolve/open.ts': ['openContent'],
  'cache/model-codec.ts': ['encodeModel', 'decodeModel'],
  'tree/groups.ts': ['createContext'],
  'tree/fingerprints.ts': ['createFingerprintCache'],
};

/** Writes `script` (JavaScript) to `file` and runs it with node, `flags` and `args`: what it prints. */
export function runScriptFile(
  file: string,
  script: string,
  options: { flags?: readonly string[]; args?: readonly string[] } = {},
): string {
  writeFileSync(file, script);
  const { flags = [], args = [] } = options;
  return execFileSync(process.execPath, [...flags, file, ...args], { encoding: 'utf8' });
}

// --- internal ---

function describeNode(heap: HeapSnapshot, node: number): PropertyTarget {
  const fields = heap.snapshot.meta.node_fields;
  const [type, name, size] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [
    number,
    number,
    number,
  ];
  return {
    kind: heap.snapshot.meta.node_types[0][heap.nodes[node + type]!]!,
    size: heap.nodes[node + size]!,
    node,
    text: heap.strings[heap.nodes[node + name]!]!,
  };
}
