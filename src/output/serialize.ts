/**
 * The one serializer: every byte of every JSON body goes through here.
 *
 * It writes what Weblate's JSON renderer (Django REST framework) writes:
 * compact separators, UTF-8 without escaping non-ASCII text except U+2028 and
 * U+2029, keys in insertion order, and floats the way Python prints them
 * (`100.0`, `0.0`, `14.2`). Plain JavaScript numbers must be integers; a float
 * is written by wrapping it in `JsonFloat`.
 *
 * Objects of a fixed layout (every Weblate object the API repeats thousands
 * of times) are declared once as a Shape: keys in order, each with the kind
 * of its value. A ShapedObject is then just the values; its keys are written
 * from text prepared once, and values of kind `url` (built from validated
 * parts that never need escaping) are written without a check.
 */
import { internalError } from '../errors.ts';
import { kindType, type STRING_OR_NULL, type ValueType } from './value-types.ts';

/** A float, printed as Python prints a float: always with a decimal point. */
export class JsonFloat {
  constructor(readonly value: number) {
    if (!Number.isFinite(value)) internalError(`a JSON float must be finite (got ${value})`);
  }
}

/** Text that is already serialized JSON, spliced in as is (used to reuse nested objects). */
export class RawJson {
  constructor(readonly json: string) {}
}

/**
 * How a field's value is written: `text` any string (escaped as needed),
 * `url` a string known to need no escaping, `int`, `bool`, `float` (a plain
 * number printed as a Python float), `json` any JsonValue. Every kind but
 * `bool` and `int` also takes null.
 */
type FieldKind = 'text' | 'url' | 'int' | 'bool' | 'float' | 'json';

export interface Shape {
  readonly keys: readonly string[];
  readonly kinds: readonly FieldKind[];
  /** What each value is (value-types.ts); null for a `json` field that declares nothing (only tests make such shapes). */
  readonly types: readonly (ValueType | null)[];
  /** `{"key":` for the first field, `,"key":` for the others. */
  readonly prefixes: readonly string[];
}

/**
 * Declares the layout of an object: its keys in output order, the kind of
 * each value, and its type where the kind does not say it (a `json` value, a
 * string that may be null).
 */
export function defineShape(fields: readonly (readonly [key: string, kind: FieldKind, type?: ValueType])[]): Shape {
  const keys = fields.map(([key]) => key);
  return {
    keys,
    kinds: fields.map(([, kind]) => kind),
    types: fields.map(([, kind, type]) => type ?? (kind === 'json' ? null : kindType(kind))),
    prefixes: keys.map((key, i) => `${i === 0 ? '{' : ','}${serializeString(key)}:`),
  };
}

/** An object of a declared shape: its values in the shape's order. */
export class ShapedObject {
  constructor(
    readonly shape: Shape,
    readonly values: readonly unknown[],
  ) {
    if (values.length !== shape.keys.length) {
      internalError(`a shaped object needs ${shape.keys.length} values (got ${values.length})`);
    }
  }
}

/**
 * One field of a layout: how its value is written, where the value comes
 * from (a function of the object's source: the model object and what is
 * derived from it once), and what the value is. The compiler holds the three
 * together: an `int` field's value is a number, a `text` field's a string,
 * or a string or null when it declares STRING_OR_NULL; a `json` field always
 * declares its type (the published types and schemas are generated from it).
 */
export type SourcedField<S> =
  | readonly [kind: 'int' | 'float', value: (source: S) => number]
  | readonly [kind: 'bool', value: (source: S) => boolean]
  | readonly [kind: 'text' | 'url', value: (source: S) => string]
  | readonly [kind: 'text' | 'url', value: (source: S) => string | null, type: typeof STRING_OR_NULL]
  | readonly [kind: 'json', value: (source: S) => unknown, type: ValueType];

/** A shape whose values are read from a source object, field by field, in the shape's order. */
export interface Layout<S> {
  readonly shape: Shape;
  readonly values: readonly ((source: S) => unknown)[];
}

/**
 * Declares a layout: the fields in output order, each named in `fields`
 * (which says how it is written and where its value comes from).
 */
export function defineLayout<S, K extends string>(fields: Readonly<Record<K, SourcedField<S>>>, order: readonly NoInfer<K>[]): Layout<S> {
  const entries = order.map((key) => {
    const field = fields[key];
    if (!field) internalError(`a layout names the unknown field "${key}"`);
    return field;
  });
  return { shape: defineShape(order.map((key, i) => [key, entries[i]![0], entries[i]![2]])), values: entries.map(([, value]) => value) };
}

/** The object of a layout for one source: each field's value read in order. */
export function fillLayout<S>(layout: Layout<S>, source: S): ShapedObject {
  const getters = layout.values;
  const values = new Array<unknown>(getters.length);
  for (let i = 0; i < getters.length; i++) values[i] = getters[i]!(source);
  return new ShapedObject(layout.shape, values);
}

export type JsonValue =
  null | boolean | number | string | JsonFloat | RawJson | ShapedObject | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** Serializes one value to compact JSON text. */
