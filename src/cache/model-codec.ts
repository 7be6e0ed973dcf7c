/**
 * The model in a compact form that a new process reads back in a fraction of
 * the time a resolve takes: references become indexes, a component's
 * settings keep only what differs from Weblate's defaults, and translations
 * go in chunks of columns (numbers in a Float64Array, texts joined in one
 * string), each chunk serialized on its own so that neither writing nor
 * reading ever holds a second copy of a large model at once. The versions
 * (fingerprints) of every component and translation go with them
 * (tree/fingerprints.ts): they stay valid for as long as the settings, project and
 * language files do not change.
 */
import {
  createAggregateMemo,
  type AggregateMemo,
  type Aggregates,
  type ProjectSums,
} from '../model/aggregates.ts';
import { deserialize, serialize } from 'node:v8';
import { COMPONENT_FIELD_DEFAULTS, COMPONENT_FIELD_DEFAULTS_2026 } from '../model/defaults.ts';
import {
  createIntern,
  inheritedKey,
  internSettings,
  isDefault,
  type Intern,
} from '../model/intern.ts';
import { splitOwnCopies } from '../model/text-copy.ts';
import { createTranslationPacker, type TranslationPacker } from '../model/packed-translations.ts';
import { COUNTER_NUMBERS, type Counters } from '../model/statistics.ts';
import type { Timestamp } from '../model/timestamps.ts';
import type {
  Category,
  Component,
  ComponentSettings,
  Inherited,
  Language,
  Model,
  Project,
  Settings,
  Translation,
} from '../model/types.ts';
import {
  createFingerprintCache,
  type FingerprintCache,
  type Fingerprints,
} from '../tree/fingerprints.ts';

/** What encodeModel() needs of the versions: each component's and translation's. */
type KnownFingerprints = Pick<Fingerprints, 'component' | 'translation'>;
/** What encodeModel() needs of the sums: each project's. */
type KnownSums = Pick<Aggregates, 'project' | 'projectLanguages'>;

/**
 * The model as parts to write one after another; null when it holds a text the format cannot
 * carry (a NUL character). The head comes first, then each chunk of components and each chunk
 * of translations, encoded only as it is asked for: at a million translations the chunks held at
 * once would take some 600 MB.
 */
export function encodeModel(
  model: Model,
  fingerprints: KnownFingerprints,
  sums: KnownSums,
): Iterable<Buffer> | null {
  const languages = [...model.languages];
  const languageIndex = new Map(languages.map((language, index) => [language, index]));
  const indexOfLanguage = (language: Language) => {
    let index = languageIndex.get(language);
    if (index === undefined) languageIndex.set(language, (index = languages.push(language) - 1));
    return index;
  };
  const projectIndex = new Map(model.projects.map((project, index) => [project, index]));
  const componentIndex = new Map(model.components.map((component, index) => [component, index]));
  const categoryIndex = new Map(model.categories.map((category, index) => [category, index]));
  const indexOfCategory = (category: Category | null) =>
    category ? categoryIndex.get(category)! : -1;
  // The head lists every language the parts refer to, in the order the parts first do.
  for (const c of model.components) indexOfLanguage(c.sourceLanguage);
  for (const t of model.translations) {
    if (!carriesTexts(t)) return null;
    indexOfLanguage(t.language);
  }
  const head: Head = {
    settings: model.settings,
    languages,
    published: model.languages.length,
    projects: model.projects.map(projectFields),
    categories: model.categories.map((c): EncodedCategory => ({
      ...c,
      project: projectIndex.get(c.project)!,
      parent: indexOfCategory(c.parent),
    })),
    ...distinctInherited(model.components),
    components: model.components.length,
    fingerprints: Float64Array.from(model.components, (c) => c.contentFingerprint),
    versions: Float64Array.from(model.components, (c) => fingerprints.component(c)),
    translations: model.translations.length,
    sums: encodeSums(model.projects, sums, indexOfLanguage),
  };
  const encodeComponent = (c: Component): EncodedComponent => [
    c.slug,
    c.id,
    c.name,
    projectIndex.get(c.project)!,
    indexOfLanguage(c.sourceLanguage),
    settingsDiff(c.settings),
    c.licenseUrl,
    c.linkedComponent ? componentIndex.get(c.linkedComponent)! : -1,
    c.locked,
    c.links.map((project) => projectIndex.get(project)!),
    c.file,
    indexOfCategory(c.category),
    c.licenseUrl2026,
  ];
  return partsAfter(
    serialize(head),
    chunksOf(model.components, COMPONENT_CHUNK, (components) =>
      Buffer.from(JSON.stringify(components.map(encodeComponent))),
    ),
    chunksOf(model.translations, CHUNK, (translations) =>
      encodeTranslations(translations, componentIndex, indexOfLanguage, fingerprints),
    ),
  );
}

