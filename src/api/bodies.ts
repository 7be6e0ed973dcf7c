/**
 * The JSON bodies of Weblate's objects: the layouts of shapes.ts filled from
 * the model, in the settings' flavour. Objects that are nested again and again
 * (a language in every translation, a component in every translation of it)
 * are serialized once per build and reused.
 */
import {
  hasTrait,
  laterFields,
  shapesOf,
  statisticsShapesOf,
  type FieldedObject,
  type Release,
} from '../model/releases.ts';
import type { Aggregates } from '../model/aggregates.ts';
import { projectHasReview, translationHasReview } from '../model/aggregates.ts';
import type { Counters } from '../model/statistics.ts';
import type {
  Category,
  Component,
  Language,
  Model,
  Project,
  Settings,
  Translation,
} from '../model/types.ts';
import {
  fillLayout,
  layoutWithout,
  RawJson,
  type JsonValue,
  type Layout,
} from '../output/serialize.ts';
import { compareStrings } from '../errors.ts';
import {
  CATEGORY,
  categoryWebUrl,
  projectLocked,
  COMPONENT,
  COMPONENT_WITHOUT_PROJECT,
  LANGUAGE,
  LOCK,
  NAMED_STATISTICS,
  PROJECT,
  PROJECT_LANGUAGE_4,
  PROJECT_REPOSITORY,
  REPOSITORY,
  TRANSLATION,
  TRANSLATION_STATISTICS,
  TRANSLATION_WITHOUT_COMPONENT,
  type ComponentSource,
  type TranslationSource,
} from './shapes.ts';
import { apiPath, apiUrl, componentSegment, componentWebPath, webPath, webUrl } from './urls.ts';

export interface Bodies {
  language(language: Language): RawJson;
  project(project: Project): RawJson;
  /** A component; inside a project's component list Weblate leaves out `project`. */
  component(component: Component, withProject?: boolean): JsonValue;
  /** A component with its project, serialized once per build. */
  componentJson(component: Component): RawJson;
  /** A translation; inside a component's translation list Weblate leaves out `component`. */
  translation(translation: Translation, withComponent?: boolean): JsonValue;
  translationStatistics(translation: Translation): JsonValue;
  projectStatistics(project: Project): JsonValue;
  languageStatistics(language: Language): JsonValue;
  projectLanguages(project: Project): JsonValue;
  /** The rows of a project's stats export: its languages' entries, or from 4.18 their statistics. */
  projectExportRows(project: Project): JsonValue;
  projectRepository(project: Project): JsonValue;
  componentRepository(component: Component): JsonValue;
  translationRepository(translation: Translation): JsonValue;
  lock(component: Component): JsonValue;
  /** 2026.8: a category, its statistics, and a project's lock. */
  category(category: Category): RawJson;
  categoryStatistics(category: Category): JsonValue;
  projectLock(project: Project): JsonValue;
}

