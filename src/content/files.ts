/**
 * One content file: its kind from its place in the folder, parsed and checked
 * against its schema. Pure (text in, values and errors out) so the build, the
 * check command and the sidecar validate a file the same way.
 */
import type { z } from 'zod';
import type { ContentError } from '../errors.ts';
import { closest, describeValue } from './describe.ts';
import { formatPath, locate, type FieldPath } from './locate.ts';
import { readPlainMap } from './plain-yaml.ts';
import { parseYaml, readYaml, type YamlSource } from './yaml.ts';
import { prepareComponent, sharePreparedTexts, type PreparedComponent } from './prepare.ts';
import type { Intern } from '../model/intern.ts';
import { checkComponentFile, componentWarnings } from './rules.ts';
import { hashText } from './signatures.ts';
import {
  categorySchema, componentSchema, languageSchema, pluralSchema, projectSchema, siteSchema, sourceCountersSchema, translationSchema,
  type CategoryFile, type ComponentFile, type LanguageFile, type ProjectFile, type SiteFile,
} from './schema.ts';

type ContentFileKind = 'site' | 'language' | 'project' | 'category' | 'component';

/** Where a file sits in the content folder, decided from its relative path. */
export type FilePlace =
  | { kind: 'site' }
  | { kind: 'language'; code: string }
  | { kind: 'project'; project: string }
  | { kind: 'category'; project: string; category: string }
  | { kind: 'component'; project: string; component: string };

/** What a checked file holds; a component file is kept in its prepared form. */
type FileData = {
  site: SiteFile;
  language: LanguageFile;
  project: ProjectFile;
  category: CategoryFile;
  component: PreparedComponent;
};

export interface CheckedFile<K extends ContentFileKind = ContentFileKind> {
  /** The path shown in messages: the content folder as the user gave it, joined with the relative path. */
  file: string;
  place: Extract<FilePlace, { kind: K }>;
  data: FileData[K];
}

type PlaceResult = { place: FilePlace } | { ignored: true } | { error: string } | { extra: string };

/** The folder of the content whose files are published at the tree's root as they are. */
const EXTRA_FOLDER = 'extra/';

/** Classifies a path relative to the content folder (always with `/`). */
export function placeOf(relativePath: string): PlaceResult {
  // Any file under extra/ is copied to the tree as it is, whatever its name.
  if (relativePath.startsWith(EXTRA_FOLDER)) return { extra: relativePath.slice(EXTRA_FOLDER.length) };
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
  if (parts.length === 4 && parts[0] === 'projects' && parts[2] === 'categories') {
    return { place: { kind: 'category', project: parts[1]!, category: stem(parts[3]!) } };
  }
  return {
    error:
      'expected content files at site.yaml, languages/<code>.yaml, projects/<project>/project.yaml, ' +
      'projects/<project>/components/<component>.yaml or projects/<project>/categories/<category>.yaml',
  };
}

type CheckResult<K extends ContentFileKind> =
  | {
      ok: true;
      checked: CheckedFile<K>;
      /** What the file most likely left out by mistake (rules.ts#componentWarnings): reported, not refused unless --strict. */
      warnings?: ContentError[] | undefined;
    }
  | {
      ok: false;
      errors: ContentError[];
      /**
       * The file without its fields at fault, when that still makes a file:
       * the cross-file rules check it too, so one run reports every error.
       */
      salvaged?: CheckedFile<K> | undefined;
    };

/** Parses and checks one file's text against the schema of its kind. */
export function checkFile<K extends ContentFileKind>(
  file: string,
  place: Extract<FilePlace, { kind: K }>,
  text: string,
): CheckResult<K> {
  const parsed = readContentYaml(text);
  if (!parsed.ok) {
    const errors = parsed.problems.map(({ line, column, message }) => ({ file, line, column, path: '', message: `expected valid YAML (got: ${message})` }));
    return { ok: false, errors };
  }
  const value = parsed.value === null && place.kind === 'site' ? {} : parsed.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, errors: [{ file, line: 1, column: 1, path: '', message: `expected a map of fields (got ${describeValue(value)})` }] };
  }
  const result = SCHEMAS[place.kind].safeParse(value);
  if (result.success) return checkData(file, place, result.data, parsed.sourceOf);
  const errors = schemaErrors(file, place.kind, parsed.sourceOf, value, result.error.issues);
  // site.yaml is not salvaged: its fields at fault would read as missing.
  if (place.kind === 'site') return { ok: false, errors };
  const salvage = SCHEMAS[place.kind].safeParse(withoutFaults(value, result.error.issues.flatMap(faultOf)));
  if (!salvage.success) return { ok: false, errors };
  const rest = checkData(file, place, salvage.data, parsed.sourceOf);
  return rest.ok ? { ok: false, errors, salvaged: rest.checked } : { ok: false, errors: [...errors, ...rest.errors], salvaged: rest.salvaged };
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

