/**
 * The JSON bodies of Weblate 4.x objects, every field in the order Weblate's
 * serializers emit it (spec section 1.4). Objects that are nested again and
 * again (a language in every translation, a component in every translation of
 * it) are serialized once per build and reused.
 */
import type { Aggregates } from '../model/aggregates.ts';
import { projectHasReview } from '../model/aggregates.ts';
import { percent, STATISTICS_FIELDS, statisticsValues, type Counters } from '../model/statistics.ts';
import { formatTimestamp } from '../model/timestamps.ts';
import type { Component, Language, Model, Project, Site, Translation } from '../model/types.ts';
import { defineShape, RawJson, serialize, ShapedObject, type FieldKind, type JsonValue } from '../output/serialize.ts';
import { compareStrings } from '../errors.ts';
import { apiPath, apiUrl, webPath, webUrl } from './urls.ts';

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
  projectRepository(project: Project): JsonValue;
  componentRepository(component: Component): JsonValue;
  translationRepository(translation: Translation): JsonValue;
  lock(component: Component): JsonValue;
}

/** Creates the body builders of one build; its caches live as long as it does. */
export function createBodies(model: Model, aggregates: Aggregates): Bodies {
  const site = model.site;
  const languages = new Map<Language, RawJson>();
  const projects = new Map<Project, RawJson>();
  // A component is nested in each of its translations. Its lists write them together, so the
  // last one is kept; /api/translations/ goes by id, across all components, so no cache would
  // hit there, and one that kept many would only turn each into garbage for a full collection.
  const lastComponent = lastOne<Component, RawJson>();

  const language = (l: Language) => cached(languages, l, () => languageBody(site, l));
  const project = (p: Project) => cached(projects, p, () => projectBody(site, p));
  const componentJson = (c: Component) =>
    lastComponent(c, () => new RawJson(serialize(componentBody(site, c, language(c.sourceLanguage), project(c.project)))));
  const component = (c: Component, withProject = true): JsonValue =>
    withProject ? componentJson(c) : componentBody(site, c, language(c.sourceLanguage), null);

  return {
    language,
    project,
    component,
    componentJson,
    translation: (t, withComponent = true) =>
      translationBody(site, t, language(t.language), withComponent ? componentJson(t.component) : null),
    translationStatistics: (t) => translationStatisticsBody(site, t),
    projectStatistics: (p) =>
      new ShapedObject(NAMED_STATISTICS, [
        ...statisticsValues(aggregates.project(p), projectHasReview(p)),
        p.name,
        webUrl(site, webPath.project(p.slug)),
      ]),
    // A language has no review setting of its own; Weblate's default counts it as reviewed.
    languageStatistics: (l) =>
      new ShapedObject(NAMED_STATISTICS, [
        ...statisticsValues(aggregates.language(l), true),
        l.name,
        webUrl(site, webPath.language(l.code)),
      ]),
    projectLanguages: (p) => projectLanguagesBody(p, aggregates.projectLanguages(p)),
    projectRepository: (p) => ({
      needs_commit: false,
      needs_merge: false,
      needs_push: false,
      url: apiUrl(site, apiPath.projectRepository(p.slug)),
    }),
    componentRepository: (c) => componentRepositoryBody(apiUrl(site, apiPath.componentRepository(c.project.slug, c.slug))),
    translationRepository: (t) =>
      componentRepositoryBody(apiUrl(site, apiPath.translationRepository(t.component.project.slug, t.component.slug, t.language.code))),
    lock: (c) => ({ locked: c.locked }),
  };
}

/** Whether percentages of this translation count reviews: the source uses source_review, others translation_review. */
function translationHasReview(translation: Translation): boolean {
  const project = translation.component.project;
  return translation.isSource ? project.source_review : project.translation_review;
}

/** How Weblate names a language in words: the name, with the code for a language it does not ship. */
function languageDisplayName(language: Language): string {
  return language.inCatalog ? language.name : `${language.name} (${language.code})`;
}

// --- internal ---

// The layouts of Weblate 4.x's objects (spec section 1.4), field by field.

const PLURAL = defineShape([
  ['id', 'int'],
  ['source', 'int'],
  ['number', 'int'],
  ['formula', 'text'],
  ['type', 'int'],
]);

const LANGUAGE = defineShape([
  ['code', 'url'],
  ['name', 'text'],
  ['plural', 'json'],
  ['aliases', 'json'],
  ['direction', 'url'],
  ['population', 'int'],
  ['web_url', 'url'],
  ['url', 'url'],
  ['statistics_url', 'url'],
]);