/** Creates the body builders of one build; its caches live as long as it does. */
export function createBodies(model: Model, aggregates: Aggregates): Bodies {
  const settings = model.settings;
  const version = shapesOf(settings.weblateVersion);
  const statistics = statisticsShapesOf(settings.weblateVersion);
  const languages = new Map<Language, RawJson>();
  const projects = new Map<Project, RawJson>();
  const categories = new Map<Category, RawJson>();
  // A component is nested in each of its translations. Its lists write them together, so the
  // last one is kept. /api/translations/ goes by id, often across all components, so the first
  // components' bytes are also kept up to a budget (serializing a component again for each of
  // its translations there was a fifth of the main thread's rendering); none is ever dropped,
  // which would only turn it into garbage for a full collection.
  const lastComponent = lastOne<Component, RawJson>();
  const keptComponents = keptUpTo<Component>(COMPONENT_BYTES_KEPT);

  const language = (l: Language) => cached(languages, l, () => languageBody(settings, l));
  const release = settings.weblateVersion;
  const projectLayout = releaseLayout(PROJECT[version], release, 'project');
  const componentLayout = releaseLayout(COMPONENT[version], release, 'component');
  const componentWithoutProject = releaseLayout(
    COMPONENT_WITHOUT_PROJECT[version],
    release,
    'component',
  );
  const project = (p: Project) =>
    cached(projects, p, () => fillLayout(projectLayout, { settings, project: p }));
  const componentJson = (c: Component) =>
    keptComponents.get(c) ??
    lastComponent(c, () =>
      keptComponents.offer(
        c,
        RawJson.of(
          fillLayout(
            componentLayout,
            componentSource(settings, c, language(c.sourceLanguage), project(c.project)),
          ),
        ),
      ),
    );
  const component = (c: Component, withProject = true): JsonValue =>
    withProject
      ? componentJson(c)
      : fillLayout(
          componentWithoutProject,
          componentSource(settings, c, language(c.sourceLanguage), null),
        );
  const named = (counters: Counters, review: boolean, name: string, url: string) =>
    fillLayout(NAMED_STATISTICS[statistics], {
      counters,
      review,
      code: '',
      name,
      url,
      translateUrl: '',
    });

  return {
    language,
    project,
    component,
    componentJson,
    translation: (t, withComponent = true) => {
      const source = translationSource(
        settings,
        t,
        language(t.language),
        withComponent ? componentJson(t.component) : null,
      );
      return fillLayout(
        (withComponent ? TRANSLATION : TRANSLATION_WITHOUT_COMPONENT)[version],
        source,
      );
    },
    translationStatistics: (t) => translationStatisticsBody(settings, t),
    projectStatistics: (p) =>
      named(
        aggregates.project(p),
        projectHasReview(p),
        p.name,
        webUrl(settings, webPath.project(p.slug)),
      ),
    // A language has no review setting of its own; Weblate's default counts it as reviewed.
    languageStatistics: (l) =>
      named(aggregates.language(l), true, l.name, webUrl(settings, webPath.language(l.code))),
    projectLanguages: (p) => projectLanguagesBody(settings, p, aggregates.projectLanguages(p)),
    projectExportRows: (p) =>
      hasTrait(settings.weblateVersion, 'projectExport27') && !hasTrait(version, 'shapes5')
        ? projectLanguageStatistics4(settings, p, aggregates.projectLanguages(p))
        : projectLanguagesBody(settings, p, aggregates.projectLanguages(p)),
    projectRepository: (p) =>
      fillLayout(PROJECT_REPOSITORY, { url: apiUrl(settings, apiPath.projectRepository(p.slug)) }),
    componentRepository: (c) =>
      fillLayout(REPOSITORY, {
        url: apiUrl(settings, apiPath.componentRepository(c.project.slug, componentSegment(c))),
      }),
    translationRepository: (t) =>
      fillLayout(REPOSITORY, {
        url: apiUrl(
          settings,
          apiPath.translationRepository(
            t.component.project.slug,
            componentSegment(t.component),
            t.language.code,
          ),
        ),
      }),
    lock: (c) => fillLayout(LOCK, c.locked),
    category: (c) => cached(categories, c, () => fillLayout(CATEGORY, { settings, category: c })),
    // A category has no review setting of its own either (BaseStats.has_review).
    categoryStatistics: (c) =>
      named(aggregates.category(c), true, c.name, categoryWebUrl(settings, c)),
    projectLock: (p) => fillLayout(LOCK, projectLocked(p)),
  };
}

/** How Weblate names a language in words: the name, with the code for a language it does not ship. */
function languageDisplayName(language: Language): string {
  return language.inCatalog ? language.name : `${language.name} (${language.code})`;
}

// --- internal ---

function componentSource(
  settings: Settings,
  component: Component,
  sourceLanguage: RawJson,
  project: RawJson | null,
): ComponentSource {
  return {
    settings,
    component,
    sourceLanguage,
    project,
    p: component.project.slug,
    c: componentSegment(component),
    web: componentWebPath(component),
  };
}

function translationSource(
  settings: Settings,
  translation: Translation,
  language: RawJson,
  component: RawJson | null,
): TranslationSource {
  const c = translation.component;
  return {
    settings,
    translation,
    counters: translation.counters,
    language,
    component,
    review: translationHasReview(translation),
    p: c.project.slug,
    c: componentSegment(c),
    web: componentWebPath(c),
  };
}

/** How many bytes of components' JSON one build keeps (all of them at 100,000 translations in 4.x). */
const COMPONENT_BYTES_KEPT = 64 * 2 ** 20;

