/**
 * Cross-file validation: turns the checked files into the model (model/types.ts)
 * or into every error found, each pinned to a file, line and column. Rules
 * here need more than one file: slugs and codes, references to languages and
 * projects, repository links, ids.
 */
import { shapesOf, type Release } from '../model/releases.ts';
import type { ContentError } from '../errors.ts';
import { compareStrings } from '../errors.ts';
import type { Catalog } from '../catalog/catalog.ts';
import { derivedId } from '../model/ids.ts';
import { emptyCounters, type Counters } from '../model/statistics.ts';
import type {
  Category,
  Component,
  Inherited,
  Language,
  Model,
  Project,
  Settings,
  Translation,
} from '../model/types.ts';
import { checkBaseUrl } from '../content/base-url.ts';
import { quote } from '../content/describe.ts';
import {
  checkLanguageIds,
  resolveLanguageFiles,
  languageResolver,
  type LanguageResolver,
} from './languages.ts';
import { resolveCategories } from './categories.ts';
import { checkFlavourFields } from './flavour.ts';
import {
  checkCheckFlags,
  inheritableInput,
  inheritSettings,
  type InheritableInput,
} from './inherit.ts';
import { FILE_FORMAT_FLAGS } from '../model/flags.ts';
import {
  createInheritedTable,
  createIntern,
  internSettings,
  type Intern,
} from '../model/intern.ts';
import { createTranslationPacker, type TranslationPacker } from '../model/packed-translations.ts';
import type { LoadedContent } from '../content/load.ts';
import type { FieldPath } from '../content/locate.ts';
import { pinProblems, type Problem } from '../content/problems.ts';
import type { CheckedFile } from '../content/files.ts';
import {
  spdxLicenseUrl,
  translationEntry,
  type PreparedComponent,
  type PreparedTranslation,
} from '../content/prepare.ts';
import { slugExpectation } from '../content/schema.ts';
import {
  PROJECT_FIELD_DEFAULTS_2026,
  INHERITABLE_SETTINGS,
  PROJECT_FIELD_DEFAULTS,
  SITE_DEFAULTS,
  type InheritableSetting,
  type WeblateVersion,
} from '../model/defaults.ts';

/** Settings given on the command line; they win over site.yaml. */
export interface SettingsOverrides {
  baseUrl?: string | undefined;
  webUrl?: string | undefined;
  pageSize?: number | undefined;
  pagination?: 'path' | 'query' | undefined;
  weblateVersion?: Release | undefined;
  pages?: boolean | undefined;
  pngWidgets?: 'projects' | 'all' | undefined;
}

type ResolveResult = { ok: true; model: Model } | { ok: false; errors: ContentError[] };

/** How a resolve treats what it is given, and who sees the components resolved. */
interface ResolveOptions {
  /**
   * Sees the components resolved, whether or not all is well: a check of the
   * content in parts carries their ids and links between parts.
   */
  onComponents?: ((drafts: readonly ComponentDraft[]) => void) | undefined;
}

/**
 * Builds the model from checked files. `readText` gives a file's text again
 * when an error must be pinned to a line (errors are rare; texts are not kept).
 * The content's component files are the resolve's to let go: each leaves
 * `content.components` once resolved, so that a caller holding no other
 * reference never holds every checked file and the whole model at once.
 */
