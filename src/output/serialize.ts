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

/**
 * A value already serialized and encoded as UTF-8, spliced in as is: an
 * object nested in many files (a component in each of its translations) is
 * serialized and encoded once, and its bytes are copied into each file.
 */
export class RawJson {
  private constructor(readonly bytes: Buffer) {}

  static of(value: JsonValue): RawJson {
    // Kept as long as its build: bytes cut from Node's shared 8 KiB pool would keep the whole
    // slab alive, with the bodies long gone that shared it (twice the bytes of every component).
    return new RawJson(encodeOwnFileText(inParts(value, '')));
  }

  /** The JSON text, decoded again. */
  text(): string {
    return this.bytes.toString();
  }
}

/**
 * How a field's value is written: `text` any string (escaped as needed),
 * `unescaped` a string known to need no escaping, `int`, `bool`, `float` (a plain
 * number printed as a Python float), `json` any JsonValue. Every kind but
 * `bool` and `int` also takes null.
 */
type FieldKind = 'text' | 'unescaped' | 'int' | 'bool' | 'float' | 'json';

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
export function defineShape(
  fields: readonly (readonly [key: string, kind: FieldKind, type?: ValueType])[],
): Shape {
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
  | readonly [kind: 'text' | 'unescaped', value: (source: S) => string]
  | readonly [
      kind: 'text' | 'unescaped',
      value: (source: S) => string | null,
      type: typeof STRING_OR_NULL,
    ]
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
export function defineLayout<S, K extends string>(
  fields: Readonly<Record<K, SourcedField<S>>>,
  order: readonly NoInfer<K>[],
): Layout<S> {
  const entries = order.map((key) => {
    const field = fields[key];
    if (!field) internalError(`a layout names the unknown field "${key}"`);
    return field;
  });
  return {
    shape: defineShape(order.map((key, i) => [key, entries[i]![0], entries[i]![2]])),
    values: entries.map(([, value]) => value),
  };
}

/** The layout less the fields named in `keys`, the others in their order (the same layout when none is). */
export function layoutWithout<S>(layout: Layout<S>, keys: ReadonlySet<string>): Layout<S> {
  const kept = layout.shape.keys.flatMap((key, i) => (keys.has(key) ? [] : [i]));
  if (kept.length === layout.shape.keys.length) return layout;
  const { keys: names, kinds, types } = layout.shape;
  return {
    shape: defineShape(kept.map((i) => [names[i]!, kinds[i]!, types[i] ?? undefined] as const)),
    values: kept.map((i) => layout.values[i]!),
  };
}

/** The object of a layout for one source: each field's value read in order. */
export function fillLayout<S>(layout: Layout<S>, source: S): ShapedObject {
  const getters = layout.values;
  const values = new Array<unknown>(getters.length);
  for (let i = 0; i < getters.length; i++) values[i] = getters[i]!(source);
  return new ShapedObject(layout.shape, values);
}

export type JsonValue =
  | null
  | boolean
  | number
  | string
  | JsonFloat
  | RawJson
  | ShapedObject
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue };

/** Serializes one value to compact JSON text. */
export function serialize(value: JsonValue): string {
  return appendValue('', value, null);
}

/** The bytes of a resource file: the JSON text and a trailing newline. */
export function serializeFile(value: JsonValue): string {
  return serialize(value) + '\n';
}

/**
 * A file's text: one string, or parts to be written one after the other,
 * each a string or bytes already encoded (a RawJson's). Two things make
 * parts. Bytes encoded once are copied, not encoded again for each file.
 * And a list page stays in parts, one per item, because its text, often
 * over 128 KiB, would otherwise be joined into one string when written, and
 * V8 allocates a string that large in its large-object space, which only a
 * full collection frees: every page of /api/translations/ would be old
 * garbage at once.
 */
export type FileText = string | readonly FilePart[];
type FilePart = string | Uint8Array;

/** The same bytes as `serializeFile`, in parts: each RawJson's bytes, and each item of a list of objects. */
export function serializeFileInParts(value: JsonValue): FileText {
  return inParts(value, '\n');
}

/** A file's text as one string. */
export function joinFileText(text: FileText): string {
  return typeof text === 'string' ? text : encodeFileText(text).toString();
}

/** The size of a file's text in UTF-8 bytes. */
export function fileTextBytes(text: FileText): number {
  if (typeof text === 'string') return Buffer.byteLength(text);
  let bytes = 0;
  for (const part of text)
    bytes += typeof part === 'string' ? Buffer.byteLength(part) : part.byteLength;
  return bytes;
}

/** A file's text as UTF-8 bytes (small ones cut from Node's shared pool). */
export function encodeFileText(text: FileText): Buffer {
  if (typeof text === 'string') return Buffer.from(text);
  return writeFileText(text, Buffer.allocUnsafe(fileTextBytes(text)));
}