/** A map that keeps what it is offered until its values hold `budget` bytes, then keeps nothing more. */
function keptUpTo<K>(budget: number): {
  get(key: K): RawJson | undefined;
  offer(key: K, value: RawJson): RawJson;
} {
  const kept = new Map<K, RawJson>();
  let bytes = 0;
  return {
    get: (key) => kept.get(key),
    offer(key, value) {
      if (bytes + value.bytes.length <= budget) {
        kept.set(key, value);
        bytes += value.bytes.length;
      }
      return value;
    },
  };
}

/** A memo of the last key asked for only: what it holds is garbage soon after the key changes. */
function lastOne<K, V>(): (key: K, make: () => V) => V {
  let last: { key: K; value: V } | null = null;
  return (key, make) => {
    if (last?.key !== key) last = { key, value: make() };
    return last.value;
  };
}

function cached<K>(cache: Map<K, RawJson>, key: K, make: () => JsonValue): RawJson {
  let value = cache.get(key);
  if (!value) cache.set(key, (value = RawJson.of(make())));
  return value;
}

/** A Language object, exactly as its file holds it. */
export function languageBody(settings: Settings, language: Language): JsonValue {
  const release = settings.weblateVersion;
  return fillLayout(releaseLayout(LANGUAGE[shapesOf(release)], release, 'language'), {
    settings,
    language,
  });
}

/** Each layout less the fields of later releases, made once per layout and release. */
const releaseLayouts = new Map<Layout<never>, Map<Release, Layout<never>>>();

/** An object's layout as `release` serves it: today's shapes less the fields later releases added. */
function releaseLayout<S>(layout: Layout<S>, release: Release, object: FieldedObject): Layout<S> {
  if (!hasTrait(release, 'shapes5')) return layout;
  const byRelease = releaseLayouts.get(layout) ?? new Map<Release, Layout<never>>();
  releaseLayouts.set(layout, byRelease);
  const trimmed = byRelease.get(release) ?? layoutWithout(layout, laterFields(release, object));
  byRelease.set(release, trimmed);
  return trimmed as Layout<S>;
}

function translationStatisticsBody(settings: Settings, t: Translation): JsonValue {
  const p = t.component.project.slug;
  const web = componentWebPath(t.component);
  const code = t.language.code;
  return fillLayout(TRANSLATION_STATISTICS[statisticsShapesOf(settings.weblateVersion)], {
    counters: t.counters,
    review: translationHasReview(t),
    code,
    name: t.language.name,
    url: webUrl(settings, webPath.translation(p, web, code)),
    translateUrl: webUrl(settings, webPath.translate(p, web, code)),
  });
}

/**
 * `/api/projects/<p>/languages/`: a bare array, by language name. 4.x writes
 * a compact summary per language; 2026.8 a statistics object per language
 * (ProjectLanguageStats), named by its project-language pages.
 */
/** 4.18's project export rows: a statistics object per language, named by its 4.x page (inferred). */
function projectLanguageStatistics4(
  settings: Settings,
  project: Project,
  sums: ReadonlyMap<Language, Counters>,
): JsonValue {
  const review = projectHasReview(project);
  return [...sums].map(([language, counters]) =>
    fillLayout(TRANSLATION_STATISTICS['4'], {
      counters,
      review,
      code: language.code,
      name: language.name,
      url: webUrl(settings, `${webPath.language(language.code)}${project.slug}/`),
      translateUrl: '',
    }),
  );
}

function projectLanguagesBody(
  settings: Settings,
  project: Project,
  sums: ReadonlyMap<Language, Counters>,
): JsonValue {
  const review = projectHasReview(project);
  const entries = [...sums].sort(
    ([a], [b]) => compareStrings(a.name, b.name) || compareStrings(a.code, b.code),
  );
  if (!hasTrait(settings.weblateVersion, 'shapes5')) {
    return entries.map(([language, counters]) =>
      fillLayout(PROJECT_LANGUAGE_4, {
        counters,
        review,
        code: language.code,
        name: languageDisplayName(language),
        url: '',
        translateUrl: '',
      }),
    );
  }
  return entries.map(([language, counters]) =>
    fillLayout(TRANSLATION_STATISTICS[statisticsShapesOf(settings.weblateVersion)], {
      counters,
      review,
      code: language.code,
      name: language.name,
      url: webUrl(settings, webPath.projectLanguage(project.slug, language.code)),
      translateUrl: webUrl(settings, webPath.projectLanguageTranslate(project.slug, language.code)),
    }),
  );
}
