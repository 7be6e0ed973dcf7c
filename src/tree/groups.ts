/**
 * The API tree as file groups. A group owns one folder of the tree (its key,
 * an API path), holds a fixed set of files, and carries a fingerprint of every
 * input its bytes depend on. A full build renders every group; a rebuild
 * renders only groups whose fingerprint changed, and removes the folders of
 * groups that are gone.
 */
import { EMPTY_ROOT_LISTS, ROOT_LISTS, type ResourceKind } from '../api/routes.ts';
import { aggregate, type Aggregates } from '../model/aggregates.ts';
import { Hasher, fingerprintText } from '../model/fingerprint.ts';
import type { Counters } from '../model/statistics.ts';
import type { PatchScope } from '../resolve/patch.ts';
import type { Component, Language, Model, Project, Translation } from '../model/types.ts';
import { hostFiles, type HostOptions } from '../hosts/index.ts';
import { serializeFileInParts, type FileText, type JsonValue } from '../output/serialize.ts';
import { apiPath, apiUrl, fileOfPath } from '../api/urls.ts';
import { createBodies, type Bodies } from '../api/bodies.ts';
import { listPage, pageCount } from '../api/pagination.ts';
import type { Resource } from '../api/resources.ts';

/**
 * Bump when the generator writes different bytes for the same content, so
 * that trees built by an older version are rebuilt rather than trusted.
 */
export const OUTPUT_FORMAT = '1';

/** One file of the output: its path relative to the output root (with `/`) and its text. */
export interface OutputFile {
  path: string;
  data: FileText;
}

export interface FileGroup {
  /**
   * The API path of the folder the group owns (`/api/translations/p/c/cs/`,
   * `/api/projects/~page/2/`): when the group is gone, that folder goes.
   * The root group (`/api/`) and the host group (`/`) never go.
   */
  key: string;
  fingerprint: number;
  /** The group's files, rendered on demand. A group always holds the same set of files. */
  render(): OutputFile[];
}

/**
 * The fingerprint of the settings every file depends on: the site, the
 * output format and the host whose files take the root names. A tree built
 * with other settings is rebuilt whole rather than updated in place.
 */
export function settingsFingerprint(model: Model, hosts: HostOptions = {}): number {
  return new Hasher().number(siteVersion(model)).text(hosts.host ?? '').digest();
}

/**
 * Fingerprints of components and translations kept from one rebuild to the
 * next (a snapshot kept open). Valid because the model's objects are never
 * changed: an object whose inputs change is replaced by a new one.
 */
export interface VersionCache {
  components: WeakMap<Component, number>;
  translations: WeakMap<Translation, number>;
}

export function createVersionCache(): VersionCache {
  return { components: new WeakMap(), translations: new WeakMap() };
}

/** Every group of the model's tree, in a fixed order: the API, then the host configuration. */
export function* fileGroups(model: Model, hosts: HostOptions = {}, cache = createVersionCache()): Generator<FileGroup> {
  const context = createContext(model, cache);
  for (const group of apiGroups(context)) {
    yield { key: group.key, fingerprint: group.fingerprint, render: () => toFiles(group.resources()) };
  }
  yield {
    key: '/',
    fingerprint: new Hasher().number(context.versions.site).text('hosts').text(hosts.host ?? '').digest(),
    render: () => hostFiles(model.site, hosts),
  };
}

/**
 * After a patch of some components (content/patch.ts): every group it may
 * have changed (a superset: a group whose fingerprint did not move is skipped
 * by the writer), and the keys of groups known to be gone. Lists whose length
 * may have changed are given with their page count, so that pages beyond it
 * can be removed.
 */