export function resolveContent(
  content: LoadedContent,
  overrides: SettingsOverrides,
  catalog: Catalog,
  readText: (file: string) => string,
  contentDir: string,
  options: ResolveOptions = {},
): ResolveResult {
  const problems: Problem[] = [];
  const settings = resolveSettings(content.site, overrides, problems, contentDir, content.siteFile);
  const release =
    overrides.weblateVersion ?? content.site?.data.weblate_version ?? SITE_DEFAULTS.weblate_version;
  const version = shapesOf(release);
  for (const checked of content.languages)
    checkFlavourFields('language', Object.keys(checked.data), version, checked.file, problems);
  const definitions = resolveLanguageFiles(content.languages, catalog, release, problems);
  checkCaseCollisions(
    content.languages.map((checked) => ({ key: checked.place.code, file: checked.file })),
    'language code',
    problems,
  );
  const languages = languageResolver(definitions, catalog, release);
  const projects = resolveProjects(content, languages, version, problems, contentDir);
  const projectsBySlug = new Map([...projects].map(([slug, draft]) => [slug, draft.project]));
  const categories = resolveCategories(
    content.categories,
    projectsBySlug,
    languages,
    version,
    problems,
  );
  const present: PresentFiles = {
    projects: new Set(content.projectFiles),
    components: content.componentFiles,
    categories: new Set(content.categoryFiles),
  };
  const context: ComponentContext = {
    projects: projectsBySlug,
    languages,
    version,
    problems,
    present,
    intern: createIntern(),
    shareInherited: createInheritedTable(),
    pack: createTranslationPacker(),
  };
  const components = resolveComponents(content.components, context);
  const byPath = new Map(components.map((d) => [componentPath(d.component), d.component]));
  for (const draft of components) linkRepository(draft.component, byPath, problems, present);
  options.onComponents?.(components);
  checkUniqueIds(projects, components, categories, problems);
  checkPluralIds([...definitions.values(), ...languages.used()], problems);
  if (version !== '4') checkLanguageIds([...definitions.values(), ...languages.used()], problems);
  if (problems.length > 0 || !settings)
    return { ok: false, errors: pinProblems(problems, readText) };
  return {
    ok: true,
    model: assembleModel(settings, projects, categories, components, definitions),
  };
}

/** The longest file name most file systems take, in bytes. */
const MAX_FILE_NAME = 255;

/** What resolving a component needs besides its file. */
export interface ComponentContext {
  projects: ReadonlyMap<string, Project>;
  languages: LanguageResolver;
  version: WeblateVersion;
  problems: Problem[];
  present?: PresentFiles;
  /**
   * The texts of the model being resolved, each kept once (a patch may bring its own). The
   * checked files' own texts arrive shared already: the load shares them as each is checked.
   */
  intern?: Intern;
  /** The components' inheritable settings, each distinct value once. */
  shareInherited?: (inherited: Inherited) => Inherited;
  /** The translations, held compactly (a patch may bring its own). */
  pack?: TranslationPacker;
}

// --- internal ---

interface ProjectDraft {
  project: Project;
  checked: CheckedFile<'project'>;
}

export interface ComponentDraft {
  component: Component;
  /** Translations with the key they are listed under (null for the derived source translation). */
  translations: { translation: Translation; key: string | null }[];
}

/** The site that site.yaml (null: none) and the flags give, or null when neither gives a base URL. */
export function settingsOf(
  file: CheckedFile<'site'> | null,
  overrides: SettingsOverrides,
  contentDir: string,
): Settings | null {
  return resolveSettings(file, overrides, [], contentDir, file !== null);
}

function resolveSettings(
  file: CheckedFile<'site'> | null,
  overrides: SettingsOverrides,
  problems: Problem[],
  contentDir: string,
  siteFileFound: boolean,
): Settings | null {
  const data = file?.data ?? {};
  const baseUrl = overrides.baseUrl ?? data.base_url;
  // A site.yaml that failed its own checks has reported why; its base_url is not also missing.
  if (!baseUrl && siteFileFound && !file) return null;
  if (!baseUrl) {
    problems.push({
      file: file?.file ?? joinPath(contentDir, 'site.yaml'),
      path: ['base_url'],
      message: 'expected the base URL of the snapshot, in site.yaml or with --base-url (missing)',
    });
    return null;
  }
  // Both were checked (schema or flag); this gives them as links are written from them.
  const trim = (url: string) => {
    const checked = checkBaseUrl(url);
    return checked.ok ? checked.url : url.replace(/\/+$/, '');
  };
  const base = trim(baseUrl);
  const web = trim(overrides.webUrl ?? data.web_url ?? baseUrl);
  return {
    baseUrl: base,
    webUrl: web,
    pageSize: overrides.pageSize ?? data.page_size ?? SITE_DEFAULTS.page_size,
    pagination: overrides.pagination ?? data.pagination ?? SITE_DEFAULTS.pagination,
    weblateVersion:
      overrides.weblateVersion ?? data.weblate_version ?? SITE_DEFAULTS.weblate_version,
    // The status site belongs where the web links lead: on when they point at the snapshot itself.
    pages: overrides.pages ?? data.pages ?? web === base,
    pngWidgets: overrides.pngWidgets ?? data.png_widgets ?? 'projects',
    editUrl: data.edit_url === undefined ? null : trim(data.edit_url),
    title: data.title ?? null,
  };
}