/** A file's text as UTF-8 bytes of their own, never a slice of Node's shared pool. */
function encodeOwnFileText(text: FileText): Buffer {
  return writeFileText(text, Buffer.allocUnsafeSlow(fileTextBytes(text)));
}

/** Writes a file's text into `bytes`, which has exactly its size. */
function writeFileText(text: FileText, bytes: Buffer): Buffer {
  if (typeof text === 'string') {
    bytes.write(text);
    return bytes;
  }
  let used = 0;
  for (const part of text) {
    if (typeof part === 'string') used += bytes.write(part, used);
    else {
      bytes.set(part, used);
      used += part.byteLength;
    }
  }
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
  if (tenths / 10 === value && tenths > 0 && tenths <= 100_000)
    return `${Math.trunc(tenths / 10)}.${tenths % 10}`;
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

/** A value's text and then `end`, in parts. */
function inParts(value: JsonValue, end: string): FileText {
  const parts: FilePart[] = [];
  const rest = appendValue('', value, parts) + end;
  if (parts.length === 0) return rest;
  if (rest) parts.push(rest);
  return parts;
}

/**
 * The serializers below append a value's text to `out` and return the new
 * text. With `parts` (a file's parts), they move the text so far into it
 * where bytes are spliced in, or where a list's item ends, and go on from an
 * empty string; without it, they splice a RawJson as text.
 */
function appendValue(out: string, value: JsonValue, parts: FilePart[] | null): string {
  if (value === null) return out + 'null';
  switch (typeof value) {
    case 'string':
      return out + serializeString(value);
    case 'number':
      return out + serializeInteger(value);
    case 'boolean':
      return out + (value ? 'true' : 'false');
    case 'object':
      if (value instanceof ShapedObject) return appendShaped(out, value, parts);
      if (value instanceof RawJson) return appendRaw(out, value, parts);
      if (value instanceof JsonFloat) return out + formatFloat(value.value);
      if (Array.isArray(value)) return appendArray(out, value as readonly JsonValue[], parts);
      return appendObject(out, value as { readonly [key: string]: JsonValue }, parts);
    default:
      return internalError(`cannot serialize a ${typeof value}`);
  }
}

function appendRaw(out: string, raw: RawJson, parts: FilePart[] | null): string {
  if (!parts) return out + raw.text();
  if (out) parts.push(out);
  parts.push(raw.bytes);
  return '';
}

/** Characters a JSON string cannot hold as they are, and the two line separators DRF escapes. */
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /["\\\u0000-\u001f\u2028\u2029\ud800-\udfff]/;
const LINE_SEPARATORS = /[\u2028\u2029]/g;

function serializeString(value: string): string {
  if (!NEEDS_ESCAPE.test(value)) return `"${value}"`;
  return JSON.stringify(value).replace(LINE_SEPARATORS, (c) =>
    c === '\u2028' ? '\\u2028' : '\\u2029',
  );
}

function appendShaped(out: string, object: ShapedObject, parts: FilePart[] | null): string {
  const { kinds, prefixes } = object.shape;
  const values = object.values;
  if (values.length === 0) return out + '{}';
  for (let i = 0; i < values.length; i++) {
    out += prefixes[i];
    const value = values[i];
    if (value === null && kinds[i] !== 'int' && kinds[i] !== 'bool') {
      out += 'null';
      continue;
    }
    switch (kinds[i]) {
      case 'unescaped':
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
        out = appendValue(out, value as JsonValue, parts);
    }
  }
  return out + '}';
}

function serializeInteger(value: number): string {
  if (!Number.isSafeInteger(value))
    internalError(
      `plain JSON numbers must be safe integers (got ${value}); wrap floats in JsonFloat`,
    );
  return String(value);
}

/** A list; in parts, each item that is an object or a list ends a part (a page's items). */
function appendArray(out: string, values: readonly JsonValue[], parts: FilePart[] | null): string {
  out += '[';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ',';
    const value = values[i]!;
    out = appendValue(out, value, parts);
    if (parts && out && isCollection(value)) {
      parts.push(out);
      out = '';
    }
  }
  return out + ']';
}

function isCollection(value: JsonValue): boolean {
  return value !== null && typeof value === 'object' && !(value instanceof JsonFloat);
}

function appendObject(
  out: string,
  object: { readonly [key: string]: JsonValue },
  parts: FilePart[] | null,
): string {
  out += '{';
  let first = true;
  for (const key in object) {
    const value = object[key];
    if (value === undefined) internalError(`field "${key}" is undefined`);
    out += first ? '' : ',';
    first = false;
    out = appendValue(out + serializeString(key) + ':', value, parts);
  }
  return out + '}';
}