export function patchedGroups(
  before: Model,
  model: Model,
  scope: PatchScope,
  cache = createVersionCache(),
  options: { deferInstanceLists?: boolean } = {},
): PatchedGroups {
  const context = createContext(model, cache);
  const deferred: InstanceList[] = [];
  const groups: FileGroup[] = [];
  const add = (apiGroups: Iterable<ApiGroup>) => {
    for (const group of apiGroups) groups.push({ key: group.key, fingerprint: group.fingerprint, render: () => toFiles(group.resources()) });
  };
  const { site } = model;
  const lists: ListExtent[] = [];
  const list = (path: string, count: number) => lists.push({ path, pages: pageCount(count, site.pageSize) });

  add(languageListGroups(context));
  list(apiPath.languages(), model.languages.length);
  const published = new Set(model.languages);
  add([...scope.languages].filter((l) => published.has(l)).map((l) => languageGroup(context, l)));
  for (const project of scope.projects) {
    add(oneProjectGroups(context, project));
    list(apiPath.projectComponents(project.slug), project.components.length);
  }
  // An instance-wide list whose length changed has every page changed (each carries the count): it may be left for later.
  const instanceList = (name: InstanceList, length: number, lengthBefore: number) => {
    if (options.deferInstanceLists && length !== lengthBefore) deferred.push(name);
    else add(instanceListPages(context, name));
    list(apiPath.list(name), length);
  };
  instanceList('components', model.components.length, before.components.length);
  for (const component of scope.components) {
    add(componentGroups(context, component));
    add(component.translations.map((t) => translationGroup(context, t)));
    const [p, c] = [component.project.slug, component.slug];
    list(apiPath.componentTranslations(p, c), component.translations.length);
    list(apiPath.componentStatistics(p, c), component.translations.length);
    list(apiPath.componentLinks(p, c), component.links.length);
  }
  instanceList('translations', model.translations.length, before.translations.length);
  const removed = removedByPatch(before, model, scope);
  const extents = lists.filter((extent) => !deferred.some((name) => extent.path === apiPath.list(name)));
  return { groups, lists: extents, removed, deferred };
}

export interface PatchedGroups {
  groups: FileGroup[];
  lists: ListExtent[];
  /** Keys of groups the patch removed (translations, components, languages no longer published). */
  removed: string[];
  /** Instance-wide lists left out (with `deferInstanceLists`): bring them up to date with instanceListGroups(). */
  deferred?: InstanceList[];
}

/** The lists of the whole instance that a component edit can change. */
export type InstanceList = 'translations' | 'components';

/** Every page of an instance-wide list of the model, and its extent. */
export function instanceListGroups(model: Model, name: InstanceList, cache = createVersionCache()): { groups: FileGroup[]; extent: ListExtent } {
  const context = createContext(model, cache);
  const groups = [...instanceListPages(context, name)].map(
    (group): FileGroup => ({ key: group.key, fingerprint: group.fingerprint, render: () => toFiles(group.resources()) }),
  );
  const length = name === 'translations' ? model.translations.length : model.components.length;
  return { groups, extent: { path: apiPath.list(name), pages: pageCount(length, model.site.pageSize) } };
}

/** A list and how many pages it now has: pages after the last are gone. */
export interface ListExtent {
  path: string;
  pages: number;
}

/** Every resource of the API tree with its path, kind and body (the files without host configuration). */
export function* generateResources(model: Model): Generator<Resource> {
  for (const group of apiGroups(createContext(model, createVersionCache()))) yield* group.resources();
}

/** A group of API resources; fileGroups() turns it into files. */
interface ApiGroup {
  key: string;
  fingerprint: number;
  resources(): Resource[];
}

/** The groups of the API tree alone. */
function* apiGroups(context: Context): Generator<ApiGroup> {
  const { model } = context;
  yield rootGroup(context);
  yield* languageGroups(context);
  yield* projectGroups(context);
  yield* instanceListPages(context, 'components');
  for (const component of model.components) {
    yield* componentGroups(context, component);
    for (const translation of component.translations) yield translationGroup(context, translation);
  }
  yield* instanceListPages(context, 'translations');
}

// --- internal ---

interface Context {
  model: Model;
  bodies: Bodies;
  aggregates: Aggregates;
  versions: Versions;
}

interface Versions {
  site: number;
  language(language: Language): number;
  project(project: Project): number;
  component(component: Component): number;
  translation(translation: Translation): number;
  counters(counters: Counters): number;
}

function createContext(model: Model, cache: VersionCache): Context {
  const aggregates = aggregate(model);
  const bodies = createBodies(model, aggregates);
  return { model, bodies, aggregates, versions: createVersions(model, bodies, cache) };
}

function siteVersion(model: Model): number {
  const { site } = model;
  return new Hasher()
    .text(OUTPUT_FORMAT).text(site.baseUrl).text(site.webUrl).number(site.pageSize).text(site.pagination)
    .digest();
}