function resolveProjects(
  content: LoadedContent,
  languages: LanguageResolver,
  version: WeblateVersion,
  problems: Problem[],
  contentDir: string,
): Map<string, ProjectDraft> {
  const drafts = new Map<string, ProjectDraft>();
  for (const checked of content.projects) {
    const slug = checked.place.project;
    if (!checkSlug(slug, checked.file, 'project', problems)) continue;
    checkFlavourFields('project', Object.keys(checked.data), version, checked.file, problems);
    if (version !== '4') checkCheckFlags(checked.data.check_flags, checked.file, problems);
    const d = checked.data;
    const fields = { ...PROJECT_FIELD_DEFAULTS, ...definedFields(checked.data) };
    const current = { ...PROJECT_FIELD_DEFAULTS_2026, ...definedFields(checked.data) };
    const project: Project = {
      slug,
      id: d.id ?? derivedId('project', slug),
      name: d.name,
      web: fields.web,
      translation_review: fields.translation_review,
      source_review: fields.source_review,
      set_language_team: fields.set_language_team,
      instructions: fields.instructions,
      enable_hooks: fields.enable_hooks,
      language_aliases: fields.language_aliases,
      current: {
        check_flags: current.check_flags,
        commit_policy: current.commit_policy,
        access_control: current.access_control,
        public_sharing: current.public_sharing,
        use_shared_tm: current.use_shared_tm,
        contribute_shared_tm: current.contribute_shared_tm,
        use_workspace_tm: current.use_workspace_tm,
        contribute_workspace_tm: current.contribute_workspace_tm,
        autoclean_tm: current.autoclean_tm,
        enforced_2fa: current.enforced_2fa,
      },
      inherited: inheritSettings(
        inheritableInput(checked.data, checked.file, version === '4' ? null : languages, problems),
        null,
      ),
      components: [],
      categories: [],
      file: checked.file,
    };
    drafts.set(slug, { project, checked });
  }
  for (const folder of content.projectFolders) {
    if (!content.projectFiles.includes(folder)) {
      problems.push({
        file: joinPath(contentDir, `projects/${folder}/project.yaml`),
        path: [],
        message: 'expected a project.yaml in every project folder (missing)',
      });
    }
  }
  checkCaseCollisions(
    [...drafts.values()].map((d) => ({ key: d.project.slug, file: d.project.file })),
    'project slug',
    problems,
  );
  return drafts;
}

function resolveComponents(
  files: CheckedFile<'component'>[],
  context: ComponentContext,
): ComponentDraft[] {
  const drafts: ComponentDraft[] = [];
  // Taken from the end of the list reversed, in the files' order: a file taken is held no more.
  const waiting = files.reverse();
  while (waiting.length > 0) {
    const checked = waiting.pop()!;
    const project = context.projects.get(checked.place.project);
    if (!project) continue; // reported as a folder without project.yaml
    const draft = resolveComponent(checked, project, context);
    if (draft) drafts.push(draft);
  }
  for (const project of context.projects.values()) {
    const own = drafts.filter((d) => d.component.project === project);
    checkCaseCollisions(
      own.map((d) => ({ key: d.component.slug, file: d.component.file })),
      'component slug',
      context.problems,
    );
    checkSharedPaths(own, project, context.problems);
  }
  return drafts;
}

/**
 * A component file's model objects, its references to languages, projects
 * and its category resolved; null when its slug or source language is
 * refused (reported).
 */