const PROJECT = defineShape([
  ['name', 'text'],
  ['slug', 'url'],
  ['id', 'int'],
  ['web', 'text'],
  ['web_url', 'url'],
  ['url', 'url'],
  ['components_list_url', 'url'],
  ['repository_url', 'url'],
  ['statistics_url', 'url'],
  ['changes_list_url', 'url'],
  ['languages_url', 'url'],
  ['translation_review', 'bool'],
  ['source_review', 'bool'],
  ['set_language_team', 'bool'],
  ['instructions', 'text'],
  ['enable_hooks', 'bool'],
  ['language_aliases', 'text'],
]);

const COMPONENT_FIELDS = [
  ['name', 'text'],
  ['slug', 'url'],
  ['id', 'int'],
  ['source_language', 'json'],
  ['project', 'json'],
  ['vcs', 'text'],
  ['repo', 'text'],
  ['git_export', 'text'],
  ['branch', 'text'],
  ['push_branch', 'text'],
  ['filemask', 'text'],
  ['template', 'text'],
  ['edit_template', 'bool'],
  ['intermediate', 'text'],
  ['new_base', 'text'],
  ['file_format', 'text'],
  ['license', 'text'],
  ['license_url', 'text'],
  ['agreement', 'text'],
  ['web_url', 'url'],
  ['url', 'url'],
  ['repository_url', 'url'],
  ['translations_url', 'url'],
  ['statistics_url', 'url'],
  ['lock_url', 'url'],
  ['links_url', 'url'],
  ['changes_list_url', 'url'],
  ['task_url', 'url'],
  ['new_lang', 'text'],
  ['language_code_style', 'text'],
  ['push', 'text'],
  ['check_flags', 'text'],
  ['priority', 'int'],
  ['enforced_checks', 'json'],
  ['restricted', 'bool'],
  ['repoweb', 'text'],
  ['report_source_bugs', 'text'],
  ['merge_style', 'text'],
  ['commit_message', 'text'],
  ['add_message', 'text'],
  ['delete_message', 'text'],
  ['merge_message', 'text'],
  ['addon_message', 'text'],
  ['pull_message', 'text'],
  ['allow_translation_propagation', 'bool'],
  ['manage_units', 'bool'],
  ['enable_suggestions', 'bool'],
  ['suggestion_voting', 'bool'],
  ['suggestion_autoaccept', 'int'],
  ['push_on_commit', 'bool'],
  ['commit_pending_age', 'int'],
  ['auto_lock_error', 'bool'],
  ['language_regex', 'text'],
  ['variant_regex', 'text'],
  ['addons', 'json'],
  ['is_glossary', 'bool'],
  ['glossary_color', 'text'],
] as const satisfies readonly (readonly [string, FieldKind])[];
const COMPONENT = defineShape(COMPONENT_FIELDS);
/** In a project's component list Weblate leaves out `project`. */
const COMPONENT_WITHOUT_PROJECT = defineShape(COMPONENT_FIELDS.filter(([key]) => key !== 'project'));

const TRANSLATION_FIELDS = [
  ['language', 'json'],
  ['component', 'json'],
  ['language_code', 'text'],
  ['id', 'int'],
  ['filename', 'text'],
  ['revision', 'text'],
  ['web_url', 'url'],
  ['share_url', 'url'],
  ['translate_url', 'url'],
  ['url', 'url'],
  ['is_template', 'bool'],
  ['is_source', 'bool'],
  ['total', 'int'],
  ['total_words', 'int'],
  ['translated', 'int'],
  ['translated_words', 'int'],
  ['translated_percent', 'float'],
  ['fuzzy', 'int'],
  ['fuzzy_words', 'int'],
  ['fuzzy_percent', 'float'],
  ['failing_checks', 'int'],
  ['failing_checks_words', 'int'],
  ['failing_checks_percent', 'float'],
  ['have_suggestion', 'int'],
  ['have_comment', 'int'],
  ['last_change', 'text'],
  ['last_author', 'text'],
  ['repository_url', 'url'],
  ['file_url', 'url'],
  ['statistics_url', 'url'],
  ['changes_list_url', 'url'],
  ['units_list_url', 'url'],
] as const satisfies readonly (readonly [string, FieldKind])[];
const TRANSLATION = defineShape(TRANSLATION_FIELDS);
/** In a component's translation list Weblate leaves out `component`. */
const TRANSLATION_WITHOUT_COMPONENT = defineShape(TRANSLATION_FIELDS.filter(([key]) => key !== 'component'));

