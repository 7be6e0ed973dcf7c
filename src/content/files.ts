/**
 * One content file: its kind from its place in the folder, parsed and checked
 * against its schema. Pure (text in, values and errors out) so the build, the
 * check command and the sidecar validate a file the same way.
 */
import jsYaml from 'js-yaml';
import type { z } from 'zod';
import type { ContentError } from '../errors.ts';
import { closest, describeValue } from './describe.ts';
import { formatPath, locate, parseYaml, type FieldPath, type YamlSource } from './locate.ts';
import { prepareComponent, type PreparedComponent } from './prepare.ts';
import { checkComponentFile } from './rules.ts';
import { hashText } from './signatures.ts';
import {
  componentSchema, languageSchema, pluralSchema, projectSchema, siteSchema, sourceCountersSchema, translationSchema,
  type ComponentFile, type LanguageFile, type ProjectFile, type SiteFile,
} from './schema.ts';

type ContentFileKind = 'site' | 'language' | 'project' | 'component';

/** Where a file sits in the content folder, decided from its relative path. */
export type FilePlace =
  | { kind: 'site' }
  | { kind: 'language'; code: string }
  | { kind: 'project'; project: string }
  | { kind: 'component'; project: string; component: string };

/** What a checked file holds; a component file is kept in its prepared form. */
type FileData = {
  site: SiteFile;
  language: LanguageFile;
  project: ProjectFile;
  component: PreparedComponent;
};

export interface CheckedFile<K extends ContentFileKind = ContentFileKind> {
  /** The path shown in messages: the content folder as the user gave it, joined with the relative path. */
  file: string;
  place: Extract<FilePlace, { kind: K }>;
  data: FileData[K];
}

type PlaceResult = { place: FilePlace } | { ignored: true } | { error: string };

/** Classifies a path relative to the content folder (always with `/`). */
export function placeOf(relativePath: string): PlaceResult {
  const parts = relativePath.split('/');
  const extension = /\.ya?ml$/.exec(relativePath)?.[0];
  if (!extension) return { ignored: true };
  if (extension === '.yml') return { error: 'expected the extension .yaml (got .yml)' };
  const stem = (name: string) => name.slice(0, -'.yaml'.length);
  if (parts.length === 1 && parts[0] === 'site.yaml') return { place: { kind: 'site' } };
  if (parts.length === 2 && parts[0] === 'languages') return { place: { kind: 'language', code: stem(parts[1]!) } };
  if (parts.length === 3 && parts[0] === 'projects' && parts[2] === 'project.yaml') {
    return { place: { kind: 'project', project: parts[1]! } };
  }
  if (parts.length === 4 && parts[0] === 'projects' && parts[2] === 'components') {
    return { place: { kind: 'component', project: parts[1]!, component: stem(parts[3]!) } };
  }
  return {
    error:
      'expected content files at site.yaml, languages/<code>.yaml, projects/<project>/project.yaml ' +
      'or projects/<project>/components/<component>.yaml',
  };
}

type CheckResult<K extends ContentFileKind> =
  | { ok: true; checked: CheckedFile<K> }
  | { ok: false; errors: ContentError[] };

/** Parses and checks one file's text against the schema of its kind. */
export function checkFile<K extends ContentFileKind>(
  file: string,
  place: Extract<FilePlace, { kind: K }>,
  text: string,
): CheckResult<K> {
  const parsed = parseText(file, text);
  if (!parsed.ok) return parsed;
  const value = parsed.value === null && place.kind === 'site' ? {} : parsed.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, errors: [{ file, line: 1, column: 1, path: '', message: `expected a map of fields (got ${describeValue(value)})` }] };
  }
  // Positions are needed only to report errors; the document is parsed again only then.
  const source = () => parsed.source ?? parseYaml(text);
  const result = SCHEMAS[place.kind].safeParse(value);
  if (!result.success) return { ok: false, errors: schemaErrors(file, place.kind, source(), value, result.error.issues) };
  if (place.kind === 'component') {
    const data = result.data as ComponentFile;
    const problems = checkComponentFile(data);
    if (problems.length > 0) {
      const document = source();
      return { ok: false, errors: problems.map((p) => errorAt(file, document, p.path, p.message)) };
    }
    const { project, component } = place as Extract<FilePlace, { kind: 'component' }>;
    return { ok: true, checked: { file, place, data: prepareComponent(data, project, component) } };
  }
  return { ok: true, checked: { file, place, data: result.data } as CheckedFile<K> };
}