export function resolveComponent(
  checked: CheckedFile<'component'>,
  project: Project,
  context: ComponentContext,
): ComponentDraft | null {
  const { projects, languages, problems, version } = context;
  const present = context.present ?? NONE_PRESENT;
  const intern = context.intern ?? createIntern();
  // A component's translations mostly show one revision (its repository's): kept once per component.
  const made = {
    intern,
    pack: context.pack ?? createTranslationPacker(),
    revisions: createIntern(),
  };
  const d = checked.data;
  const file = checked.file;
  if (!checkSlug(checked.place.component, file, 'component', problems)) return null;
  checkFlavourFields('component', d.givenKeys, version, file, problems);
  if (version !== '4') checkCheckFlags(d.settings.check_flags, file, problems);
  const sourceLanguage = languages.resolve(d.sourceLanguage, file, ['source_language'], problems);
  const links: Project[] = [];
  d.links.forEach((slug, index) => {
    const target = projects.get(slug);
    if (!target && present.projects.has(slug)) return; // its project.yaml failed its own checks, reported there
    if (!target)
      problems.push({
        file,
        path: ['links', index],
        message: `expected the slug of a project in projects/ (got ${quote(slug)})`,
      });
    else if (target === project)
      problems.push({
        file,
        path: ['links', index],
        message: `expected another project than the component's own (got ${quote(slug)})`,
      });
    else if (links.includes(target))
      problems.push({
        file,
        path: ['links', index],
        message: `expected each project once (got ${quote(slug)} twice)`,
      });
    else links.push(target);
  });
  const category = version === '4' ? null : componentCategory(checked, project, present, problems);
  if (!sourceLanguage) return null;
  const settings = internSettings(d.settings, intern);
  const inherited = componentSettings(
    checked,
    settings,
    project,
    category,
    version === '4' ? null : languages,
    problems,
  );
  const component: Component = {
    slug: checked.place.component,
    id: d.id,
    name: d.name,
    project,
    sourceLanguage,
    category,
    settings,
    inherited: (context.shareInherited ?? createInheritedTable())({
      ...inherited,
      effectiveCheckFlags: intern(inherited.effectiveCheckFlags),
    }),
    licenseUrl: intern(d.licenseUrl),
    licenseUrl2026: intern(
      d.givenLicenseUrl !== undefined
        ? d.givenLicenseUrl
        : spdxLicenseUrl(inherited.effective.license),
    ),
    linkedComponent: null,
    locked: d.locked,
    links,
    translations: [],
    file,
    contentFingerprint: d.fingerprint,
  };
  const draft: ComponentDraft = { component, translations: [] };
  let sourceListed = false;
  for (const entry of d.translations) {
    const language = languages.resolve(
      entry.code,
      file,
      ['translations', entry.code],
      problems,
      true,
    );
    if (!language) continue;
    const isSource = language === sourceLanguage;
    sourceListed ||= isSource;
    draft.translations.push({
      translation: makeTranslation(component, language, entry, isSource, made),
      key: entry.code,
    });
  }
  if (!sourceListed) {
    draft.translations.push({
      translation: derivedSourceTranslation(component, d, made),
      key: null,
    });
  }
  return draft;
}

/** The category a component names (2026.8), or null; an unknown one is reported unless its file failed its own checks. */
function componentCategory(
  checked: CheckedFile<'component'>,
  project: Project,
  present: PresentFiles,
  problems: Problem[],
): Category | null {
  const slug = checked.data.current.category;
  if (slug === null) return null;
  const category = project.categories.find((candidate) => candidate.slug === slug);
  if (category) {
    // The component's folder in the tree is named by its whole path (docs%2Fguide): a file name holds 255 bytes.
    const name = [...category.path, checked.place.component].join('%2F');
    if (Buffer.byteLength(name) <= MAX_FILE_NAME) return category;
    problems.push({
      file: checked.file,
      path: ['category'],
      message: `expected a category path and component slug of at most ${MAX_FILE_NAME} bytes together, the longest file name (got ${quote(name)})`,
    });
    return null;
  }
  if (!present.categories.has(`${project.slug}/${slug}`)) {
    problems.push({
      file: checked.file,
      path: ['category'],
      message: `expected the slug of a category in projects/${project.slug}/categories/ (got ${quote(slug)})`,
    });
  }
  return null;
}

