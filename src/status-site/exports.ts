/**
 * Weblate's stats exports (`/exports/stats/<project>/[<component>/]`,
 * trans/views/api.py): the statistics objects of a component's translations
 * or of a project's languages, as JSON the way Django's JsonResponse writes
 * it (indented by two, non-ASCII escaped, timestamps to the millisecond, no
 * trailing newline) or as CSV the way Python's csv module writes it (the
 * columns Weblate names, `\r\n` line ends, a timestamp as Python prints a
 * datetime, a text that reads as a formula neutralised). Pure: objects in, text out.
 */
import { formatFloat, ShapedObject, type JsonValue } from '../output/serialize.ts';
import { internalError } from '../errors.ts';
import { hasTrait, type Release } from '../model/releases.ts';
import { PROJECT_LANGUAGE_4 } from '../api/shapes.ts';

/** Which objects an export lists: a component's translations or a project's languages. */
export type ExportKind = 'component' | 'project';

/** The JSON export of the objects (each a statistics object of the API). */
export function renderExportJson(rows: readonly JsonValue[]): string {
  if (rows.length === 0) return '[]';
  return `[\n${rows.map((row) => indentedObject(fieldsOf(row))).join(',\n')}\n]`;
}

/** The CSV export: the columns Weblate writes for this kind and flavour, a row per object. */
export function renderExportCsv(
  rows: readonly JsonValue[],
  kind: ExportKind,
  version: Release,
): string {
  const columns: readonly string[] =
    kind === 'project' && !hasTrait(version, 'projectExport27') ? PROJECT_COLUMNS_4 : COLUMNS;
  const lines = [columns.join(',')];
  for (const row of rows) {
    const values = new Map(fieldsOf(row).map((field) => [field.key, field]));
    lines.push(columns.map((column) => csvField(values.get(column))).join(','));
  }
  return lines.map((line) => line + '\r\n').join('');
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

interface Field {
  key: string;
  kind: 'text' | 'int' | 'float' | 'null';
  value: string | number | null;
}

/** The fields of a statistics object, in order, with the kind of each value. */
function fieldsOf(row: JsonValue): Field[] {
  if (!(row instanceof ShapedObject)) return internalError('an export row must be a shaped object');
  return row.shape.keys.map((key, i) => {
    const value = row.values[i];
    const declared = row.shape.kinds[i];
    if (value === null || value === undefined) return { key, kind: 'null', value: null };
    if (declared === 'float') return { key, kind: 'float', value: value as number };
    if (declared === 'int') return { key, kind: 'int', value: value as number };
    if (typeof value === 'string') return { key, kind: 'text', value };
    return internalError(`an export field must be a number or a text (${key})`);
  });
}

function indentedObject(fields: readonly Field[]): string {
  const lines = fields.map((field) => `    ${asciiString(field.key)}: ${jsonValue(field)}`);
  return `  {\n${lines.join(',\n')}\n  }`;
}

function jsonValue(field: Field): string {
  switch (field.kind) {
    case 'null':
      return 'null';
    case 'int':
      return String(field.value);
    case 'float':
      return formatFloat(field.value as number);
    default:
      return asciiString(
        field.key === 'last_change'
          ? toMilliseconds(field.value as string)
          : (field.value as string),
      );
  }
}

/** A JSON string as Python's json module writes it with ensure_ascii: anything outside printable ASCII as \uXXXX. */
function asciiString(text: string): string {
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
function csvField(field: Field | undefined): string {
  if (!field || field.kind === 'null') return '';
  if (field.kind === 'float') return formatFloat(field.value as number);
  if (field.kind === 'int') return String(field.value);
  if (field.key === 'last_change') return csvQuoted(pythonDatetime(field.value as string));
  const text = field.value as string;
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