/**
 * Reads back what encodeModel() wrote, and the versions it was given; throws on anything it did
 * not write (the caller then reads the content). Each part is taken from `parts` only when it is
 * decoded, so parts read as they are asked for are never all held beside the model.
 */
export function decodeModel(parts: Iterable<Buffer>): {
  model: Model;
  fingerprints: FingerprintCache;
} {
  const next = parts[Symbol.iterator]();
  const first = next.next();
  if (first.done) throw new Error('expected the head of a model');
  const head = deserialize(first.value) as Head;
  const languages = head.languages;
  const projects: Project[] = head.projects.map((project) => ({
    ...project,
    components: [],
    categories: [],
  }));
  const categories = decodeCategories(head.categories, projects);
  // A decoded text is a copy of its own: the texts that components and translations repeat are kept once.
  const intern = createIntern();
  for (const inherited of head.inherited) internInherited(inherited, intern);
  const components: Component[] = [];
  // A component may link to one in a later chunk: linked once all are decoded.
  const linked: number[] = [];
  while (components.length < head.components) {
    const part = next.next();
    if (part.done) throw new Error(`expected ${head.components} components`);
    for (const c of JSON.parse(part.value.toString('utf8')) as EncodedComponent[]) {
      components.push(
        decodeComponent(c, components.length, head, { projects, categories, intern }),
      );
      linked.push(c[7]);
    }
  }
  const fingerprints: FingerprintCache = {
    ...createFingerprintCache(),
    aggregates: decodeSums(head.sums, projects, languages),
  };
  components.forEach((component, index) => {
    fingerprints.components.set(component, head.versions[index]!);
    if (linked[index]! >= 0) component.linkedComponent = components[linked[index]!]!;
    component.project.components.push(component);
  });
  const translations: Translation[] = [];
  const pack = createTranslationPacker();
  for (let part = next.next(); !part.done; part = next.next())
    decodeTranslations(
      part.value,
      { components, languages, intern, pack },
      translations,
      fingerprints,
    );
  if (translations.length !== head.translations)
    throw new Error(`expected ${head.translations} translations (got ${translations.length})`);
  return {
    model: {
      settings: head.settings,
      languages: languages.slice(0, head.published),
      projects,
      categories,
      components,
      translations,
    },
    fingerprints,
  };
}

// --- internal ---

/** Translations per chunk. */
const CHUNK = 16384;
/**
 * Components per chunk. In the head, the components of a million translations took some 90 MB
 * as one JSON text, beside its copy in the head's bytes and the arrays it was made of, all at
 * once while the model is live.
 */
const COMPONENT_CHUNK = 4096;
/** Texts per translation that are most often its own (revision, last change); the others are in the chunk's table of shared texts. */
const TEXTS = 2;
const SEPARATOR = '\u0000';

interface Head {
  settings: Settings;
  /** The published languages first, then any other one referred to. */
  languages: Language[];
  published: number;
  projects: Omit<Project, 'components' | 'categories'>[];
  categories: EncodedCategory[];
  /**
   * The components' inheritable settings, each distinct value once (in this structured clone, their languages are
   * those above): most components of an instance share them, and each holds every message template twice.
   */
  inherited: Inherited[];
  /** Each component's among them. */
  inheritedOf: Int32Array;
  /**
   * How many components there are; they follow the head in chunks of COMPONENT_CHUNK, each an
   * EncodedComponent[] as JSON (a format for many small arrays that reads back faster than a
   * structured clone).
   */
  components: number;
  fingerprints: Float64Array;
  versions: Float64Array;
  translations: number;
  /** Each project's sums, so that a build which looks at a few projects does not sum every other to sum a language. */
  sums: EncodedSums;
}

/** Rows of [project, language (-1: the project's total), counters…], and each row's last change ('' for none). */
interface EncodedSums {
  numbers: Float64Array;
  lastChanges: string;
}

