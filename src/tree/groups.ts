/**
 * The API tree as file groups. A group owns one folder of the tree (its key,
 * an API path), holds a fixed set of files, and carries a fingerprint of every
 * input its bytes depend on. A full build renders every group; a rebuild
 * renders only groups whose fingerprint changed, and removes the folders of
 * groups that are gone.
 */
import { heapBoundedWhile, heapNearLiveWhile } from '../heap.ts';
import { emptyRootLists, rootListsOf, type ResourceKind } from '../api/routes.ts';
import { aggregate, type Aggregates } from '../model/aggregates.ts';
import { Hasher } from '../model/fingerprint.ts';
import type { Category, Component, Language, Model, Project, Translation } from '../model/types.ts';
import { hasTrait, type Release } from '../model/releases.ts';
import { apiFolderHostFiles, hostFiles, type HostOptions } from '../hosts/index.ts';
import {
  serializeFile,
  serializeFileInParts,
  type FileText,
  type JsonValue,
} from '../output/serialize.ts';
import { apiPath, apiUrl, componentSegment, fileOfPath } from '../api/urls.ts';
import { createBodies, type Bodies } from '../api/bodies.ts';
import { formatFiles } from '../api/formats.ts';
import { listPage, listPageSize, pageCount } from '../api/pagination.ts';
import type { Resource } from '../api/resources.ts';
import type { PngStore } from '../status-site/png.ts';
import {
  createFingerprintCache,
  createFingerprints,
  type FingerprintCache,
  type Fingerprints,
} from './fingerprints.ts';
import { extraGroup } from './extra-groups.ts';
import {
  countStatusSiteFiles,
  homeFile,
  homeFingerprint,
  prepareStatusSite,
  statusSiteGroups,
} from './status-site-groups.ts';

/** One file of the output: its path relative to the output root (with `/`) and its text. */
interface OutputFile {
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
  /** Starts background work the render will need (a caller about to render several groups calls each first). */
  prepare?(): void;
}

interface FileGroupsOptions {
  hosts?: HostOptions | undefined;
  /** Fingerprints already computed for objects of the model (a session keeps them). */
  cache?: FingerprintCache | undefined;
  /** Every group will be rendered (a whole new tree), so background work they need starts at once. */
  renderingAll?: boolean | undefined;
  /** Where the PNG widgets' renderings are kept between processes. */
  pngs?: PngStore | undefined;
}

/** Every group of the model's tree, in a fixed order: the API, the host configuration, then the extra files. */
export function* fileGroups(model: Model, options: FileGroupsOptions = {}): Generator<FileGroup> {
  const hosts = options.hosts ?? {};
  const context = createContext(model, options.cache ?? createFingerprintCache(), options.pngs);
  if (options.renderingAll) prepareStatusSite(context);
  const api = apiFileGroups(context);
  // A whole new tree makes garbage that outlives the young generation. Left to V8, the old space
  // grew past twice what was live: in the API's groups (their list pages are large), 1,197 MiB
  // at a million translations without the status site; in the status site's (a project's
  // widgets page and matrices are over 64 KB each), from 1,185 to 1,809 MiB with it. The API's
  // are written with the heap bounded, the status site's with it held nearer (heap.ts): bounded
  // as loosely, the status site took the build to 1,055 MiB.
  yield* options.renderingAll ? heapBoundedWhile(api) : api;
  const site = statusSiteGroups(context);
  yield* options.renderingAll ? heapNearLiveWhile(site) : site;
  yield rootFolderGroup(context, hosts);
  for (const extra of model.extras ?? []) yield extraGroup(extra);
}

function* apiFileGroups(context: Context): Generator<FileGroup> {
  const { model } = context;
  for (const group of apiGroups(context))
    yield withApiFolderHostFiles(toFileGroup(group, model.settings.weblateVersion), model);
}

/**
 * The root folder's own files: the host configuration, and the status
 * site's home page when the site is on (a group's files live in its folder).
 */
export function rootFolderGroup(context: Context, hosts: HostOptions): FileGroup {
  const { model } = context;
  const h = new Hasher()
    .number(context.fingerprints.settings)
    .text('hosts')
    .text(hosts.host ?? '');
  if (model.settings.pages) h.number(homeFingerprint(context));
  return {
    key: '/',
    fingerprint: h.digest(),
    render: () => [
      ...hostFiles(model.settings, hosts),
      ...(model.settings.pages ? [homeFile(context)] : []),
    ],
  };
}