/** Statistics of a translation: the common fields, then the language and the translation's web pages. */
const TRANSLATION_STATISTICS = defineShape([
  ...STATISTICS_FIELDS,
  ['code', 'url'],
  ['name', 'text'],
  ['url', 'url'],
  ['translate_url', 'url'],
]);
/** Statistics of a project or a language: the common fields, then its name and web page. */
const NAMED_STATISTICS = defineShape([...STATISTICS_FIELDS, ['name', 'text'], ['url', 'url']]);

const PROJECT_LANGUAGE = defineShape([
  ['language', 'text'],
  ['code', 'url'],
  ['total', 'int'],
  ['translated', 'int'],
  ['translated_percent', 'float'],
  ['total_words', 'int'],
  ['translated_words', 'int'],
  ['translated_words_percent', 'float'],
  ['total_chars', 'int'],
  ['translated_chars', 'int'],
  ['translated_chars_percent', 'float'],
]);

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
  if (!value) cache.set(key, (value = new RawJson(serialize(make()))));
  return value;
}

/** A Language object (spec 1.4.1), exactly as its file holds it. */
export function languageBody(site: Site, l: Language): JsonValue {
  const p = l.plural;
  return new ShapedObject(LANGUAGE, [
    l.code,
    l.name,
    new ShapedObject(PLURAL, [p.id, p.source, p.number, p.formula, p.type]),
    l.aliases,
    l.direction,
    l.population,
    webUrl(site, webPath.language(l.code)),
    apiUrl(site, apiPath.language(l.code)),
    apiUrl(site, apiPath.languageStatistics(l.code)),
  ]);
}

function projectBody(site: Site, p: Project): JsonValue {
  return new ShapedObject(PROJECT, [
    p.name,
    p.slug,
    p.id,
    p.web,
    webUrl(site, webPath.project(p.slug)),
    apiUrl(site, apiPath.project(p.slug)),
    apiUrl(site, apiPath.projectComponents(p.slug)),
    apiUrl(site, apiPath.projectRepository(p.slug)),
    apiUrl(site, apiPath.projectStatistics(p.slug)),
    apiUrl(site, apiPath.projectChanges(p.slug)),
    apiUrl(site, apiPath.projectLanguages(p.slug)),
    p.translation_review,
    p.source_review,
    p.set_language_team,
    p.instructions,
    p.enable_hooks,
    p.language_aliases,
  ]);
}

function componentBody(site: Site, c: Component, sourceLanguage: RawJson, project: RawJson | null): JsonValue {
  const s = c.settings;
  const p = c.project.slug;
  // Repository fields of a linked component show the repository it shares (Weblate's LinkedField).
  const repository = c.linkedComponent?.settings ?? s;
  const values: unknown[] = [
    c.name,
    c.slug,
    c.id,
    sourceLanguage,
    project,
    s.vcs,
    hideCredentials(repository.repo),
    s.git_export,
    repository.branch,
    repository.push_branch,
    s.filemask,
    s.template,
    s.edit_template,
    s.intermediate,
    s.new_base,
    s.file_format,
    s.license,
    c.licenseUrl,
    s.agreement,
    webUrl(site, webPath.component(p, c.slug)),
    apiUrl(site, apiPath.component(p, c.slug)),
    apiUrl(site, apiPath.componentRepository(p, c.slug)),
    apiUrl(site, apiPath.componentTranslations(p, c.slug)),
    apiUrl(site, apiPath.componentStatistics(p, c.slug)),
    apiUrl(site, apiPath.componentLock(p, c.slug)),
    apiUrl(site, apiPath.componentLinks(p, c.slug)),
    apiUrl(site, apiPath.componentChanges(p, c.slug)),
    null,
    s.new_lang,
    s.language_code_style,
    hideCredentials(repository.push),
    s.check_flags,
    s.priority,
    s.enforced_checks,
    s.restricted,
    s.repoweb,
    s.report_source_bugs,
    s.merge_style,
    s.commit_message,
    s.add_message,
    s.delete_message,
    s.merge_message,
    s.addon_message,
    s.pull_message,
    s.allow_translation_propagation,
    s.manage_units,
    s.enable_suggestions,
    s.suggestion_voting,
    s.suggestion_autoaccept,
    s.push_on_commit,
    s.commit_pending_age,
    s.auto_lock_error,
    s.language_regex,
    s.variant_regex,
    [],
    s.is_glossary,
    s.glossary_color,
  ];
  if (project) return new ShapedObject(COMPONENT, values);
  values.splice(4, 1);
  return new ShapedObject(COMPONENT_WITHOUT_PROJECT, values);
}