/** A checked component file's repeated texts kept once through `intern` (prepare.ts#sharePreparedTexts); other files are left as they are. */
export function shareCheckedTexts({ result }: CheckedText, intern: Intern): void {
  const checked = result.ok ? result.checked : result.salvaged;
  if (checked?.place.kind === 'component') sharePreparedTexts(checked.data as PreparedComponent, intern);
}

/** Builds a ContentError for a field path of a parsed file. */
function errorAt(file: string, sourceOf: SourceOf, path: FieldPath, message: string, atKey = false): ContentError {
  const { line, column } = locate(sourceOf(), path, atKey);
  return { file, line, column, path: formatPath(path), message };
}

// --- internal ---

/** The parsed document of a file, made only when an error or warning needs a position. */
type SourceOf = () => YamlSource;

type ContentYaml = { ok: true; value: unknown; sourceOf: SourceOf } | Extract<ReturnType<typeof readYaml>, { ok: false }>;

/**
 * A file's value: by the fast path when the text is plain block maps
 * (plain-yaml.ts), its document then parsed only if a position is asked for.
 */
function readContentYaml(text: string): ContentYaml {
  const plain = readPlainMap(text);
  if (plain !== undefined) {
    let source: YamlSource | undefined;
    return { ok: true, value: plain, sourceOf: () => (source ??= parseYaml(text)) };
  }
  const parsed = readYaml(text);
  return parsed.ok ? { ok: true, value: parsed.value, sourceOf: () => parsed.source } : parsed;
}

/**
 * The rules of a file whose fields passed the schema; a component is then
 * kept in its prepared form. A component that breaks a rule is salvaged
 * without the fields at fault, when it then keeps every rule.
 */
function checkData<K extends ContentFileKind>(file: string, place: Extract<FilePlace, { kind: K }>, data: unknown, sourceOf: SourceOf): CheckResult<K> {
  if (place.kind !== 'component') return { ok: true, checked: { file, place, data } as CheckedFile<K> };
  const component = data as ComponentFile;
  const { project, component: slug } = place as Extract<FilePlace, { kind: 'component' }>;
  const prepared = (valid: ComponentFile) => ({ file, place, data: prepareComponent(valid, project, slug) }) as CheckedFile<K>;
  const problems = checkComponentFile(component);
  if (problems.length === 0) {
    const warnings = componentWarnings(component).map((w) => errorAt(file, sourceOf, w.path, w.message));
    return { ok: true, checked: prepared(component), ...(warnings.length > 0 ? { warnings } : {}) };
  }
  const errors = problems.map((p) => errorAt(file, sourceOf, p.path, p.message));
  const salvage = componentSchema.safeParse(withoutFaults(component, problems.map((p) => p.path)));
  const salvaged = salvage.success && checkComponentFile(salvage.data).length === 0 ? prepared(salvage.data) : undefined;
  return { ok: false, errors, salvaged };
}

/** Where a schema issue puts its fault: the field, or each unknown key. */
function faultOf(issue: z.core.$ZodIssue): FieldPath[] {
  const path = issue.path as (string | number)[];
  return issue.code === 'unrecognized_keys' ? issue.keys.map((key) => [...path, key]) : [path];
}

/** A copy of a file's value without the fields at fault (unknown keys, values of the wrong kind, counters past their bounds). */
function withoutFaults(value: object, faults: readonly FieldPath[]): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  for (const path of faults) {
    if (path.length === 0) continue;
    const parent = valueAt(copy, path.slice(0, -1));
    if (parent && typeof parent === 'object') delete (parent as Record<string | number, unknown>)[path.at(-1)!];
  }
  return copy;
}

const SCHEMAS = {
  site: siteSchema,
  language: languageSchema,
  project: projectSchema,
  category: categorySchema,
  component: componentSchema,
} as const satisfies Record<ContentFileKind, z.ZodType>;

function schemaErrors(
  file: string,
  kind: ContentFileKind,
  sourceOf: SourceOf,
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
        errors.push(errorAt(file, sourceOf, [...path, key], `unknown field (${hint})`, true));
      }
      continue;
    }
    const found = valueAt(data, path);
    const got = found === undefined ? 'missing' : `got ${describeValue(found)}`;
    errors.push(errorAt(file, sourceOf, path, `${issue.message} (${got})`));
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