/**
 * slug, id, name, project, source language, settings that differ from the defaults, license URL, linked component, locked, links, file,
 * category (-1: none), license URL of the 2026.8 flavour.
 */
type EncodedComponent = [
  string,
  number,
  string,
  number,
  number,
  Record<string, unknown>,
  string | null,
  number,
  boolean,
  number[],
  string,
  number,
  string | null,
];

/** A category with its project and parent by index (-1: at the top of the project). */
type EncodedCategory = Omit<Category, 'project' | 'parent'> & { project: number; parent: number };

interface EncodedTranslations {
  numbers: Float64Array;
  texts: string;
  /** Texts that many translations of a chunk share: language codes, file names, authors. */
  shared: string[];
}

/**
 * Numbers per translation: id, component, language, flags, the counters, content fingerprint, version, and where its
 * language code, file name and last author (-1: none) are in the chunk's table of shared texts.
 */
const WIDTH = 9 + COUNTER_NUMBERS.length;
/** Where a translation's content fingerprint and version are among its numbers, and its shared texts. */
const FINGERPRINT = 4 + COUNTER_NUMBERS.length;
const VERSION = FINGERPRINT + 1;
const LANGUAGE_CODE = VERSION + 1;
const FILENAME = VERSION + 2;
const LAST_AUTHOR = VERSION + 3;

const IS_SOURCE = 1;
const IS_TEMPLATE = 2;
const NO_LAST_CHANGE = 4;

/** A project without its components (they are written, and put back, by their own index). */
function projectFields(project: Project): Omit<Project, 'components' | 'categories'> {
  const fields: Partial<Project> = { ...project };
  delete fields.components;
  delete fields.categories;
  return fields as Omit<Project, 'components' | 'categories'>;
}

/** Every component setting's default, both flavours'. */
const SETTING_DEFAULTS: Record<string, unknown> = {
  ...COMPONENT_FIELD_DEFAULTS,
  ...COMPONENT_FIELD_DEFAULTS_2026,
};

/** The categories back, each in its project's list (they were written by id, parents before children or not). */
function decodeCategories(
  encoded: readonly EncodedCategory[],
  projects: readonly Project[],
): Category[] {
  const categories = encoded.map((c): Category => ({
    ...c,
    project: projects[c.project]!,
    parent: null,
  }));
  categories.forEach((category, index) => {
    const parent = encoded[index]!.parent;
    if (parent >= 0) category.parent = categories[parent]!;
    category.project.categories.push(category);
  });
  return categories;
}

function settingsDiff(settings: ComponentSettings): Record<string, unknown> {
  const diff: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(settings))
    if (!isDefault(value, SETTING_DEFAULTS[key])) diff[key] = value;
  return diff;
}

/** What a component's and a translation's references point to once decoded, the texts kept once, the counters compactly. */
interface Decoded {
  projects: Project[];
  categories: Category[];
  components: Component[];
  languages: Language[];
  intern: Intern;
  pack: TranslationPacker;
}

function decodeComponent(
  c: EncodedComponent,
  index: number,
  head: Head,
  { projects, categories, intern }: Pick<Decoded, 'projects' | 'categories' | 'intern'>,
): Component {
  const [
    slug,
    id,
    name,
    project,
    source,
    diff,
    licenseUrl,
    ,
    locked,
    links,
    file,
    category,
    licenseUrl2026,
  ] = c;
  return {
    slug,
    id,
    name,
    project: projects[project]!,
    sourceLanguage: head.languages[source]!,
    category: category >= 0 ? categories[category]! : null,
    settings: internSettings(diff, intern),
    inherited: head.inherited[head.inheritedOf[index]!]!,
    licenseUrl: intern(licenseUrl),
    licenseUrl2026: intern(licenseUrl2026),
    linkedComponent: null,
    locked,
    links: links.map((i) => projects[i]!),
    translations: [],
    file,
    contentFingerprint: head.fingerprints[index]!,
  };
}

/** The head, then each chunk of each list, encoded only once the reader reaches it. */
function* partsAfter(head: Buffer, ...lists: Iterable<Buffer>[]): Generator<Buffer> {
  yield head;
  for (const list of lists) yield* list;
}

/** A list's chunks of `size` items, each encoded only when asked for. */
function* chunksOf<T>(
  items: readonly T[],
  size: number,
  encode: (chunk: readonly T[]) => Buffer,
): Generator<Buffer> {
  for (let start = 0; start < items.length; start += size)
    yield encode(items.slice(start, start + size));
}