function translationBody(site: Site, t: Translation, language: RawJson, component: RawJson | null): JsonValue {
  const c = t.counters;
  const p = t.component.project.slug;
  const slug = t.component.slug;
  const code = t.language.code;
  const hasReview = translationHasReview(t);
  const values: unknown[] = [
    language,
    component,
    t.languageCode,
    t.id,
    t.filename,
    t.revision,
    webUrl(site, webPath.translation(p, slug, code)),
    webUrl(site, webPath.share(p, code)),
    webUrl(site, webPath.translate(p, slug, code)),
    apiUrl(site, apiPath.translation(p, slug, code)),
    t.isTemplate,
    t.isSource,
    c.total,
    c.total_words,
    c.translated,
    c.translated_words,
    percent(c.translated, c.total, !hasReview),
    c.fuzzy,
    c.fuzzy_words,
    percent(c.fuzzy, c.total, false),
    c.failing_checks,
    c.failing_checks_words,
    percent(c.failing_checks, c.total, false),
    c.have_suggestion,
    c.have_comment,
    c.last_change === null ? null : formatTimestamp(c.last_change),
    t.lastAuthor,
    apiUrl(site, apiPath.translationRepository(p, slug, code)),
    apiUrl(site, apiPath.translationFile(p, slug, code)),
    apiUrl(site, apiPath.translationStatistics(p, slug, code)),
    apiUrl(site, apiPath.translationChanges(p, slug, code)),
    apiUrl(site, apiPath.translationUnits(p, slug, code)),
  ];
  if (component) return new ShapedObject(TRANSLATION, values);
  values.splice(1, 1);
  return new ShapedObject(TRANSLATION_WITHOUT_COMPONENT, values);
}

function translationStatisticsBody(site: Site, t: Translation): JsonValue {
  const p = t.component.project.slug;
  return new ShapedObject(TRANSLATION_STATISTICS, [
    ...statisticsValues(t.counters, translationHasReview(t)),
    t.language.code,
    t.language.name,
    webUrl(site, webPath.translation(p, t.component.slug, t.language.code)),
    webUrl(site, webPath.translate(p, t.component.slug, t.language.code)),
  ]);
}

/** `/api/projects/<p>/languages/`: a bare array of compact per-language entries, by language name. */
function projectLanguagesBody(project: Project, sums: ReadonlyMap<Language, Counters>): JsonValue {
  const hasReview = projectHasReview(project);
  const entries = [...sums].sort(([a], [b]) => compareStrings(a.name, b.name) || compareStrings(a.code, b.code));
  return entries.map(
    ([language, c]) =>
      new ShapedObject(PROJECT_LANGUAGE, [
        languageDisplayName(language),
        language.code,
        c.total,
        c.translated,
        percent(c.translated, c.total, !hasReview),
        c.total_words,
        c.translated_words,
        percent(c.translated_words, c.total_words, !hasReview),
        c.total_chars,
        c.translated_chars,
        percent(c.translated_chars, c.total_chars, !hasReview),
      ]),
  );
}

function componentRepositoryBody(url: string): JsonValue {
  return { needs_commit: false, needs_merge: false, needs_push: false, url, remote_commit: null, status: '', merge_failure: null };
}

/**
 * Weblate hides credentials in repository URLs (HIDE_REPO_CREDENTIALS, on by
 * default): `https://user:secret@host/x` shows as `https://host/x`. URLs
 * without a scheme (`git@host:x`) have no user part in this sense and stay.
 */
function hideCredentials(url: string): string {
  const match = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)/.exec(url);
  if (!match) return url;
  const at = match[1]!.lastIndexOf('@');
  if (at < 0) return url;
  const userinfo = match[1]!.slice(0, at);
  const colon = userinfo.indexOf(':');
  const username = colon < 0 ? userinfo : userinfo.slice(0, colon);
  const password = colon < 0 ? '' : userinfo.slice(colon + 1);
  if (!username) return url;
  const shown = password ? `${username}:${password}@` : `${username}@`;
  return url.split(shown).join('');
}