/** A file's check, and the hash of the text that was checked (content/signatures.ts). */
export interface CheckedText {
  result: CheckResult<ContentFileKind>;
  hash: string;
}

/** Checks a file's text and hashes it: what is done with each file a load reads. */
export function checkAndHash(file: string, place: FilePlace, text: string): CheckedText {
  return { result: checkFile(file, place, text), hash: hashText(text) };
}

type ParsedText = { ok: true; value: unknown; source?: YamlSource } | { ok: false; errors: ContentError[] };

/**
 * The value of a YAML text. js-yaml reads it fast (YAML 1.2 core types); when
 * it refuses, the yaml package parses it again and says where it breaks, or
 * gives the value it reads.
 */
function parseText(file: string, text: string): ParsedText {
  try {
    return { ok: true, value: jsYaml.load(text, { schema: jsYaml.CORE_SCHEMA, filename: file }) };
  } catch {
    const source = parseYaml(text);
    const errors = source.document.errors.map((error): ContentError => {
      const { line, col } = source.lineCounter.linePos(error.pos[0]);
      return { file, line, column: col, path: '', message: `expected valid YAML (got: ${firstLine(error.message)})` };
    });
    return errors.length > 0 ? { ok: false, errors } : { ok: true, value: source.document.toJS({ maxAliasCount: 100 }), source };
  }
}

/** Builds a ContentError for a field path of a parsed file. */
function errorAt(file: string, source: YamlSource, path: FieldPath, message: string, atKey = false): ContentError {
  const { line, column } = locate(source, path, atKey);
  return { file, line, column, path: formatPath(path), message };
}

// --- internal ---

const SCHEMAS = {
  site: siteSchema,
  language: languageSchema,
  project: projectSchema,
  component: componentSchema,
} as const satisfies Record<ContentFileKind, z.ZodType>;

function schemaErrors(
  file: string,
  kind: ContentFileKind,
  source: YamlSource,
  data: object,
  issues: readonly z.core.$ZodIssue[]): ContentError[] {
  const errors: ContentError[] = [];
  for (const issue of issues) {
    const path = issue.path as (string | number)[];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const known = knownKeys(kind, path);
        const guess = closest(key, known);
        const hint = guess ? `did you mean "${guess}"?` : 'see docs/content.md';
        errors.push(errorAt(file, source, [...path, key], `unknown field (${hint})`, true));
      }
      continue;
    }
    const found = valueAt(data, path);
    const got = found === undefined ? 'missing' : `got ${describeValue(found)}`;
    errors.push(errorAt(file, source, path, `${issue.message} (${got})`));
  }
  return errors;
}

/** The keys the strict object at `path` of a file of this kind accepts. */
function knownKeys(kind: ContentFileKind, path: readonly (string | number)[]): string[] {
  const schema =
    path.length === 0 ? SCHEMAS[kind]
    : kind === 'language' && path[0] === 'plural' ? pluralSchema
    : kind === 'component' && path[0] === 'source' ? sourceCountersSchema
    : kind === 'component' && path[0] === 'translations' ? translationSchema
    : undefined;
  return schema ? Object.keys(schema.shape) : [];
}

function valueAt(data: unknown, path: readonly (string | number)[]): unknown {
  let value: unknown = data;
  for (const segment of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string | number, unknown>)[segment];
  }
  return value;
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
}
