/**
 * The CSV that Weblate's `?format=csv` answers, made from the JSON text of the same answer:
 * djangorestframework-csv's CSVRenderer behind Weblate's FlatBaseRenderer. A list page gives its
 * `results`; each item is flattened (nested keys joined with `.`, list items by index); the header
 * is every key, sorted; a missing or null value is empty; rows end with CRLF, as Python's csv
 * writer ends them, and a field is quoted only when it holds a comma, a quote or a line break.
 */
import { internalError } from '../errors.ts';

/** CSV text of a JSON document (as the serializer writes it); empty for an empty list. */
export function csvOfJson(text: string): string {
  const parsed = new JsonReader(text).document();
  const data = isObject(parsed) && parsed.has('results') ? parsed.get('results')! : parsed;
  const items = Array.isArray(data) ? data : [data];
  if (items.length === 0) return '';
  const rows = items.map((item) => flatten(item));
  const header = [...new Set(rows.flatMap((row) => [...row.keys()]))].sort(byCodePoint);
  const lines = [header, ...rows.map((row) => header.map((key) => cellText(row.get(key))))];
  return lines.map((cells) => cells.map(quoteCell).join(',') + '\r\n').join('');
}

// --- internal ---

/** A number as its JSON text, which is already what Python's str() prints (`98.3`, `0.0`, `120`). */
class NumberText {
  constructor(readonly text: string) {}
}

type Value = null | boolean | string | NumberText | Value[] | Map<string, Value>;

function isObject(value: Value): value is Map<string, Value> {
  return value instanceof Map;
}

/** One level deep: `{'': value}` for a scalar, otherwise each leaf under its joined key. */
function flatten(value: Value): Map<string, Value> {
  if (!Array.isArray(value) && !isObject(value)) return new Map([['', value]]);
  const flat = new Map<string, Value>();
  const entries = Array.isArray(value) ? value.map((item, i) => [String(i), item] as const) : value;
  for (const [key, item] of entries) {
    for (const [inner, leaf] of flatten(item)) flat.set(inner ? `${key}.${inner}` : key, leaf);
  }
  return flat;
}

/** A cell as Python's csv writer prints the value: None empty, booleans `True`/`False`. */
function cellText(value: Value | undefined): string {
  if (value === undefined || value === null) return '';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (value instanceof NumberText) return value.text;
  if (typeof value === 'string') return value;
  return internalError('a flattened CSV value is a scalar');
}

function quoteCell(cell: string): string {
  return /[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

/** Python sorts strings by code point; JavaScript's default sort compares UTF-16 units. */
function byCodePoint(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0)!);
  const y = [...b].map((c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

const WORD = /true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const STRING = /"(?:[^"\\]|\\.)*"/y;

/** A JSON reader that keeps each number's text, so `98.0` stays `98.0` and not `98`. */
class JsonReader {
  private at = 0;
  constructor(private readonly text: string) {}

  document(): Value {
    const value = this.value();
    this.space();
    if (this.at !== this.text.length) this.fail();
    return value;
  }

  private value(): Value {
    this.space();
    const c = this.text[this.at];
    if (c === '{') return this.object();
    if (c === '[') return this.list();
    if (c === '"') return this.string();
    const word = this.match(WORD);
    this.at += word[0].length;
    if (word[0] === 'true' || word[0] === 'false') return word[0] === 'true';
    return word[0] === 'null' ? null : new NumberText(word[0]);
  }

  private object(): Map<string, Value> {
    const object = new Map<string, Value>();
    this.at++;
    if (this.peek() === '}') return (this.at++, object);
    for (;;) {
      this.space();
      const key = this.string();
      this.expect(':');
      object.set(key, this.value());
      if (this.peek() === '}') return (this.at++, object);
      this.expect(',');
    }
  }

  private list(): Value[] {
    const list: Value[] = [];
    this.at++;
    if (this.peek() === ']') return (this.at++, list);
    for (;;) {
      list.push(this.value());
      if (this.peek() === ']') return (this.at++, list);
      this.expect(',');
    }
  }

  private string(): string {
    const end = this.match(STRING);
    this.at += end[0].length;
    return JSON.parse(end[0]) as string;
  }

  /** A sticky pattern's match where the reader is, without copying the rest of the text. */
  private match(pattern: RegExp): RegExpExecArray {
    pattern.lastIndex = this.at;
    return pattern.exec(this.text) ?? this.fail();
  }

  private peek(): string | undefined {
    this.space();
    return this.text[this.at];
  }

  private expect(c: string): void {
    if (this.peek() !== c) this.fail();
    this.at++;
  }

  private space(): void {
    while (/\s/.test(this.text[this.at] ?? '')) this.at++;
  }

  private fail(): never {
    return internalError(`the CSV renderer was given text that is not JSON (at ${this.at})`);
  }
}