/**
 * The inheritable settings of a component: its own values are its file's (a
 * message left out takes today's default), inherited from its category or
 * its project; its check flags merge the file format's.
 */
function componentSettings(
  checked: CheckedFile<'component'>,
  s: Component['settings'],
  project: Project,
  category: Category | null,
  languages: LanguageResolver | null,
  problems: Problem[],
): Component['inherited'] {
  const d = checked.data;
  const given: Partial<Record<InheritableSetting, unknown>> = {};
  for (const key of d.givenKeys) {
    if (!(INHERITABLE_SETTINGS as readonly string[]).includes(key)) continue;
    if (key !== 'secondary_language') given[key as InheritableSetting] = s[key as keyof typeof s];
    else if (languages) {
      const language = languages.resolve(
        d.current.secondaryLanguage!,
        checked.file,
        ['secondary_language'],
        problems,
      );
      if (language) given.secondary_language = language;
    }
  }
  return inheritSettings(
    {
      given: given as InheritableInput['given'],
      switches: d.current.inherit,
      defaults: {
        license: s.license,
        agreement: s.agreement,
        new_lang: s.new_lang,
        language_code_style: s.language_code_style,
      },
      checkFlags: s.check_flags,
    },
    (category ?? project).inherited,
    FILE_FORMAT_FLAGS[s.file_format] ?? '',
  );
}

/**
 * Weblate gives a component and a category of one parent different slugs
 * (their web pages share a path); in content a component's slug is already
 * unique in its project, so what is left is a component at the same level as
 * a category of its slug.
 */
export function checkSharedPaths(
  drafts: readonly ComponentDraft[],
  project: Project,
  problems: Problem[],
): void {
  for (const { component } of drafts) {
    const clash = project.categories.find(
      (category) =>
        category.parent === component.category &&
        category.slug.toLowerCase() === component.slug.toLowerCase(),
    );
    if (!clash) continue;
    const place = component.category ? `category ${quote(component.category.slug)}` : 'the project';
    problems.push({
      file: component.file,
      path: component.category ? ['category'] : [],
      message: `expected a component slug no category of ${place} has (got ${quote(component.slug)}, also the slug of ${clash.file})`,
    });
  }
}

/** What a translation is kept in: repeated texts once, its numbers compactly. */
interface Keeping {
  intern: Intern;
  pack: TranslationPacker;
  /** The component's revisions (a model's are too many distinct texts for one table). */
  revisions: Intern;
}

/**
 * A model translation over prepared counters (never changed: models are read-only). The entry's
 * texts come shared (content/prepare.ts#sharePreparedTexts); only a file name made here is new.
 */
function makeTranslation(
  component: Component,
  language: Language,
  entry: PreparedTranslation,
  isSource: boolean,
  { intern, pack, revisions }: Keeping,
): Translation {
  const languageCode = entry.languageCode ?? language.code;
  const filename =
    entry.filename ??
    (isSource
      ? component.settings.template
      : intern(component.settings.filemask.replace('*', languageCode)));
  return pack({
    id: entry.id,
    component,
    language,
    languageCode,
    filename,
    revision: revisions(entry.revision),
    isSource,
    isTemplate: filename === component.settings.template,
    counters: entry.counters,
    lastAuthor: entry.lastAuthor,
    contentFingerprint: entry.fingerprint,
  });
}

/**
 * The source-language translation Weblate keeps for every component. Its
 * strings are the source strings, all translated; they are read-only unless
 * the component has a monolingual template that may be edited.
 */
function derivedSourceTranslation(
  component: Component,
  prepared: PreparedComponent,
  keeping: Keeping,
): Translation {
  const { source } = prepared;
  const editable = component.settings.template !== '' && component.settings.edit_template;
  const counters: Counters = {
    ...emptyCounters(),
    ...source,
    translated: source.total,
    translated_words: source.total_words,
    translated_chars: source.total_chars,
    readonly: editable ? 0 : source.total,
    readonly_words: editable ? 0 : source.total_words,
    readonly_chars: editable ? 0 : source.total_chars,
  };
  const entry = translationEntry({
    code: component.sourceLanguage.code,
    id: prepared.sourceTranslationId,
    languageCode: undefined,
    filename: undefined,
    revision: '',
    counters,
    lastAuthor: null,
  });
  return makeTranslation(component, component.sourceLanguage, entry, true, keeping);
}