function createVersions(model: Model, bodies: Bodies, cache: VersionCache): Versions {
  const languages = new Map<Language, number>();
  const projects = new Map<Project, number>();
  const memo = <K extends object>(map: Map<K, number> | WeakMap<K, number>, key: K, compute: () => number) => {
    let value = map.get(key);
    if (value === undefined) map.set(key, (value = compute()));
    return value;
  };
  const language = (l: Language) => memo(languages, l, () => fingerprintText(bodies.language(l).json));
  const project = (p: Project) => memo(projects, p, () => fingerprintText(bodies.project(p).json));
  // A component shows what its file says, its project, its source language and the repository it may share.
  const component = (c: Component) =>
    memo(cache.components, c, () => {
      const h = new Hasher().number(c.contentFingerprint).number(project(c.project)).number(language(c.sourceLanguage));
      const linked = c.linkedComponent?.settings;
      if (linked) h.text(linked.repo).text(linked.branch).text(linked.push).text(linked.push_branch);
      return h.digest();
    });
  // A translation shows what the content says of it, its component and its language; the rest is derived from these.
  const translation = (t: Translation) =>
    memo(cache.translations, t, () =>
      new Hasher().number(t.contentFingerprint).number(component(t.component)).number(language(t.language)).digest());
  return { site: siteVersion(model), language, project, component, translation, counters: (c) => hashCounters(new Hasher(), c).digest() };
}

function hashCounters(h: Hasher, c: Counters): Hasher {
  h.number(c.total).number(c.total_words).number(c.total_chars)
    .number(c.translated).number(c.translated_words).number(c.translated_chars)
    .number(c.fuzzy).number(c.fuzzy_words).number(c.failing_checks).number(c.failing_checks_words)
    .number(c.approved).number(c.readonly).number(c.have_suggestion).number(c.have_comment)
    .number(c.recent_changes);
  return h.flag(c.last_change === null).text(c.last_change ?? '');
}

function rootGroup(context: Context): ApiGroup {
  const { site } = context.model;
  return {
    key: apiPath.root(),
    fingerprint: new Hasher().number(context.versions.site).text('root').digest(),
    resources: () => {
      const root: Record<string, JsonValue> = {};
      for (const name of ROOT_LISTS) root[name] = apiUrl(site, apiPath.list(name));
      return [
        { path: apiPath.root(), kind: 'root', body: root },
        ...EMPTY_ROOT_LISTS.map((name) => emptyList(context, name, apiPath.list(name))),
      ];
    },
  };
}

function* languageGroups(context: Context): Generator<ApiGroup> {
  yield* languageListGroups(context);
  for (const language of context.model.languages) yield languageGroup(context, language);
}

function languageListGroups(context: Context): Generator<ApiGroup> {
  const { model, bodies, versions } = context;
  return pageGroups(context, 'languages', apiPath.languages(), model.languages, versions.language, (l) => bodies.language(l));
}

function languageGroup(context: Context, language: Language): ApiGroup {
  const { bodies, aggregates, versions } = context;
  return {
    key: apiPath.language(language.code),
    fingerprint: new Hasher()
      .number(versions.site).number(versions.language(language)).number(versions.counters(aggregates.language(language)))
      .digest(),
    resources: () => [
      { path: apiPath.language(language.code), kind: 'language', body: bodies.language(language) },
      { path: apiPath.languageStatistics(language.code), kind: 'language-statistics', body: bodies.languageStatistics(language) },
    ],
  };
}

function* projectGroups(context: Context): Generator<ApiGroup> {
  const { model, bodies, versions } = context;
  yield* pageGroups(context, 'projects', apiPath.projects(), model.projects, versions.project, (p) => bodies.project(p));
  for (const project of model.projects) yield* oneProjectGroups(context, project);
}

/** A project's group, then the pages of its component list. */
function* oneProjectGroups(context: Context, project: Project): Generator<ApiGroup> {
  const { bodies, versions } = context;
  const slug = project.slug;
  yield {
    key: apiPath.project(slug),
    fingerprint: projectFingerprint(context, project),
    resources: () => [
      { path: apiPath.project(slug), kind: 'project', body: bodies.project(project) },
      { path: apiPath.projectLanguages(slug), kind: 'project-languages', body: bodies.projectLanguages(project) },
      { path: apiPath.projectStatistics(slug), kind: 'project-statistics', body: bodies.projectStatistics(project) },
      emptyList(context, 'project-changes', apiPath.projectChanges(slug)),
      { path: apiPath.projectRepository(slug), kind: 'project-repository', body: bodies.projectRepository(project) },
    ],
  };
  yield* pageGroups(context, 'project-components', apiPath.projectComponents(slug), project.components, versions.component, (c) => bodies.component(c, false));
}

/** A project's files depend on its own fields, its sums, and the names and sums of its languages. */
function projectFingerprint(context: Context, project: Project): number {
  const { versions, aggregates } = context;
  const h = new Hasher().number(versions.site).number(versions.project(project)).number(versions.counters(aggregates.project(project)));
  for (const [language, counters] of aggregates.projectLanguages(project)) {
    h.number(versions.language(language)).number(versions.counters(counters));
  }
  return h.digest();
}

