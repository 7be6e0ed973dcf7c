/**
 * A validator for the subset of JSON Schema (draft 2020-12) that
 * src/api-types/ writes: type, properties, required, additionalProperties,
 * items (a schema or false), anyOf, $ref to `#/$defs/…`, and the annotations
 * $schema, title, description and $defs. Any other keyword is an error, so a
 * schema the generator starts writing cannot be half checked.
 *
 * It reads the file's text itself rather than JSON.parse's value, so numbers
 * are checked as written: an `integer` has no fraction or exponent (`120`,
 * never `120.0`), and a `number` (the schemas use it for floats only) has one,
 * as Python prints a float (`100.0`, never `100`).
 */

type Schema = boolean | { readonly [keyword: string]: unknown };

/** A number as the text wrote it. */
class JsonNumber {
  constructor(readonly text: string) {}
}

type Value = null | boolean | string | JsonNumber | Value[] | { [key: string]: Value };

/** The errors of a file's text against a schema: `$.results[0].language.code: expected string, got null`. Empty when it holds. */
export function validateText(text: string, schema: Schema): string[] {
  const parser = new Parser(text);
  const value = parser.document();
  const errors: string[] = [];
  check(value, schema, schema, '$', errors);
  return errors;
}

// --- internal ---

const KEYWORDS = new Set([
  '$schema',
  'title',
  'description',
  '$defs',
  '$ref',
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'anyOf',
]);

function check(value: Value, schema: Schema, root: Schema, at: string, errors: string[]): void {
  if (schema === true) return;
  if (schema === false) {
    errors.push(`${at}: no value is allowed here`);
    return;
  }
  for (const keyword of Object.keys(schema))
    if (!KEYWORDS.has(keyword)) throw new Error(`the validator does not know "${keyword}"`);
  if (typeof schema.$ref === 'string') check(value, resolve(schema.$ref, root), root, at, errors);
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
    if (!types.some((type) => hasType(value, type))) {
      errors.push(`${at}: expected ${types.join(' or ')}, got ${describe(value)}`);
      return;
    }
  }
  if (Array.isArray(schema.anyOf)) {
    const fits = (schema.anyOf as Schema[]).some((option) => {
      const found: string[] = [];
      check(value, option, root, at, found);
      return found.length === 0;
    });
    if (!fits) errors.push(`${at}: fits none of anyOf`);
  }
  if (isObject(value)) checkObject(value, schema, root, at, errors);
  if (Array.isArray(value) && schema.items !== undefined) {
    value.forEach((item, i) => check(item, schema.items as Schema, root, `${at}[${i}]`, errors));
  }
}

function checkObject(
  value: { [key: string]: Value },
  schema: { readonly [keyword: string]: unknown },
  root: Schema,
  at: string,
  errors: string[],
) {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  for (const key of (schema.required ?? []) as string[])
    if (!Object.hasOwn(value, key)) errors.push(`${at}: missing "${key}"`);
  for (const [key, item] of Object.entries(value)) {
    if (Object.hasOwn(properties, key)) check(item, properties[key]!, root, `${at}.${key}`, errors);
    else if (schema.additionalProperties === false) errors.push(`${at}: unexpected "${key}"`);
  }
}

function resolve(ref: string, root: Schema): Schema {
  const name = /^#\/\$defs\/([A-Za-z0-9_]+)$/.exec(ref)?.[1];
  const defs =
    typeof root === 'object' ? (root.$defs as Record<string, Schema> | undefined) : undefined;
  const target = name === undefined ? undefined : defs?.[name];
  if (target === undefined) throw new Error(`the validator cannot resolve "${ref}"`);
  return target;
}

function hasType(value: Value, type: string): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'boolean':
      return typeof value === 'boolean';
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return value instanceof JsonNumber && /^-?(0|[1-9][0-9]*)$/.test(value.text);
    case 'number':
      return value instanceof JsonNumber && /[.eE]/.test(value.text);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isObject(value);
    default:
      throw new Error(`the validator does not know the type "${type}"`);
  }
}

function isObject(value: Value): value is { [key: string]: Value } {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    !(value instanceof JsonNumber)
  );
}

function describe(value: Value): string {
  if (value instanceof JsonNumber) return value.text;
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : JSON.stringify(value);
}

const NUMBER = /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
// eslint-disable-next-line no-control-regex
const STRING = /"(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/y;

/** A strict JSON parser (RFC 8259) that keeps each number's text. */
class Parser {
  private at = 0;

  constructor(private readonly text: string) {}

  document(): Value {
    const value = this.value();
    this.space();
    if (this.at !== this.text.length) this.fail('text after the value');
    return value;
  }

  private value(): Value {
    this.space();
    const char = this.text[this.at];
    if (char === '{') return this.object();
    if (char === '[') return this.array();
    if (char === '"') return this.string();
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return value;
      }
    }
    const number = this.match(NUMBER);
    if (number === null) return this.fail('a value');
    return new JsonNumber(number);
  }

  private object(): { [key: string]: Value } {
    const object: { [key: string]: Value } = {};
    this.at++;
    if (this.next() === '}') return (this.at++, object);
    for (;;) {
      if (this.next() !== '"') this.fail('a key');
      const key = this.string();
      if (Object.hasOwn(object, key))
        this.fail(`a key other than "${key}", which the object has already`);
      if (this.next() !== ':') this.fail('":"');
      this.at++;
      object[key] = this.value();
      const after = this.next();
      this.at++;
      if (after === '}') return object;
      if (after !== ',') this.fail('"," or "}"');
    }
  }

  private array(): Value[] {
    const array: Value[] = [];
    this.at++;
    if (this.next() === ']') return (this.at++, array);
    for (;;) {
      array.push(this.value());
      const after = this.next();
      this.at++;
      if (after === ']') return array;
      if (after !== ',') this.fail('"," or "]"');
    }
  }

  private string(): string {
    const text = this.match(STRING);
    if (text === null) return this.fail('a string');
    return JSON.parse(text) as string;
  }

  /** The text a sticky pattern matches at the current offset (and moves past it), or null. */
  private match(pattern: RegExp): string | null {
    pattern.lastIndex = this.at;
    const found = pattern.exec(this.text);
    if (!found) return null;
    this.at += found[0].length;
    return found[0];
  }

  /** The next character that is not white space. */
  private next(): string | undefined {
    this.space();
    return this.text[this.at];
  }

  private space(): void {
    while (/[ \t\n\r]/.test(this.text[this.at] ?? '')) this.at++;
  }

  private fail(expected: string): never {
    throw new Error(`invalid JSON at offset ${this.at}: expected ${expected}`);
  }
}