/** Whether the texts of a translation that a chunk joins with the separator are free of it. */
function carriesTexts(t: Translation): boolean {
  const { revision, languageCode, filename, lastAuthor } = t;
  const texts = [revision, t.counters.last_change, languageCode, filename, lastAuthor];
  return !texts.some(holdsSeparator);
}

function holdsSeparator(text: string | null): boolean {
  return text !== null && text.includes(SEPARATOR);
}

function encodeTranslations(
  translations: readonly Translation[],
  componentIndex: ReadonlyMap<Component, number>,
  indexOfLanguage: (language: Language) => number,
  fingerprints: KnownFingerprints,
): Buffer {
  const numbers = new Float64Array(translations.length * WIDTH);
  const texts: string[] = [];
  const shared: string[] = [];
  const sharedIndex = new Map<string, number>();
  const indexOfShared = (text: string) => {
    let index = sharedIndex.get(text);
    if (index === undefined) sharedIndex.set(text, (index = shared.push(text) - 1));
    return index;
  };
  let o = 0;
  for (const t of translations) {
    const c = t.counters;
    numbers[o] = t.id;
    numbers[o + 1] = componentIndex.get(t.component)!;
    numbers[o + 2] = indexOfLanguage(t.language);
    numbers[o + 3] =
      (t.isSource ? IS_SOURCE : 0) |
      (t.isTemplate ? IS_TEMPLATE : 0) |
      (c.last_change === null ? NO_LAST_CHANGE : 0);
    for (let k = 0; k < COUNTER_NUMBERS.length; k++) numbers[o + 4 + k] = c[COUNTER_NUMBERS[k]!];
    numbers[o + FINGERPRINT] = t.contentFingerprint;
    numbers[o + VERSION] = fingerprints.translation(t);
    numbers[o + LANGUAGE_CODE] = indexOfShared(t.languageCode);
    numbers[o + FILENAME] = indexOfShared(t.filename);
    numbers[o + LAST_AUTHOR] = t.lastAuthor === null ? -1 : indexOfShared(t.lastAuthor);
    texts.push(t.revision, c.last_change ?? '');
    o += WIDTH;
  }
  const encoded: EncodedTranslations = { numbers, texts: texts.join(SEPARATOR), shared };
  return serialize(encoded);
}

function decodeTranslations(
  part: Buffer,
  {
    components,
    languages,
    intern,
    pack,
  }: Pick<Decoded, 'components' | 'languages' | 'intern' | 'pack'>,
  into: Translation[],
  fingerprints: FingerprintCache,
): void {
  const encoded = deserialize(part) as EncodedTranslations;
  const { numbers: n, texts: joined } = encoded;
  const shared = encoded.shared.map(intern);
  // Translations of a component mostly show one revision: kept once per chunk.
  const revisions = createIntern();
  // Split, each text would be a view of the joined string: some 40 bytes more per text.
  const texts = splitOwnCopies(joined, SEPARATOR);
  if (texts.length !== (n.length / WIDTH) * TEXTS)
    throw new Error('expected as many texts as translations');
  for (let o = 0, s = 0; o < n.length; o += WIDTH, s += TEXTS) {
    const flags = n[o + 3]!;
    const counters = countersAt(
      n,
      o + 4,
      flags & NO_LAST_CHANGE ? null : (texts[s + 1] as Timestamp),
    );
    const component = components[n[o + 1]!]!;
    const author = n[o + LAST_AUTHOR]!;
    const translation = pack({
      id: n[o]!,
      component,
      language: languages[n[o + 2]!]!,
      languageCode: shared[n[o + LANGUAGE_CODE]!]!,
      filename: shared[n[o + FILENAME]!]!,
      revision: revisions(texts[s]!),
      isSource: (flags & IS_SOURCE) !== 0,
      isTemplate: (flags & IS_TEMPLATE) !== 0,
      counters,
      lastAuthor: author < 0 ? null : shared[author]!,
      contentFingerprint: n[o + FINGERPRINT]!,
    });
    component.translations.push(translation);
    into.push(translation);
    fingerprints.translations.set(translation, n[o + VERSION]!);
  }
}

