/**
 * The whole API as data: every resource of the snapshot with its path, kind
 * and body, generated lazily so that a large instance never sits in memory as
 * JSON. Order: the root and top-level lists, then languages, projects,
 * components with their translations, and the global translation list.
 */
import { EMPTY_ROOT_LISTS, ROOT_LISTS, type ResourceKind } from '../api/routes.ts';
import { aggregate } from '../model/aggregates.ts';
import type { Component, Language, Model, Project, Translation } from '../model/types.ts';
import type { JsonValue } from '../output/serialize.ts';
import { apiPath, apiUrl } from '../urls.ts';
import { createBodies, type Bodies } from './bodies.ts';
import { pageCount, pages } from './pagination.ts';

export interface Resource {
  /** The API path this file answers: `/api/projects/`, `/api/projects/~page/2/`. */
  path: string;
  kind: ResourceKind;
  body: JsonValue;
}

export function* generateResources(model: Model): Generator<Resource> {
  const bodies = createBodies(model, aggregate(model));
  yield* rootResources(model);
  yield* languageResources(model, bodies);
  yield* projectResources(model, bodies);
  yield* pages(model.site, 'components', apiPath.components(), model.components, (c) => bodies.component(c));
  for (const component of model.components) {
    yield* componentResources(model, bodies, component);
    for (const translation of component.translations) yield* translationResources(model, bodies, translation);
  }
  yield* pages(model.site, 'translations', apiPath.translations(), model.translations, (t) => bodies.translation(t));
}

/** How many files generateResources() yields, for progress reports. */
export function countResources(model: Model): number {
  const n = (count: number) => pageCount(count, model.site.pageSize);
  let total = 1 + EMPTY_ROOT_LISTS.length;
  total += n(model.languages.length) + 2 * model.languages.length;
  total += n(model.projects.length);
  for (const project of model.projects) total += 5 + n(project.components.length);
  total += n(model.components.length);
  for (const component of model.components) {
    total += 4 + 2 * n(component.translations.length) + n(component.links.length);
  }
  total += 5 * model.translations.length + n(model.translations.length);
  return total;
}

// --- internal ---

function* rootResources(model: Model): Generator<Resource> {
  const root: Record<string, JsonValue> = {};
  for (const name of ROOT_LISTS) root[name] = apiUrl(model.site, apiPath.list(name));
  yield { path: apiPath.root(), kind: 'root', body: root };
  for (const name of EMPTY_ROOT_LISTS) yield* emptyList(model, name, apiPath.list(name));
}

function* languageResources(model: Model, bodies: Bodies): Generator<Resource> {
  yield* pages(model.site, 'languages', apiPath.languages(), model.languages, (l: Language) => bodies.language(l));
  for (const language of model.languages) {
    yield { path: apiPath.language(language.code), kind: 'language', body: bodies.language(language) };
    yield { path: apiPath.languageStatistics(language.code), kind: 'language-statistics', body: bodies.languageStatistics(language) };
  }
}

function* projectResources(model: Model, bodies: Bodies): Generator<Resource> {
  const site = model.site;
  yield* pages(site, 'projects', apiPath.projects(), model.projects, (p: Project) => bodies.project(p));
  for (const project of model.projects) {
    const slug = project.slug;
    yield { path: apiPath.project(slug), kind: 'project', body: bodies.project(project) };
    yield* pages(site, 'project-components', apiPath.projectComponents(slug), project.components, (c) => bodies.component(c, false));
    yield { path: apiPath.projectLanguages(slug), kind: 'project-languages', body: bodies.projectLanguages(project) };
    yield { path: apiPath.projectStatistics(slug), kind: 'project-statistics', body: bodies.projectStatistics(project) };
    yield* emptyList(model, 'project-changes', apiPath.projectChanges(slug));
    yield { path: apiPath.projectRepository(slug), kind: 'project-repository', body: bodies.projectRepository(project) };
  }
}

function* componentResources(model: Model, bodies: Bodies, component: Component): Generator<Resource> {
  const site = model.site;
  const [p, c] = [component.project.slug, component.slug];
  yield { path: apiPath.component(p, c), kind: 'component', body: bodies.component(component) };
  yield* pages(site, 'component-translations', apiPath.componentTranslations(p, c), component.translations, (t) => bodies.translation(t, false));
  yield* pages(site, 'component-statistics', apiPath.componentStatistics(p, c), component.translations, (t) => bodies.translationStatistics(t));
  yield { path: apiPath.componentLock(p, c), kind: 'component-lock', body: bodies.lock(component) };
  yield* pages(site, 'component-links', apiPath.componentLinks(p, c), component.links, (project) => bodies.project(project));
  yield* emptyList(model, 'component-changes', apiPath.componentChanges(p, c));
  yield { path: apiPath.componentRepository(p, c), kind: 'component-repository', body: bodies.componentRepository(component) };
}

function* translationResources(model: Model, bodies: Bodies, translation: Translation): Generator<Resource> {
  const [p, c, l] = [translation.component.project.slug, translation.component.slug, translation.language.code];
  yield { path: apiPath.translation(p, c, l), kind: 'translation', body: bodies.translation(translation) };
  yield { path: apiPath.translationStatistics(p, c, l), kind: 'translation-statistics', body: bodies.translationStatistics(translation) };
  yield* emptyList(model, 'translation-changes', apiPath.translationChanges(p, c, l));
  yield* emptyList(model, 'translation-units', apiPath.translationUnits(p, c, l));
  yield { path: apiPath.translationRepository(p, c, l), kind: 'translation-repository', body: bodies.translationRepository(translation) };
}

function* emptyList(model: Model, kind: ResourceKind, path: string): Generator<Resource> {
  yield* pages(model.site, kind, path, [], () => null);
}
