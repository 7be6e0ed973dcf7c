/**
 * What a patch of some components (resolve/patch.ts) may change in the tree:
 * the groups to look at again (a superset; a group whose fingerprint did not
 * move is skipped), the lists whose length may have changed, and the groups
 * known to be gone. Also the pages of an instance-wide list alone, for a
 * session that rewrites them later.
 */
import type { PatchScope } from '../resolve/patch.ts';
import { listPageSize, pageCount } from '../api/pagination.ts';
import type { ResourceKind } from '../api/routes.ts';
import { apiPath, componentSegment } from '../api/urls.ts';
import type { Category, Component, Model, Project, Translation } from '../model/types.ts';
import { createFingerprintCache } from './fingerprints.ts';
import type { HostOptions } from '../hosts/index.ts';
import type { PngStore } from '../status-site/png.ts';
import { patchedStatusSiteGroups, statusSiteKeysOf } from './status-site-groups.ts';
import {
  categoryGroup,
  componentGroups,
  createContext,
  instanceListPages,
  languageGroup,
  languageListGroups,
  oneProjectGroups,
  rootFolderGroup,
  toFileGroup,
  translationGroup,
  type ApiGroup,
  type FileGroup,
  type InstanceList,
} from './groups.ts';

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
  cache = createFingerprintCache(),
  options: { deferInstanceLists?: boolean; hosts?: HostOptions; pngs?: PngStore | undefined } = {},
): PatchedGroups {
  const context = createContext(model, cache, options.pngs);
  const deferred: InstanceList[] = [];
  const groups: FileGroup[] = [];
  const add = (apiGroups: Iterable<ApiGroup>) => {
    for (const group of apiGroups) groups.push(toFileGroup(group, model.settings.weblateVersion));
  };
  const { settings } = model;
  const lists: ListExtent[] = [];
  const list = (kind: ResourceKind, path: string, count: number) =>
    lists.push({ path, pages: pageCount(count, listPageSize(settings, kind)) });

  add(languageListGroups(context));
  list('languages', apiPath.languages(), model.languages.length);
  const published = new Set(model.languages);
  add([...scope.languages].filter((l) => published.has(l)).map((l) => languageGroup(context, l)));
  for (const project of scope.projects) {
    add(oneProjectGroups(context, project));
    list('project-components', apiPath.projectComponents(project.slug), project.components.length);
  }
  // A category's statistics sum its components', at any depth.
  add(
    [...categoriesAround([...scope.components, ...scope.replaced])].map((category) =>
      categoryGroup(context, category),
    ),
  );
  // An instance-wide list whose length changed has every page changed (each carries the count): it may be left for later.
  // Of one whose length held, only the pages with an item of a patched component.
  const touched = new Set([...scope.components, ...scope.replaced]);
  const instanceList = <T>(name: InstanceList, items: T[], itemsBefore: T[], ownPage: Owner<T>) => {
    const [length, lengthBefore] = [items.length, itemsBefore.length];
    if (options.deferInstanceLists && length !== lengthBefore) deferred.push(name);
    else {
      const size = listPageSize(settings, name);
      const only =
        length === lengthBefore ? pagesTouched(items, itemsBefore, size, ownPage) : undefined;
      add(instanceListPages(context, name, only));
    }
    list(name, apiPath.list(name), length);
  };
  instanceList('components', model.components, before.components, (c) => touched.has(c));
  for (const component of scope.components) {
    add(componentGroups(context, component));
    add(component.translations.map((t) => translationGroup(context, t)));
    const [p, c] = [component.project.slug, componentSegment(component)];
    list(
      'component-translations',
      apiPath.componentTranslations(p, c),
      component.translations.length,
    );
    list('component-statistics', apiPath.componentStatistics(p, c), component.translations.length);
    list('component-links', apiPath.componentLinks(p, c), component.links.length);
  }
  instanceList('translations', model.translations, before.translations, (t) =>
    touched.has(t.component),
  );
  groups.push(...patchedStatusSiteGroups(context, scope));
  // The root folder holds the home page, which shows every project's and language's sums.
  if (model.settings.pages) groups.push(rootFolderGroup(context, options.hosts ?? {}));
  const removed = [
    ...removedByPatch(before, model, scope),
    ...statusSiteKeysRemoved(before, model, scope),
  ];
  const extents = lists.filter(
    (extent) => !deferred.some((name) => extent.path === apiPath.list(name)),
  );
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

/** Every page of an instance-wide list of the model, and its extent. */
export function instanceListGroups(
  model: Model,
  name: InstanceList,
  cache = createFingerprintCache(),
): { groups: FileGroup[]; extent: ListExtent } {
  const context = createContext(model, cache);
  const groups = [...instanceListPages(context, name)].map((group) =>
    toFileGroup(group, model.settings.weblateVersion),
  );
  const length = name === 'translations' ? model.translations.length : model.components.length;
  return {
    groups,
    extent: {
      path: apiPath.list(name),
      pages: pageCount(length, listPageSize(model.settings, name)),
    },
  };
}

/** A list and how many pages it now has: pages after the last are gone. */
interface ListExtent {
  path: string;
  pages: number;
}

// --- internal ---

/** Whether an item of a list belongs to a patched component. */
type Owner<T> = (item: T) => boolean;

/** The pages of a list whose items may have changed: another item at a place, or one of a patched component. */
function pagesTouched<T>(
  items: T[],
  itemsBefore: T[],
  size: number,
  touched: Owner<T>,
): Set<number> {
  const pages = new Set<number>();
  for (let i = 0; i < items.length; i++)
    if (items[i] !== itemsBefore[i] || touched(items[i]!)) pages.add(Math.floor(i / size) + 1);
  return pages;
}

/** The categories the components sit in, and the categories those sit in. */
function categoriesAround(components: readonly Component[]): Set<Category> {
  const categories = new Set<Category>();
  for (const component of components)
    for (let c = component.category; c; c = c.parent) categories.add(c);
  return categories;
}

/** The status site's folders of objects the patch removed: translations, components, a project's languages, languages. */
function statusSiteKeysRemoved(before: Model, model: Model, scope: PatchScope): string[] {
  // A patch changes its projects' component lists in place: the languages a project had come from its
  // components the patch left alone and the ones it replaced.
  const added = new Set(scope.components);
  const languagesBefore = (project: Project) => [
    ...project.components.filter((c) => !added.has(c)),
    ...scope.replaced.filter((c) => c.project === project),
  ];
  const gone = statusSiteKeysOf(
    before,
    [...scope.projects].map((p) => [p, languagesBefore(p)] as const),
    scope.replaced,
  );
  for (const key of statusSiteKeysOf(
    model,
    [...scope.projects].map((p) => [p, p.components] as const),
    scope.components,
  ))
    gone.delete(key);
  return [...gone];
}

function removedByPatch(before: Model, model: Model, scope: PatchScope): string[] {
  const keys = new Set<string>();
  const translationKey = (t: Translation) =>
    apiPath.translation(t.component.project.slug, componentSegment(t.component), t.language.code);
  for (const old of scope.replaced) {
    keys.add(apiPath.component(old.project.slug, componentSegment(old)));
    for (const t of old.translations) keys.add(translationKey(t));
  }
  for (const component of scope.components) {
    keys.delete(apiPath.component(component.project.slug, componentSegment(component)));
    for (const t of component.translations) keys.delete(translationKey(t));
  }
  const published = new Set(model.languages.map((l) => l.code));
  for (const language of before.languages)
    if (!published.has(language.code)) keys.add(apiPath.language(language.code));
  return [...keys];
}