/** The API root's group with the host files that lie in its folder (its fingerprint holds the settings). */
function withApiFolderHostFiles(group: FileGroup, model: Model): FileGroup {
  const extra = group.key === apiPath.root() ? apiFolderHostFiles(model.settings) : [];
  if (extra.length === 0) return group;
  return { ...group, render: () => [...group.render(), ...extra] };
}

/** The lists of the whole instance that a component edit can change. */
export type InstanceList = 'translations' | 'components';

/** Every resource of the API tree with its path, kind and body (the files without host configuration). */
export function* generateResources(model: Model): Generator<Resource> {
  for (const group of apiGroups(createContext(model, createFingerprintCache())))
    yield* group.resources();
}

/** How many files of the API and the status site a build writes, for progress reports. */
export function countTreeFiles(model: Model): number {
  return countApiFiles(model) + countStatusSiteFiles(model);
}

/** A group of API resources; fileGroups() turns it into files. */
export interface ApiGroup {
  key: string;
  fingerprint: number;
  resources(): Resource[];
}

interface Context {
  model: Model;
  bodies: Bodies;
  aggregates: Aggregates;
  fingerprints: Fingerprints;
  pngs: PngStore | null;
}

export function createContext(
  model: Model,
  cache: FingerprintCache,
  pngs: PngStore | null = null,
): Context {
  const aggregates = aggregate(model, cache.aggregates);
  const bodies = createBodies(model, aggregates);
  const fingerprints = createFingerprints(model, bodies, cache);
  return { model, bodies, aggregates, fingerprints, pngs };
}

export function languageListGroups(context: Context): Generator<ApiGroup> {
  const { model, bodies, fingerprints } = context;
  return pageGroups(
    context,
    'languages',
    apiPath.languages(),
    model.languages,
    fingerprints.language,
    (l) => bodies.language(l),
  );
}

export function languageGroup(context: Context, language: Language): ApiGroup {
  const { bodies, aggregates, fingerprints } = context;
  return {
    key: apiPath.language(language.code),
    fingerprint: new Hasher()
      .number(fingerprints.settings)
      .number(fingerprints.language(language))
      .number(fingerprints.counters(aggregates.language(language)))
      .digest(),
    resources: () => [
      { path: apiPath.language(language.code), kind: 'language', body: bodies.language(language) },
      {
        path: apiPath.languageStatistics(language.code),
        kind: 'language-statistics',
        body: bodies.languageStatistics(language),
      },
    ],
  };
}

/** A project's group, then the pages of its lists (components; in 2026.8 also categories, labels, announcements). */
export function* oneProjectGroups(context: Context, project: Project): Generator<ApiGroup> {
  const { bodies, fingerprints } = context;
  const slug = project.slug;
  const shapes5 = hasTrait(context.model.settings.weblateVersion, 'shapes5');
  yield {
    key: apiPath.project(slug),
    fingerprint: projectFingerprint(context, project),
    resources: () => [
      { path: apiPath.project(slug), kind: 'project', body: bodies.project(project) },
      {
        path: apiPath.projectLanguages(slug),
        kind: 'project-languages',
        body: bodies.projectLanguages(project),
      },
      {
        path: apiPath.projectStatistics(slug),
        kind: 'project-statistics',
        body: bodies.projectStatistics(project),
      },
      emptyList(context, 'project-changes', apiPath.projectChanges(slug)),
      // 2026.8 refuses the repository status to an anonymous reader (403), and has a lock of the project.
      shapes5
        ? {
            path: apiPath.projectLock(slug),
            kind: 'project-lock',
            body: bodies.projectLock(project),
          }
        : {
            path: apiPath.projectRepository(slug),
            kind: 'project-repository',
            body: bodies.projectRepository(project),
          },
      ...(shapes5 ? [emptyList(context, 'project-labels', apiPath.projectLabels(slug))] : []),
      ...(shapes5
        ? [emptyList(context, 'project-announcements', apiPath.projectAnnouncements(slug))]
        : []),
    ],
  };
  yield* pageGroups(
    context,
    'project-components',
    apiPath.projectComponents(slug),
    project.components,
    fingerprints.component,
    (c) => bodies.component(c, false),
  );
  if (shapes5) {
    yield* pageGroups(
      context,
      'project-categories',
      apiPath.projectCategories(slug),
      project.categories,
      fingerprints.category,
      (c) => bodies.category(c),
    );
  }
}