export function serialize(value: JsonValue): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return serializeString(value);
    case 'number':
      return serializeInteger(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value instanceof ShapedObject) return serializeShaped(value);
      if (value instanceof RawJson) return value.json;
      if (value instanceof JsonFloat) return formatFloat(value.value);
      if (Array.isArray(value)) return serializeArray(value as readonly JsonValue[]);
      return serializeObject(value as { readonly [key: string]: JsonValue });
    default:
      return internalError(`cannot serialize a ${typeof value}`);
  }
}

/** The bytes of a resource file: the JSON text and a trailing newline. */
export function serializeFile(value: JsonValue): string {
  return serialize(value) + '\n';
}

/**
 * A file's text: one string, or parts to be written one after the other.
 * A list page stays in parts because its text, often over 128 KiB, would
 * otherwise be joined into one string when written, and V8 allocates a string
 * that large in its large-object space, which only a full collection frees:
 * every page of /api/translations/ would be old garbage at once.
 */
export type FileText = string | readonly string[];

/**
 * The same bytes as `serializeFile`, with the items of a shaped object's last
 * field, when it is a list (a page's `results`), as parts of their own.
 */
export function serializeFileInParts(value: JsonValue): FileText {
  if (!(value instanceof ShapedObject)) return serializeFile(value);
  const last = value.values.length - 1;
  const items = value.values[last];
  if (value.shape.kinds[last] !== 'json' || !isList(items) || items.length === 0) return serializeFile(value);
  const head = serializeShaped(new ShapedObject(value.shape, [...value.values.slice(0, last), []]));
  const parts = [head.slice(0, -'[]}'.length) + '['];
  for (let i = 0; i < items.length; i++) parts.push(i === 0 ? serialize(items[i]!) : ',' + serialize(items[i]!));
  parts.push(']}\n');
  return parts;
}

/** A file's text as one string. */
export function joinFileText(text: FileText): string {
  return typeof text === 'string' ? text : text.join('');
}

/** The size of a file's text in UTF-8 bytes. */
export function fileTextBytes(text: FileText): number {
  if (typeof text === 'string') return Buffer.byteLength(text);
  let bytes = 0;
  for (const part of text) bytes += Buffer.byteLength(part);
  return bytes;
}

/**
 * Python's repr() of a float: the shortest digits that round-trip, in fixed
 * notation with at least one decimal when the decimal exponent is in [-4, 16),
 * otherwise as `1e+16` / `1e-05`.
 */
export function formatFloat(value: number): string {
  // Fast path for percentages: a value that is exactly the double nearest to
  // tenths/10 is printed by Python as "X.Y".
  const tenths = Math.round(value * 10);
  if (tenths / 10 === value && tenths > 0 && tenths <= 100_000) return `${Math.trunc(tenths / 10)}.${tenths % 10}`;
  if (Object.is(value, -0)) return '-0.0';
  if (value === 0) return '0.0';
  const [mantissa, exponentText] = Math.abs(value).toExponential().split('e') as [string, string];
  const exponent = Number(exponentText);
  const digits = mantissa.replace('.', '');
  const sign = value < 0 ? '-' : '';
  if (exponent < -4 || exponent >= 16) {
    const fraction = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const expSign = exponent < 0 ? '-' : '+';
    return `${sign}${fraction}e${expSign}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const integer = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  const fraction = digits.slice(exponent + 1) || '0';
  return `${sign}${integer}.${fraction}`;
}

// --- internal ---

function isList(value: unknown): value is readonly JsonValue[] {
  return Array.isArray(value);
}

/** Characters a JSON string cannot hold as they are, and the two line separators DRF escapes. */
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /["\\\u0000-\u001f\u2028\u2029\ud800-\udfff]/;
const LINE_SEPARATORS = /[\u2028\u2029]/g;

function serializeString(value: string): string {
  if (!NEEDS_ESCAPE.test(value)) return `"${value}"`;
  return JSON.stringify(value).replace(LINE_SEPARATORS, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029'));
}

function serializeShaped(object: ShapedObject): string {
  const { kinds, prefixes } = object.shape;
  const values = object.values;
  let out = '';
  for (let i = 0; i < values.length; i++) {
    out += prefixes[i];
    const value = values[i];
    if (value === null && kinds[i] !== 'int' && kinds[i] !== 'bool') {
      out += 'null';
      continue;
    }
    switch (kinds[i]) {
      case 'url':
        out += `"${value as string}"`;
        break;
      case 'text':
        out += serializeString(value as string);
        break;
      case 'int':
        out += serializeInteger(value as number);
        break;
      case 'bool':
        out += (value as boolean) ? 'true' : 'false';
        break;
      case 'float':
        out += formatFloat(value as number);
        break;
      default:
        out += serialize(value as JsonValue);
    }
  }
  return values.length === 0 ? '{}' : out + '}';
}

function serializeInteger(value: number): string {
  if (!Number.isSafeInteger(value)) internalError(`plain JSON numbers must be safe integers (got ${value}); wrap floats in JsonFloat`);
  return String(value);
}

function serializeArray(values: readonly JsonValue[]): string {
  let out = '[';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ',';
    out += serialize(values[i]!);
  }
  return out + ']';
}

function serializeObject(object: { readonly [key: string]: JsonValue }): string {
  let out = '{';
  let first = true;
  for (const key in object) {
    const value = object[key];
    if (value === undefined) internalError(`field "${key}" is undefined`);
    out += first ? '' : ',';
    first = false;
    out += serializeString(key) + ':' + serialize(value);
  }
  return out + '}';
}
