/**
 * A resource kind's body as a JSON Schema (draft 2020-12): every object
 * closed (`additionalProperties: false`) with every field required, nested
 * objects under `$defs`, the page envelope written out around its items. The
 * subset of the vocabulary it uses: type, properties, required,
 * additionalProperties, items (a schema, or false for a list that is always
 * empty), anyOf, $ref and $defs.
 */
import type { ValueType } from '../output/value-types.ts';
import { internalError } from '../errors.ts';
import { routeText, type ApiTypes, type FieldType, type ResourceType } from './objects.ts';

type Schema = boolean | { [keyword: string]: unknown };

/** The schema of one resource kind's files. */
export function resourceSchema(types: ApiTypes, resource: ResourceType): Schema {
  const defs = new Map<string, Schema>();
  const context: Context = { types, defs, item: null };
  const { body } = resource;
  const root =
    body.type === 'page'
      ? objectSchema(types.page, { ...context, item: body.item })
      : (valueSchema(body, context) as Record<string, unknown>);
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: resource.kind,
    description: `GET ${routeText(resource.route)} in the ${types.flavourName} flavour of weblate-snapshot.`,
    ...root,
    ...(defs.size > 0 ? { $defs: Object.fromEntries(defs) } : {}),
  };
}

// --- internal ---

interface Context {
  types: ApiTypes;
  /** The objects referenced so far, by name, each written once. */
  defs: Map<string, Schema>;
  /** What a page's `results` hold, inside the envelope. */
  item: ValueType | null;
}

function objectSchema(fields: readonly FieldType[], context: Context): Record<string, unknown> {
  return {
    type: 'object',
    properties: Object.fromEntries(
      fields.map((field) => [field.key, valueSchema(field.type, context)]),
    ),
    required: fields.filter((field) => !field.optional).map((field) => field.key),
    additionalProperties: false,
  };
}

function valueSchema(type: ValueType, context: Context): Schema {
  switch (type.type) {
    case 'nullable': {
      const inner = valueSchema(type.of, context);
      if (
        typeof inner === 'object' &&
        typeof inner.type === 'string' &&
        Object.keys(inner).length === 1
      )
        return { type: [inner.type, 'null'] };
      return { anyOf: [inner, { type: 'null' }] };
    }
    case 'array':
      return { type: 'array', items: valueSchema(type.items, context) };
    case 'map':
      return { type: 'object' };
    case 'object':
      return { $ref: `#/$defs/${define(type.name, context)}` };
    case 'item':
      if (!context.item) return internalError('a list item outside a page');
      return valueSchema(context.item, { ...context, item: null });
    case 'never':
      return false;
    default:
      return { type: type.type };
  }
}

/** Adds an object's schema to `$defs` once (a placeholder first, so an object that holds itself ends). */
function define(name: string, context: Context): string {
  if (context.defs.has(name)) return name;
  const object = context.types.objects.find((candidate) => candidate.name === name);
  if (!object) return internalError(`no object "${name}" in the ${context.types.version} flavour`);
  context.defs.set(name, true);
  context.defs.set(name, { title: name, ...objectSchema(object.fields, context) });
  return name;
}