/** A category's group (2026.8): its object, statistics and (empty) announcements. */
export function categoryGroup(context: Context, category: Category): ApiGroup {
  const { bodies, fingerprints, aggregates } = context;
  const id = category.id;
  return {
    key: apiPath.category(id),
    fingerprint: new Hasher()
      .number(fingerprints.settings)
      .number(fingerprints.category(category))
      .number(fingerprints.counters(aggregates.category(category)))
      .digest(),
    resources: () => [
      { path: apiPath.category(id), kind: 'category', body: bodies.category(category) },
      {
        path: apiPath.categoryStatistics(id),
        kind: 'category-statistics',
        body: bodies.categoryStatistics(category),
      },
      emptyList(context, 'category-announcements', apiPath.categoryAnnouncements(id)),
    ],
  };
}

export function* componentGroups(context: Context, component: Component): Generator<ApiGroup> {
  const { bodies, fingerprints } = context;
  const [p, c] = [component.project.slug, componentSegment(component)];
  const shapes5 = hasTrait(context.model.settings.weblateVersion, 'shapes5');
  yield {
    key: apiPath.component(p, c),
    fingerprint: new Hasher()
      .number(fingerprints.settings)
      .number(fingerprints.component(component))
      .digest(),
    resources: () => [
      { path: apiPath.component(p, c), kind: 'component', body: bodies.component(component) },
      { path: apiPath.componentLock(p, c), kind: 'component-lock', body: bodies.lock(component) },
      emptyList(context, 'component-changes', apiPath.componentChanges(p, c)),
      shapes5
        ? emptyList(context, 'component-announcements', apiPath.componentAnnouncements(p, c))
        : {
            path: apiPath.componentRepository(p, c),
            kind: 'component-repository',
            body: bodies.componentRepository(component),
          },
    ],
  };
  yield* pageGroups(
    context,
    'component-translations',
    apiPath.componentTranslations(p, c),
    component.translations,
    fingerprints.translation,
    (t) => bodies.translation(t, false),
  );
  yield* pageGroups(
    context,
    'component-statistics',
    apiPath.componentStatistics(p, c),
    component.translations,
    fingerprints.translation,
    (t) => bodies.translationStatistics(t),
  );
  yield* pageGroups(
    context,
    'component-links',
    apiPath.componentLinks(p, c),
    component.links,
    fingerprints.project,
    (project) => bodies.project(project),
  );
}

export function translationGroup(context: Context, translation: Translation): ApiGroup {
  const { bodies, fingerprints } = context;
  const [p, c, l] = [
    translation.component.project.slug,
    componentSegment(translation.component),
    translation.language.code,
  ];
  const shapes5 = hasTrait(context.model.settings.weblateVersion, 'shapes5');
  return {
    key: apiPath.translation(p, c, l),
    fingerprint: new Hasher()
      .number(fingerprints.settings)
      .number(fingerprints.translation(translation))
      .digest(),
    resources: () => [
      {
        path: apiPath.translation(p, c, l),
        kind: 'translation',
        body: bodies.translation(translation),
      },
      {
        path: apiPath.translationStatistics(p, c, l),
        kind: 'translation-statistics',
        body: bodies.translationStatistics(translation),
      },
      emptyList(context, 'translation-changes', apiPath.translationChanges(p, c, l)),
      emptyList(context, 'translation-units', apiPath.translationUnits(p, c, l)),
      shapes5
        ? emptyList(context, 'translation-announcements', apiPath.translationAnnouncements(p, c, l))
        : {
            path: apiPath.translationRepository(p, c, l),
            kind: 'translation-repository',
            body: bodies.translationRepository(translation),
          },
    ],
  };
}