/** `project/component`: how repository links and ids name a component. */
export function componentPath(component: Component): string {
  return `${component.project.slug}/${component.slug}`;
}

/**
 * Files present in the content, valid or not (`project`, `project/component`):
 * a reference to one whose own checks failed is not an error of its own.
 */
interface PresentFiles {
  projects: ReadonlySet<string>;
  components: ReadonlySet<string>;
  /** `project/category` */
  categories: ReadonlySet<string>;
}

const NONE_PRESENT: PresentFiles = {
  projects: new Set(),
  components: new Set(),
  categories: new Set(),
};

/** Resolves a `repo: weblate://project/component` link (Weblate's LinkedField shows the linked repository). */
export function linkRepository(
  component: Component,
  byPath: ReadonlyMap<string, Component>,
  problems: Problem[],
  present: PresentFiles = NONE_PRESENT,
): void {
  const match = /^weblate:\/\/(.*)$/.exec(component.settings.repo);
  if (!match) return;
  const target = byPath.get(match[1]!);
  if (!target && present.components.has(match[1]!)) return; // its file failed its own checks, reported there
  const problem = (message: string) =>
    problems.push({ file: component.file, path: ['repo'], message });
  if (!target)
    problem(
      `expected weblate://<project>/<component> naming a component in the content (got ${quote(component.settings.repo)})`,
    );
  else if (target === component)
    problem(`expected a link to another component (got a link to itself)`);
  else if (isRepositoryLink(target))
    problem(
      `expected a link to a component with its own repository (got a link to ${quote(match[1]!)}, which is itself linked)`,
    );
  else component.linkedComponent = target;
}

function isRepositoryLink(component: Component): boolean {
  return /^weblate:\/\//.test(component.settings.repo);
}

/** Reports two objects of a kind with one id, at both places. */
export function reportIdCollision(
  kind: string,
  id: number,
  a: IdOwner,
  b: IdOwner,
  problems: Problem[],
): void {
  const message = (other: IdOwner) =>
    `expected a ${kind} id used once (got ${id}, also the id of ${other.label} in ${other.file}; give one of them another id)`;
  problems.push({ file: b.file, path: b.path, message: message(a) });
  problems.push({ file: a.file, path: a.path, message: message(b) });
}

/** Ids are given or derived when files are prepared; two objects of a kind with one id are reported with both places. */
function checkUniqueIds(
  projects: Map<string, ProjectDraft>,
  components: ComponentDraft[],
  categories: readonly Category[],
  problems: Problem[],
): void {
  const report = (kind: string, id: number, a: IdOwner, b: IdOwner) =>
    reportIdCollision(kind, id, a, b, problems);
  const categoryIds = new Map<number, Category>();
  for (const category of categories) {
    const first = categoryIds.get(category.id);
    if (first) report('category', category.id, categoryOwner(first), categoryOwner(category));
    else categoryIds.set(category.id, category);
  }
  const projectIds = new Map<number, Project>();
  const componentIds = new Map<number, Component>();
  // Translations are many: the map holds the draft entries, and owners are described only on a collision.
  const translationIds = new Map<number, DraftTranslation>();
  for (const { project } of projects.values()) {
    const first = projectIds.get(project.id);
    if (first) report('project', project.id, projectOwner(first), projectOwner(project));
    else projectIds.set(project.id, project);
  }
  for (const { component, translations } of components) {
    const first = componentIds.get(component.id);
    if (first) report('component', component.id, componentOwner(first), componentOwner(component));
    else componentIds.set(component.id, component);
    for (const entry of translations) {
      const other = translationIds.get(entry.translation.id);
      if (other)
        report(
          'translation',
          entry.translation.id,
          translationOwner(other),
          translationOwner(entry),
        );
      else translationIds.set(entry.translation.id, entry);
    }
  }
}