function* componentGroups(context: Context, component: Component): Generator<ApiGroup> {
  const { bodies, versions } = context;
  const [p, c] = [component.project.slug, component.slug];
  yield {
    key: apiPath.component(p, c),
    fingerprint: new Hasher().number(versions.site).number(versions.component(component)).digest(),
    resources: () => [
      { path: apiPath.component(p, c), kind: 'component', body: bodies.component(component) },
      { path: apiPath.componentLock(p, c), kind: 'component-lock', body: bodies.lock(component) },
      emptyList(context, 'component-changes', apiPath.componentChanges(p, c)),
      { path: apiPath.componentRepository(p, c), kind: 'component-repository', body: bodies.componentRepository(component) },
    ],
  };
  yield* pageGroups(context, 'component-translations', apiPath.componentTranslations(p, c), component.translations, versions.translation, (t) => bodies.translation(t, false));
  yield* pageGroups(context, 'component-statistics', apiPath.componentStatistics(p, c), component.translations, versions.translation, (t) => bodies.translationStatistics(t));
  yield* pageGroups(context, 'component-links', apiPath.componentLinks(p, c), component.links, versions.project, (project) => bodies.project(project));
}

function translationGroup(context: Context, translation: Translation): ApiGroup {
  const { bodies, versions } = context;
  const [p, c, l] = [translation.component.project.slug, translation.component.slug, translation.language.code];
  return {
    key: apiPath.translation(p, c, l),
    fingerprint: new Hasher().number(versions.site).number(versions.translation(translation)).digest(),
    resources: () => [
      { path: apiPath.translation(p, c, l), kind: 'translation', body: bodies.translation(translation) },
      { path: apiPath.translationStatistics(p, c, l), kind: 'translation-statistics', body: bodies.translationStatistics(translation) },
      emptyList(context, 'translation-changes', apiPath.translationChanges(p, c, l)),
      emptyList(context, 'translation-units', apiPath.translationUnits(p, c, l)),
      { path: apiPath.translationRepository(p, c, l), kind: 'translation-repository', body: bodies.translationRepository(translation) },
    ],
  };
}

/** One group per page of a list; a page's fingerprint covers its items, the count and its place. */
function* pageGroups<T>(
  context: Context,
  kind: ResourceKind,
  listPath: string,
  items: readonly T[],
  version: (item: T) => number,
  render: (item: T) => JsonValue,
): Generator<ApiGroup> {
  const { site } = context.model;
  const total = pageCount(items.length, site.pageSize);
  for (let page = 1; page <= total; page++) {
    const h = new Hasher().number(context.versions.site).text(kind).number(page).number(items.length);
    const start = (page - 1) * site.pageSize;
    const end = Math.min(start + site.pageSize, items.length);
    for (let i = start; i < end; i++) h.number(version(items[i]!));
    yield {
      key: apiPath.page(listPath, page),
      fingerprint: h.digest(),
      resources: () => [listPage(site, kind, listPath, items, render, page)],
    };
  }
}

function instanceListPages(context: Context, name: InstanceList): Generator<ApiGroup> {
  const { model, versions, bodies } = context;
  return name === 'translations'
    ? pageGroups(context, 'translations', apiPath.translations(), model.translations, versions.translation, (t) => bodies.translation(t))
    : pageGroups(context, 'components', apiPath.components(), model.components, versions.component, (c) => bodies.component(c));
}

function removedByPatch(before: Model, model: Model, scope: PatchScope): string[] {
  const keys = new Set<string>();
  const translationKey = (t: Translation) => apiPath.translation(t.component.project.slug, t.component.slug, t.language.code);
  for (const old of scope.replaced) {
    keys.add(apiPath.component(old.project.slug, old.slug));
    for (const t of old.translations) keys.add(translationKey(t));
  }
  for (const component of scope.components) {
    keys.delete(apiPath.component(component.project.slug, component.slug));
    for (const t of component.translations) keys.delete(translationKey(t));
  }
  const published = new Set(model.languages.map((l) => l.code));
  for (const language of before.languages) if (!published.has(language.code)) keys.add(apiPath.language(language.code));
  return [...keys];
}

function toFiles(resources: Resource[]): OutputFile[] {
  return resources.map((resource) => ({ path: fileOfPath(resource.path), data: serializeFileInParts(resource.body) }));
}

function emptyList(context: Context, kind: ResourceKind, path: string): Resource {
  return listPage(context.model.site, kind, path, [], () => null, 1);
}