export function instanceListPages(
  context: Context,
  name: InstanceList,
  only?: ReadonlySet<number>,
): Generator<ApiGroup> {
  const { model, fingerprints, bodies } = context;
  return name === 'translations'
    ? pageGroups(
        context,
        'translations',
        apiPath.translations(),
        model.translations,
        fingerprints.translation,
        (t) => bodies.translation(t),
        only,
      )
    : pageGroups(
        context,
        'components',
        apiPath.components(),
        model.components,
        fingerprints.component,
        (c) => bodies.component(c),
        only,
      );
}

/**
 * One page of an instance-wide list, rendered alone (no fingerprints): its
 * file's text, or null past the list's last page.
 */
export function instanceListPageText(
  model: Model,
  name: InstanceList,
  page: number,
  cache: FingerprintCache,
): string | null {
  const length = name === 'translations' ? model.translations.length : model.components.length;
  if (page < 1 || page > pageCount(length, listPageSize(model.settings, name))) return null;
  const bodies = createBodies(model, aggregate(model, cache.aggregates));
  const resource =
    name === 'translations'
      ? listPage(
          model.settings,
          name,
          apiPath.translations(),
          model.translations,
          (t) => bodies.translation(t),
          page,
        )
      : listPage(
          model.settings,
          name,
          apiPath.components(),
          model.components,
          (c) => bodies.component(c),
          page,
        );
  return serializeFile(resource.body);
}

/** A group of resources as a group of files, rendered when asked. */
export function toFileGroup(group: ApiGroup, release: Release): FileGroup {
  return {
    key: group.key,
    fingerprint: group.fingerprint,
    render: () => toFiles(group.resources(), release),
  };
}

// --- internal ---

/** How many API files a build writes. */
function countApiFiles(model: Model): number {
  const { settings } = model;
  const n = (kind: ResourceKind, count: number) => pageCount(count, listPageSize(settings, kind));
  const shapes5 = hasTrait(settings.weblateVersion, 'shapes5');
  let total = 1 + emptyRootLists(settings.weblateVersion).length;
  total += n('languages', model.languages.length) + 2 * model.languages.length;
  total += n('projects', model.projects.length);
  for (const project of model.projects) {
    total += 5 + n('project-components', project.components.length);
    if (shapes5) total += 2 + n('project-categories', project.categories.length);
  }
  if (shapes5) total += n('categories', model.categories.length) + 3 * model.categories.length;
  total += n('components', model.components.length);
  for (const component of model.components) {
    const count = component.translations.length;
    total +=
      4 +
      n('component-translations', count) +
      n('component-statistics', count) +
      n('component-links', component.links.length);
  }
  total += 5 * model.translations.length + n('translations', model.translations.length);
  return total + countFormatFiles(model);
}

/** The CSV of each statistics file, and the flat JSON of each page of component statistics. */
function countFormatFiles(model: Model): number {
  const { settings } = model;
  if (!hasTrait(settings.weblateVersion, 'statisticsFormats')) return 0;
  const pages = (component: Component) =>
    pageCount(component.translations.length, listPageSize(settings, 'component-statistics'));
  let total = model.languages.length + 2 * model.projects.length + model.categories.length;
  total += model.translations.length;
  for (const component of model.components) total += 2 * pages(component);
  return total;
}

/** The groups of the API tree alone. */
function* apiGroups(context: Context): Generator<ApiGroup> {
  yield rootGroup(context);
  yield* languageGroups(context);
  yield* projectGroups(context);
  if (hasTrait(context.model.settings.weblateVersion, 'shapes5')) yield* categoryGroups(context);
  yield* instanceListPages(context, 'components');
  yield* componentsAmongTranslationPages(context);
}

/**
 * Each component's groups and its translations' groups, with the pages of
 * /api/translations/ spread evenly between components. That list goes by
 * id, across components, so each of its items serializes its component
 * again: its pages cost the main thread more than the writing does. At the
 * end of the tree they left the writer waiting; among the components' many
 * small files, they are rendered while the writer is busy.
 */
function* componentsAmongTranslationPages(context: Context): Generator<ApiGroup> {
  const { model } = context;
  const pages = instanceListPages(context, 'translations');
  const pageTotal = pageCount(
    model.translations.length,
    listPageSize(model.settings, 'translations'),
  );
  const components = model.components;
  let given = 0;
  for (let i = 0; i < components.length; i++) {
    yield* componentGroups(context, components[i]!);
    for (const translation of components[i]!.translations)
      yield translationGroup(context, translation);
    const due = Math.floor(((i + 1) * pageTotal) / components.length);
    yield* take(pages, due - given);
    given = due;
  }
  // An instance without components still has its (empty) first page.
  yield* pages;
}