interface IdOwner {
  file: string;
  path: FieldPath;
  label: string;
}

export type DraftTranslation = ComponentDraft['translations'][number];

function categoryOwner(category: Category): IdOwner {
  return {
    file: category.file,
    path: ['id'],
    label: `category ${quote(`${category.project.slug}/${category.slug}`)}`,
  };
}

function projectOwner(project: Project): IdOwner {
  return { file: project.file, path: ['id'], label: `project ${quote(project.slug)}` };
}

export function componentOwner(component: Component): IdOwner {
  return {
    file: component.file,
    path: ['id'],
    label: `component ${quote(`${component.project.slug}/${component.slug}`)}`,
  };
}

export function translationOwner({ translation, key }: DraftTranslation): IdOwner {
  const c = translation.component;
  return {
    file: c.file,
    path: key === null ? [] : ['translations', key, 'id'],
    label: `translation ${quote(`${c.project.slug}/${c.slug}/${translation.language.code}`)}`,
  };
}

export function checkPluralIds(languages: Iterable<Language>, problems: Problem[]): void {
  const seen = new Map<number, Language>();
  for (const language of languages) {
    const other = seen.get(language.plural.id);
    if (other && other !== language) {
      problems.push({
        file: language.file ?? other.file ?? '',
        path: ['plural', 'id'],
        message: `expected a plural id used once (got ${language.plural.id}, also the plural of ${quote(other.code)})`,
      });
    } else {
      seen.set(language.plural.id, language);
    }
  }
}

function assembleModel(
  settings: Settings,
  projectDrafts: Map<string, ProjectDraft>,
  categories: Category[],
  componentDrafts: ComponentDraft[],
  definitions: Map<string, Language>,
): Model {
  const byId = <T extends { id: number }>(a: T, b: T) => a.id - b.id;
  const projects = [...projectDrafts.values()].map((d) => d.project).sort(byId);
  const components = componentDrafts.map((d) => d.component).sort(byId);
  for (const draft of componentDrafts) {
    draft.component.translations = draft.translations.map((t) => t.translation).sort(byId);
    draft.component.links.sort(byId);
  }
  for (const component of components) component.project.components.push(component);
  const translations = components.flatMap((c) => c.translations).sort(byId);
  return {
    settings,
    languages: publishedLanguages(definitions.values(), translations),
    projects,
    categories,
    components,
    translations,
  };
}

/** The languages a snapshot publishes: those defined by a file, and those with a translation; by code. */
export function publishedLanguages(
  defined: Iterable<Language>,
  translations: readonly Translation[],
): Language[] {
  const published = new Set<Language>(defined);
  for (const translation of translations) published.add(translation.language);
  return [...published].sort((a, b) => compareStrings(a.code, b.code));
}

function checkSlug(slug: string, file: string, what: string, problems: Problem[]): boolean {
  const expectation = slugExpectation(slug);
  if (expectation === null) return true;
  problems.push({
    file,
    path: [],
    message: `${expectation} as the ${what} ${what === 'project' ? 'folder' : 'file'} name (got ${quote(slug)})`,
  });
  return false;
}

/** Two slugs that differ only in letter case would share a folder on some file systems and a URL in Weblate. */
export function checkCaseCollisions(
  items: { key: string; file: string }[],
  what: string,
  problems: Problem[],
): void {
  const seen = new Map<string, { key: string; file: string }>();
  for (const item of items) {
    const folded = item.key.toLowerCase();
    const other = seen.get(folded);
    if (other) {
      problems.push({
        file: item.file,
        path: [],
        message: `expected a ${what} that differs from ${quote(other.key)} (${other.file}) by more than letter case (got ${quote(item.key)})`,
      });
    } else {
      seen.set(folded, item);
    }
  }
}

/** The fields of a checked file that are set (zod keeps absent optional keys out, but be sure). */
function definedFields<T extends object>(data: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(data).filter(([, value]) => value !== undefined),
  ) as Partial<T>;
}

function joinPath(dir: string, relative: string): string {
  return dir.endsWith('/') ? dir + relative : `${dir}/${relative}`;
}
