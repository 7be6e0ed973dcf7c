/**
 * A fast path for the shape most content files have: block maps, one key a
 * line, each value a plain or simply quoted scalar or a nested map. Such a
 * text reads here without the YAML parser's tokens, document and nodes,
 * which cost most of checking a file; comments on lines of their own are
 * passed over. Anything else (comments after a value, lists, flow
 * collections, anchors, tags, numbers other than plain integers, any doubt)
 * gives undefined and is read by yaml.ts, so the fast path only ever returns
 * the value the parser would and every problem is still the parser's own.
 */

/** The value of a text of plain block maps, or undefined when yaml.ts must read it. */
export function readPlainMap(text: string): Record<string, unknown> | undefined {
  if (UNUSUAL_CHARACTER.test(text)) return undefined;
  const root: Record<string, unknown> = {};
  // The open maps, innermost last, with the indent of their keys.
  const open: { map: Record<string, unknown>; indent: number }[] = [{ map: root, indent: 0 }];
  // A map whose key was just read: its first line sets its indent.
  let opened: Record<string, unknown> | null = null;
  const line = new RegExp(KEY_LINE.source, 'y');
  const comment = new RegExp(COMMENT_LINE.source, 'y');
  while (line.lastIndex < text.length) {
    if (text.charCodeAt(line.lastIndex) === NEWLINE) {
      line.lastIndex++;
      continue;
    }
    const start = line.lastIndex;
    const match = line.exec(text);
    if (!match) {
      // A comment on a line of its own, at any indent, says nothing of the maps around it.
      comment.lastIndex = start;
      if (!comment.test(text)) return undefined;
      line.lastIndex = comment.lastIndex;
      continue;
    }
    const indent = match[1]!.length;
    const key = match[2]!;
    if (opened) {
      if (indent <= open.at(-1)!.indent || open.length >= MAX_OPEN_MAPS) return undefined;
      open.push({ map: opened, indent });
      opened = null;
    } else {
      while (open.length > 1 && indent < open.at(-1)!.indent) open.pop();
      if (indent !== open.at(-1)!.indent) return undefined;
    }
    const map = open.at(-1)!.map;
    if (Object.hasOwn(map, key) || SPECIAL_KEY.test(key)) return undefined;
    if (match[3] === undefined) {
      opened = {};
      map[key] = opened;
      continue;
    }
    const value = scalarValue(match[3]);
    if (value === undefined) return undefined;
    map[key] = value;
  }
  return opened || Object.keys(root).length === 0 ? undefined : root;
}

// --- internal ---

/** Far below yaml.ts's nesting limit: deeper files are read there. */
const MAX_OPEN_MAPS = 20;

/** Tabs, carriage returns, control characters and byte-order marks: left to the parser. */
// eslint-disable-next-line no-control-regex
const UNUSUAL_CHARACTER = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/;

/** `key:` (a nested map follows) or `key: value`, the key a plain word. */
const KEY_LINE = /( *)([A-Za-z_][A-Za-z0-9_-]{0,99}):(?: (.*))?(?:\n|$)/;

/** A line of spaces, then `#` and anything. */
const COMMENT_LINE = / *#.*(?:\n|$)/;

const NEWLINE = 10;

/** Keys the core schema reads as something other than their text, and the one a plain object would not keep. */
const SPECIAL_KEY = /^(?:[Nn]ull|NULL|[Tt]rue|TRUE|[Ff]alse|FALSE|__proto__)$/;

const DOUBLE_QUOTED = /^"([^"\\]*)"$/;
const SINGLE_QUOTED = /^'([^']*)'$/;

/** A plain scalar that is surely one: no indicator first, no `: ` or ` #` inside, no space or `:` last. */
const PLAIN = /^[^\s\-?:,[\]{}#&*!|>'"%@`](?:[^#]*[^\s:])?$/;

/** What the core schema reads as null, true or false, and as numbers (only some integers are read here). */
const NULL = /^(?:~|[Nn]ull|NULL)$/;
const BOOLEAN = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const MAYBE_NOT_TEXT = /[0-9+.~nNtTfF]/;
const SAFE_INTEGER = /^(?:0|[1-9][0-9]{0,14})$/;
const OTHER_NUMBER =
  /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;

function scalarValue(text: string): unknown {
  const first = text[0];
  if (first === '"' || first === "'") return (first === '"' ? DOUBLE_QUOTED : SINGLE_QUOTED).exec(text)?.[1];
  // PLAIN lets a last `#` through, which after a space starts a comment.
  if (!PLAIN.test(text) || text.includes(': ') || text.endsWith(' #')) return undefined;
  // Only a text starting so can be read as a number, null, true or false.
  if (!MAYBE_NOT_TEXT.test(first!)) return text;
  if (NULL.test(text)) return null;
  if (BOOLEAN.test(text)) return first === 't' || first === 'T';
  if (SAFE_INTEGER.test(text)) return Number(text);
  return OTHER_NUMBER.test(text) ? undefined : text;
}