/** The next `count` items of an iterator. */
function* take<T>(items: Iterator<T>, count: number): Generator<T> {
  for (let i = 0; i < count; i++) {
    const next = items.next();
    if (next.done) return;
    yield next.value;
  }
}

function rootGroup(context: Context): ApiGroup {
  const { settings } = context.model;
  return {
    key: apiPath.root(),
    fingerprint: new Hasher().number(context.fingerprints.settings).text('root').digest(),
    resources: () => {
      const root: Record<string, JsonValue> = {};
      for (const name of rootListsOf(settings.weblateVersion))
        root[name] = apiUrl(settings, apiPath.list(name));
      return [
        { path: apiPath.root(), kind: 'root', body: root },
        ...emptyRootLists(settings.weblateVersion).map((name) =>
          emptyList(context, name, apiPath.list(name)),
        ),
      ];
    },
  };
}

function* languageGroups(context: Context): Generator<ApiGroup> {
  yield* languageListGroups(context);
  for (const language of context.model.languages) yield languageGroup(context, language);
}

/** The list of every category (by id), then each category's group (2026.8). */
function* categoryGroups(context: Context): Generator<ApiGroup> {
  const { model, bodies, fingerprints } = context;
  yield* pageGroups(
    context,
    'categories',
    apiPath.categories(),
    model.categories,
    fingerprints.category,
    (c) => bodies.category(c),
  );
  for (const category of model.categories) yield categoryGroup(context, category);
}

function* projectGroups(context: Context): Generator<ApiGroup> {
  const { model, bodies, fingerprints } = context;
  yield* pageGroups(
    context,
    'projects',
    apiPath.projects(),
    model.projects,
    fingerprints.project,
    (p) => bodies.project(p),
  );
  for (const project of model.projects) yield* oneProjectGroups(context, project);
}

/** A project's files depend on its own fields, its sums, and the names and sums of its languages. */
function projectFingerprint(context: Context, project: Project): number {
  const { fingerprints, aggregates } = context;
  const h = new Hasher()
    .number(fingerprints.settings)
    .number(fingerprints.project(project))
    .number(fingerprints.counters(aggregates.project(project)));
  for (const [language, counters] of aggregates.projectLanguages(project)) {
    h.number(fingerprints.language(language)).number(fingerprints.counters(counters));
  }
  return h.digest();
}

/** One group per page of a list; a page's fingerprint covers its items, the count and its place. */
function* pageGroups<T>(
  context: Context,
  kind: ResourceKind,
  listPath: string,
  items: readonly T[],
  version: (item: T) => number,
  render: (item: T) => JsonValue,
  only?: ReadonlySet<number>,
): Generator<ApiGroup> {
  const { settings } = context.model;
  const size = listPageSize(settings, kind);
  const total = pageCount(items.length, size);
  for (let page = 1; page <= total; page++) {
    if (only && !only.has(page)) continue;
    const h = new Hasher()
      .number(context.fingerprints.settings)
      .text(kind)
      .number(page)
      .number(items.length);
    const start = (page - 1) * size;
    const end = Math.min(start + size, items.length);
    for (let i = start; i < end; i++) h.number(version(items[i]!));
    yield {
      key: apiPath.page(listPath, page),
      fingerprint: h.digest(),
      resources: () => [listPage(settings, kind, listPath, items, render, page)],
    };
  }
}

/** Each resource's JSON, and beside it the other formats it answers in the release. */
function toFiles(resources: Resource[], release: Release): OutputFile[] {
  const files: OutputFile[] = [];
  for (const resource of resources) {
    const json = { path: fileOfPath(resource.path), data: serializeFileInParts(resource.body) };
    files.push(json);
    for (const file of formatFiles(resource, json.data, release)) files.push(file);
  }
  return files;
}

function emptyList(context: Context, kind: ResourceKind, path: string): Resource {
  return listPage(context.model.settings, kind, path, [], () => null, 1);
}
