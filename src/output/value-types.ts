/**
 * What a value of a declared shape is, as a reader of the API gets it: the
 * vocabulary the published TypeScript types and JSON Schemas are generated
 * from (api-types/). A field's kind (serialize.ts) says how its value is
 * written; its value type says what it is. A scalar field's type follows from
 * its kind unless the field declares one (a string that may be null); a
 * `json` field always declares one.
 */

export type ValueType =
  | { readonly type: 'integer' | 'number' | 'string' | 'boolean' | 'null' }
  | { readonly type: 'nullable'; readonly of: ValueType }
  | { readonly type: 'array'; readonly items: ValueType }
  /** A JSON object with any keys and values (a model's JSON field, such as `vcs_params`). */
  | { readonly type: 'map' }
  /** An object of another declared layout, by its name (`Language`); api-types/ knows each name's layouts. */
  | { readonly type: 'object'; readonly name: string }
  /** The item of a list page (the envelope is one shape for every list). */
  | { readonly type: 'item' }
  /** No value at all: the item of a list a snapshot always holds empty. */
  | { readonly type: 'never' };

export const INTEGER = { type: 'integer' } as const satisfies ValueType;
export const STRING = { type: 'string' } as const satisfies ValueType;
export const NULL = { type: 'null' } as const satisfies ValueType;
/** A string or null: the one type a `text` or `url` field declares beside its kind's. */
export const STRING_OR_NULL = { type: 'nullable', of: STRING } as const satisfies ValueType;
export const MAP = { type: 'map' } as const satisfies ValueType;
export const LIST_ITEM = { type: 'item' } as const satisfies ValueType;
export const NEVER = { type: 'never' } as const satisfies ValueType;

export function nullable(of: ValueType): ValueType {
  return { type: 'nullable', of };
}

export function arrayOf(items: ValueType): ValueType {
  return { type: 'array', items };
}

export function objectNamed(name: string): ValueType {
  return { type: 'object', name };
}

/** The value type a field of a scalar kind has when it declares none. */
export function kindType(kind: 'text' | 'unescaped' | 'int' | 'bool' | 'float'): ValueType {
  switch (kind) {
    case 'int':
      return INTEGER;
    case 'bool':
      return { type: 'boolean' };
    case 'float':
      return { type: 'number' };
    default:
      return STRING;
  }
}
