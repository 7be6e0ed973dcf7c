/**
 * Edits of content files through the yaml package's document API: only the
 * touched keys change, and comments, key order, quoting and the flow or block
 * style of everything else stay as they were. Pure: text in, text out.
 */
import { isMap, isScalar, parseDocument, type Document } from 'yaml';
import { YAML_OPTIONS } from '../content/yaml.ts';

/** How documents are written back: no line folding, flow collections as the content writes them (`[a, b]`). */
const FORMAT = { lineWidth: 0, minContentWidth: 0, flowCollectionPadding: false } as const;

/** A value to set on a key, or undefined to remove the key. */
export type FieldValue =
  string | number | boolean | { readonly [key: string]: string | number | undefined } | undefined;

/**
 * Sets (or removes) top-level keys of a map file; a key that is new goes
 * last. `text` null starts a new file. An empty map written as `{}` becomes
 * a block map when a key is added.
 */
export function setFields(
  text: string | null,
  fields: Readonly<Record<string, FieldValue>>,
): string {
  const document = text === null ? parseDocument('{}\n', YAML_OPTIONS) : parseMap(text);
  const map = document.contents;
  if (isMap(map) && map.flow && map.items.length === 0) map.flow = false;
  for (const [key, value] of Object.entries(fields)) {
    const current = document.get(key, true);
    if (value === undefined) document.delete(key);
    // A scalar keeps its node, and with it the comments around it.
    else if (isScalar(current) && typeof value !== 'object') current.value = value;
    else document.set(key, document.createNode(value));
  }
  return document.toString(FORMAT);
}

/**
 * Removes the entry of a language from a component's `translations` map;
 * null when the file has no such entry.
 */
export function removeTranslation(text: string, code: string): string | null {
  const document = parseMap(text);
  const translations = document.get('translations', true);
  if (!isMap(translations) || !translations.has(code)) return null;
  translations.delete(code);
  return document.toString(FORMAT);
}

/** The content path of a language's file. */
export function languageFile(code: string): string {
  return `languages/${code}.yaml`;
}

/** The content path of a component's file. */
export function componentFile(project: string, component: string): string {
  return `projects/${project}/components/${component}.yaml`;
}

// --- internal ---

function parseMap(text: string): Document {
  const document = parseDocument(text, YAML_OPTIONS);
  if (document.errors.length > 0)
    throw new Error(`the file does not parse: ${document.errors[0]!.message}`);
  if (!isMap(document.contents)) throw new Error('the file does not hold a map of fields');
  return document;
}
