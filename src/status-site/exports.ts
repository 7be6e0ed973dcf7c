/**
 * Weblate's stats exports (`/exports/stats/<project>/[<component>/]`,
 * trans/views/api.py): the statistics objects of a component's translations
 * or of a project's languages, as JSON the way Django's JsonResponse writes
 * it (indented by two, non-ASCII escaped, timestamps to the millisecond, no
 * trailing newline) or as CSV the way Python's csv module writes it (the
 * columns Weblate names, `\r\n` line ends, a timestamp as Python prints a
 * datetime, a text that reads as a formula neutralised). Pure: objects in, text out.
 */
import { formatFloat, ShapedObject, type JsonValue, type Shape } from '../output/serialize.ts';
import { internalError } from '../errors.ts';
import { hasTrait, type Release } from '../model/releases.ts';
import { PROJECT_LANGUAGE_4 } from '../api/shapes.ts';

/** Which objects an export lists: a component's translations or a project's languages. */
export type ExportKind = 'component' | 'project';

/** The JSON export of the objects (each a statistics object of the API). */
export function renderExportJson(rows: readonly JsonValue[]): string {
  if (rows.length === 0) return '[]';
  let out = '[\n';
  for (let r = 0; r < rows.length; r++)
    out += (r > 0 ? ',\n' : '') + indentedObject(shapedRow(rows[r]!));
  return out + '\n]';
}

/** The CSV export: the columns Weblate writes for this kind and flavour, a row per object. */
export function renderExportCsv(
  rows: readonly JsonValue[],
  kind: ExportKind,
  version: Release,
): string {
  const columns: readonly string[] =
    kind === 'project' && !hasTrait(version, 'projectExport27') ? PROJECT_COLUMNS_4 : COLUMNS;
  let out = columns.join(',') + '\r\n';
  // Where each column's value sits in the rows' shape (-1: it lacks the column), found once a shape.
  let shape: Shape | null = null;
  let indexes: readonly number[] = [];
  for (const row of rows) {
    const object = shapedRow(row);
    if (object.shape !== shape) {
      shape = object.shape;
      indexes = columns.map((column) => object.shape.keys.indexOf(column));
    }
    for (let c = 0; c < indexes.length; c++)
      out += (c > 0 ? ',' : '') + (indexes[c]! < 0 ? '' : csvField(object, indexes[c]!));
    out += '\r\n';
  }
  return out;
}

// --- internal ---

/** The columns of every export but 4.x's project one (a missing value is an empty cell). */
const COLUMNS = [
  'name',
  'code',
  'total',
  'translated',
  'translated_percent',
  'translated_words_percent',
  'total_words',
  'translated_words',
  'total_chars',
  'translated_chars',
  'translated_chars_percent',
  'failing',
  'failing_percent',
  'fuzzy',
  'fuzzy_percent',
  'url_translate',
  'url',
  'translate_url',
  'last_change',
  'last_author',
  'recent_changes',
  'readonly',
  'readonly_percent',
  'approved',
  'approved_percent',
  'suggestions',
  'comments',
] as const;

/** 4.x's project export: the project's language summaries, in the order of its language entries. */
const PROJECT_COLUMNS_4 = PROJECT_LANGUAGE_4.shape.keys;

/**
 * How a statistics object's field is written: null, a number (as the shape declares it) or a text.
 * Read in place, field by field: an export of a project's languages is rendered for every project.
 */
type FieldKind = 'null' | 'int' | 'float' | 'text';

function shapedRow(row: JsonValue): ShapedObject {
  if (!(row instanceof ShapedObject)) return internalError('an export row must be a shaped object');
  return row;
}

function fieldKind(row: ShapedObject, i: number): FieldKind {
  const value = row.values[i];
  if (value === null || value === undefined) return 'null';
  const declared = row.shape.kinds[i];
  if (declared === 'float' || declared === 'int') return declared;
  if (typeof value === 'string') return 'text';
  return internalError(`an export field must be a number or a text (${row.shape.keys[i]})`);
}

/** Each shape's keys as the JSON export writes them, indented, up to the value. */
const keyPrefixes = new WeakMap<Shape, readonly string[]>();

function indentedObject(row: ShapedObject): string {
  let prefixes = keyPrefixes.get(row.shape);
  if (!prefixes) {
    prefixes = row.shape.keys.map((key, i) => `${i > 0 ? ',\n' : ''}    ${asciiString(key)}: `);
    keyPrefixes.set(row.shape, prefixes);
  }
  let out = '  {\n';
  for (let i = 0; i < prefixes.length; i++) out += prefixes[i]! + jsonValue(row, i);
  return out + '\n  }';
}

function jsonValue(row: ShapedObject, i: number): string {
  const value = row.values[i];
  switch (fieldKind(row, i)) {
    case 'null':
      return 'null';
    case 'int':
      return String(value);
    case 'float':
      return formatFloat(value as number);
    default:
      return asciiString(
        row.shape.keys[i] === 'last_change' ? toMilliseconds(value as string) : (value as string),
      );
  }
}

/** Text with nothing to escape: printable ASCII but the quote and the backslash. */
const PLAIN_ASCII = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** A JSON string as Python's json module writes it with ensure_ascii: anything outside printable ASCII as \uXXXX. */
function asciiString(text: string): string {
  if (PLAIN_ASCII.test(text)) return `"${text}"`;
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const char = text[i]!;
    if (char === '"' || char === '\\') out += `\\${char}`;
    else if (code >= 0x20 && code <= 0x7e) out += char;
    else out += SHORT_ESCAPES[char] ?? `\\u${code.toString(16).padStart(4, '0')}`;
  }
  return out + '"';
}

const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
};

/** `2024-05-02T10:20:05.499000Z` → `2024-05-02T10:20:05.499Z`, as Django's encoder cuts microseconds. */
function toMilliseconds(timestamp: string): string {
  return timestamp.replace(/(\.\d{3})\d{3}Z$/, '$1Z');
}

/**
 * A cell as Python's csv writes str(value): quoted when it holds a comma, a quote or a line end.
 * A text a spreadsheet would read as a formula (a language name `=HYPERLINK(…)` from content or a
 * mirrored instance) is neutralised as OWASP advises: a `'` before it, and the cell quoted.
 */
function csvField(row: ShapedObject, i: number): string {
  const value = row.values[i];
  switch (fieldKind(row, i)) {
    case 'null':
      return '';
    case 'float':
      return formatFloat(value as number);
    case 'int':
      return String(value);
  }
  const text = value as string;
  if (row.shape.keys[i] === 'last_change') return csvQuoted(pythonDatetime(text));
  return FORMULA_START.test(text) ? quote(`'${text}`) : csvQuoted(text);
}

/** What a spreadsheet takes for the start of a formula (OWASP's list). */
const FORMULA_START = /^[=+\-@\t\r]/;

function csvQuoted(text: string): string {
  return /[",\r\n]/.test(text) ? quote(text) : text;
}

function quote(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/** `2024-05-02T10:20:05.499000Z` → `2024-05-02 10:20:05.499000+00:00`, Python's str() of an aware datetime. */
function pythonDatetime(timestamp: string): string {
  return timestamp.replace('T', ' ').replace(/Z$/, '+00:00');
}
