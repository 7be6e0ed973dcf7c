/**
 * Pins a field path inside a YAML document to a line and column. When the
 * field is absent (a required key left out), it points at the nearest parent
 * that exists; for an unknown key, at the key itself.
 */
import { isMap, isPair, isScalar, isSeq, type Node } from 'yaml';
import type { YamlSource } from './yaml.ts';

export type FieldPath = readonly (string | number)[];

interface Position {
  line: number;
  column: number;
}

/** Where `path` is in the document; `atKey` points at the key of the last segment instead of its value. */
export function locate(source: YamlSource, path: FieldPath, atKey = false): Position {
  let node: unknown = source.document.contents;
  let best = startOf(node) ?? 0;
  for (let i = 0; i < path.length; i++) {
    const segment = path[i]!;
    const last = i === path.length - 1;
    if (isMap(node)) {
      const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(segment));
      if (!pair) break;
      const keyStart = startOf(pair.key);
      const valueStart = startOf(pair.value);
      if (last && atKey) {
        best = keyStart ?? best;
        break;
      }
      best = valueStart ?? keyStart ?? best;
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number') {
      const item = node.items[segment];
      const start = startOf(item);
      if (start === undefined) break;
      best = start;
      node = item;
    } else {
      break;
    }
  }
  const { line, col } = source.lineCounter.linePos(best);
  return { line, column: col };
}

/** The dotted form of a field path: `translations.cs.fuzzy`, `enforced_checks[1]`. */
export function formatPath(path: FieldPath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out ? `.${segment}` : segment;
  }
  return out;
}

// --- internal ---

function startOf(node: unknown): number | undefined {
  const range = (node as Node | null | undefined)?.range;
  return range ? range[0] : undefined;
}