/** Interns the texts of decoded inheritable settings in place (they are the decoder's own objects). */
function internInherited(inherited: Inherited, intern: Intern): void {
  for (const values of [inherited.own, inherited.effective] as Record<string, unknown>[])
    for (const [key, value] of Object.entries(values))
      if (typeof value === 'string') values[key] = intern(value);
  inherited.checkFlags = intern(inherited.checkFlags);
  inherited.effectiveCheckFlags = intern(inherited.effectiveCheckFlags);
}

/** The components' inheritable settings, each distinct value once, and which is each component's (an object shared is never changed). */
function distinctInherited(
  components: readonly Component[],
): Pick<Head, 'inherited' | 'inheritedOf'> {
  const inherited: Inherited[] = [];
  const indexes = new Map<string, number>();
  const inheritedOf = Int32Array.from(components, (c) => {
    const key = inheritedKey(c.inherited);
    let index = indexes.get(key);
    if (index === undefined) indexes.set(key, (index = inherited.push(c.inherited) - 1));
    return index;
  });
  return { inherited, inheritedOf };
}

const SUM_WIDTH = 2 + COUNTER_NUMBERS.length;

function encodeSums(
  projects: readonly Project[],
  sums: KnownSums,
  indexOfLanguage: (language: Language) => number,
): EncodedSums {
  const rows: [number, number, Counters][] = [];
  projects.forEach((project, p) => {
    rows.push([p, -1, sums.project(project)]);
    for (const [language, sum] of sums.projectLanguages(project))
      rows.push([p, indexOfLanguage(language), sum]);
  });
  const numbers = new Float64Array(rows.length * SUM_WIDTH);
  rows.forEach(([p, l, counters], row) => {
    const o = row * SUM_WIDTH;
    numbers[o] = p;
    numbers[o + 1] = l;
    for (let k = 0; k < COUNTER_NUMBERS.length; k++)
      numbers[o + 2 + k] = counters[COUNTER_NUMBERS[k]!];
  });
  return {
    numbers,
    lastChanges: rows.map(([, , counters]) => counters.last_change ?? '').join(SEPARATOR),
  };
}

function decodeSums(
  encoded: EncodedSums,
  projects: readonly Project[],
  languages: readonly Language[],
): AggregateMemo {
  const memo = createAggregateMemo();
  const lastChanges = encoded.lastChanges.split(SEPARATOR);
  const byProject = projects.map((): ProjectSums | null => null);
  for (let o = 0, row = 0; o < encoded.numbers.length; o += SUM_WIDTH, row++) {
    const [p, l] = [encoded.numbers[o]!, encoded.numbers[o + 1]!];
    const counters = countersAt(
      encoded.numbers,
      o + 2,
      (lastChanges[row] || null) as Timestamp | null,
    );
    const sums = byProject[p] ?? (byProject[p] = { total: counters, languages: new Map() });
    if (l >= 0) sums.languages.set(languages[l]!, counters);
  }
  byProject.forEach((sums, p) => sums && memo.projects.set(projects[p]!.components, sums));
  return memo;
}

/**
 * The counters at `o` in a row of numbers (in COUNTER_NUMBERS' order), as one literal: every counters object has the same
 * layout. Each is read as an integer: a number read from a Float64Array as it is makes V8 keep every field of the
 * layout as a boxed double, 12 bytes more per counter of a million translations.
 */
function countersAt(n: Float64Array, o: number, lastChange: Timestamp | null): Counters {
  return {
    total: integer(n[o]!),
    total_words: integer(n[o + 1]!),
    total_chars: integer(n[o + 2]!),
    translated: integer(n[o + 3]!),
    translated_words: integer(n[o + 4]!),
    translated_chars: integer(n[o + 5]!),
    fuzzy: integer(n[o + 6]!),
    fuzzy_words: integer(n[o + 7]!),
    fuzzy_chars: integer(n[o + 8]!),
    failing_checks: integer(n[o + 9]!),
    failing_checks_words: integer(n[o + 10]!),
    approved: integer(n[o + 11]!),
    approved_words: integer(n[o + 12]!),
    approved_chars: integer(n[o + 13]!),
    readonly: integer(n[o + 14]!),
    readonly_words: integer(n[o + 15]!),
    readonly_chars: integer(n[o + 16]!),
    have_suggestion: integer(n[o + 17]!),
    have_comment: integer(n[o + 18]!),
    recent_changes: integer(n[o + 19]!),
    last_change: lastChange,
  };
}

/** A counter as a small integer where it is one (anything larger stays as it is). */
function integer(value: number): number {
  const small = value | 0;
  return small === value ? small : value;
}
