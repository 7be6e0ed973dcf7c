/**
 * The JSON bodies of Weblate 4.x objects, every field in the order Weblate's
 * serializers emit it (spec section 1.4). Objects that are nested again and
 * again (a language in every translation, a component in every translation of
 * it) are serialized once per build and reused.
 */
import type { Aggregates } from '../model/aggregates.ts';
import { projectHasReview } from '../model/aggregates.ts';
import { percent, statisticsFields, type Counters } from '../model/statistics.ts';
import { formatTimestamp } from '../model/timestamps.ts';
import type { Component, Language, Model, Project, Site, Translation } from '../model/types.ts';
import { JsonFloat, RawJson, serialize, type JsonValue } from '../output/serialize.ts';
import { compareStrings } from '../errors.ts';
import { apiPath, apiUrl, webPath, webUrl } from '../urls.ts';

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
  const components = new Map<Component, RawJson>();

  const language = (l: Language) => cached(languages, l, () => languageBody(site, l));
  const project = (p: Project) => cached(projects, p, () => projectBody(site, p));
  const componentJson = (c: Component) =>
    cached(components, c, () => componentBody(site, c, language(c.sourceLanguage), project(c.project)));
  const component = (c: Component, withProject = true): JsonValue =>
    withProject ? componentJson(c) : componentBody(site, c, language(c.sourceLanguage), null);

  return {
    language,
    project,
    component,
    componentJson,
    translation: (t, withComponent = true) =>
      translationBody(site, t, language(t.language), withComponent ? component(t.component) : null),
    translationStatistics: (t) => translationStatisticsBody(site, t),
    projectStatistics: (p) => ({
      ...statisticsFields(aggregates.project(p), projectHasReview(p)),
      name: p.name,
      url: webUrl(site, webPath.project(p.slug)),
    }),
    languageStatistics: (l) => ({
      // A language has no review setting of its own; Weblate's default counts it as reviewed.
      ...statisticsFields(aggregates.language(l), true),
      name: l.name,
      url: webUrl(site, webPath.language(l.code)),
    }),
    projectLanguages: (p) => projectLanguagesBody(p, aggregates.projectLanguages(p)),
    projectRepository: (p) => ({
      needs_commit: false, needs_merge: false, needs_push: false,
      url: apiUrl(site, apiPath.projectRepository(p.slug)),
    }),
    componentRepository: (c) => componentRepositoryBody(apiUrl(site, apiPath.componentRepository(c.project.slug, c.slug))),
    translationRepository: (t) =>
      componentRepositoryBody(apiUrl(site, apiPath.translationRepository(t.component.project.slug, t.component.slug, t.language.code))),
    lock: (c) => ({ locked: c.locked }),
  };
}

/** Whether percentages of this translation count reviews: the source uses source_review, others translation_review. */
export function translationHasReview(translation: Translation): boolean {
  const project = translation.component.project;
  return translation.isSource ? project.source_review : project.translation_review;
}

/** How Weblate names a language in words: the name, with the code for a language it does not ship. */
export function languageDisplayName(language: Language): string {
  return language.inCatalog ? language.name : `${language.name} (${language.code})`;
}

// --- internal ---

function cached<K>(cache: Map<K, RawJson>, key: K, make: () => JsonValue): RawJson {
  let value = cache.get(key);
  if (!value) cache.set(key, (value = new RawJson(serialize(make()))));
  return value;
}

/** A Language object (spec 1.4.1), exactly as its file holds it. */
export function languageBody(site: Site, l: Language): JsonValue {
  return {
    code: l.code,
    name: l.name,
    plural: { id: l.plural.id, source: l.plural.source, number: l.plural.number, formula: l.plural.formula, type: l.plural.type },
    aliases: l.aliases,
    direction: l.direction,
    population: l.population,
    web_url: webUrl(site, webPath.language(l.code)),
    url: apiUrl(site, apiPath.language(l.code)),
    statistics_url: apiUrl(site, apiPath.languageStatistics(l.code)),
  };
}

function projectBody(site: Site, p: Project): JsonValue {
  return {
    name: p.name,
    slug: p.slug,
    id: p.id,
    web: p.web,
    web_url: webUrl(site, webPath.project(p.slug)),
    url: apiUrl(site, apiPath.project(p.slug)),
    components_list_url: apiUrl(site, apiPath.projectComponents(p.slug)),
    repository_url: apiUrl(site, apiPath.projectRepository(p.slug)),
    statistics_url: apiUrl(site, apiPath.projectStatistics(p.slug)),
    changes_list_url: apiUrl(site, apiPath.projectChanges(p.slug)),
    languages_url: apiUrl(site, apiPath.projectLanguages(p.slug)),
    translation_review: p.translation_review,
    source_review: p.source_review,
    set_language_team: p.set_language_team,
    instructions: p.instructions,
    enable_hooks: p.enable_hooks,
    language_aliases: p.language_aliases,
  };
}

function componentBody(site: Site, c: Component, sourceLanguage: RawJson, project: RawJson | null): JsonValue {
  const s = c.settings;
  const p = c.project.slug;
  // Repository fields of a linked component show the repository it shares (Weblate's LinkedField).
  const repository = c.linkedComponent?.settings ?? s;
  const body: Record<string, JsonValue> = {
    name: c.name,
    slug: c.slug,
    id: c.id,
    source_language: sourceLanguage,
  };
  if (project) body.project = project;
  Object.assign(body, {
    vcs: s.vcs,
    repo: hideCredentials(repository.repo),
    git_export: s.git_export,
    branch: repository.branch,
    push_branch: repository.push_branch,
    filemask: s.filemask,
    template: s.template,
    edit_template: s.edit_template,
    intermediate: s.intermediate,
    new_base: s.new_base,
    file_format: s.file_format,
    license: s.license,
    license_url: c.licenseUrl,
    agreement: s.agreement,
    web_url: webUrl(site, webPath.component(p, c.slug)),
    url: apiUrl(site, apiPath.component(p, c.slug)),
    repository_url: apiUrl(site, apiPath.componentRepository(p, c.slug)),
    translations_url: apiUrl(site, apiPath.componentTranslations(p, c.slug)),
    statistics_url: apiUrl(site, apiPath.componentStatistics(p, c.slug)),
    lock_url: apiUrl(site, apiPath.componentLock(p, c.slug)),
    links_url: apiUrl(site, apiPath.componentLinks(p, c.slug)),
    changes_list_url: apiUrl(site, apiPath.componentChanges(p, c.slug)),
    task_url: null,
    new_lang: s.new_lang,
    language_code_style: s.language_code_style,
    push: hideCredentials(repository.push),
    check_flags: s.check_flags,
    priority: s.priority,
    enforced_checks: s.enforced_checks,
    restricted: s.restricted,
    repoweb: s.repoweb,
    report_source_bugs: s.report_source_bugs,
    merge_style: s.merge_style,
    commit_message: s.commit_message,
    add_message: s.add_message,
    delete_message: s.delete_message,
    merge_message: s.merge_message,
    addon_message: s.addon_message,
    pull_message: s.pull_message,
    allow_translation_propagation: s.allow_translation_propagation,
    manage_units: s.manage_units,
    enable_suggestions: s.enable_suggestions,
    suggestion_voting: s.suggestion_voting,
    suggestion_autoaccept: s.suggestion_autoaccept,
    push_on_commit: s.push_on_commit,
    commit_pending_age: s.commit_pending_age,
    auto_lock_error: s.auto_lock_error,
    language_regex: s.language_regex,
    variant_regex: s.variant_regex,
    addons: [],
    is_glossary: s.is_glossary,
    glossary_color: s.glossary_color,
  });
  return body;
}

function translationBody(site: Site, t: Translation, language: RawJson, component: JsonValue | null): JsonValue {
  const c = t.counters;
  const p = t.component.project.slug;
  const slug = t.component.slug;
  const code = t.language.code;
  const hasReview = translationHasReview(t);
  const body: Record<string, JsonValue> = { language };
  if (component) body.component = component;
  Object.assign(body, {
    language_code: t.languageCode,
    id: t.id,
    filename: t.filename,
    revision: t.revision,
    web_url: webUrl(site, webPath.translation(p, slug, code)),
    share_url: webUrl(site, webPath.share(p, code)),
    translate_url: webUrl(site, webPath.translate(p, slug, code)),
    url: apiUrl(site, apiPath.translation(p, slug, code)),
    is_template: t.isTemplate,
    is_source: t.isSource,
    total: c.total,
    total_words: c.total_words,
    translated: c.translated,
    translated_words: c.translated_words,
    translated_percent: new JsonFloat(percent(c.translated, c.total, !hasReview)),
    fuzzy: c.fuzzy,
    fuzzy_words: c.fuzzy_words,
    fuzzy_percent: new JsonFloat(percent(c.fuzzy, c.total, false)),
    failing_checks: c.failing_checks,
    failing_checks_words: c.failing_checks_words,
    failing_checks_percent: new JsonFloat(percent(c.failing_checks, c.total, false)),
    have_suggestion: c.have_suggestion,
    have_comment: c.have_comment,
    last_change: c.last_change === null ? null : formatTimestamp(c.last_change),
    last_author: t.lastAuthor,
    repository_url: apiUrl(site, apiPath.translationRepository(p, slug, code)),
    file_url: apiUrl(site, apiPath.translationFile(p, slug, code)),
    statistics_url: apiUrl(site, apiPath.translationStatistics(p, slug, code)),
    changes_list_url: apiUrl(site, apiPath.translationChanges(p, slug, code)),
    units_list_url: apiUrl(site, apiPath.translationUnits(p, slug, code)),
  });
  return body;
}

function translationStatisticsBody(site: Site, t: Translation): JsonValue {
  const p = t.component.project.slug;
  return {
    ...statisticsFields(t.counters, translationHasReview(t)),
    code: t.language.code,
    name: t.language.name,
    url: webUrl(site, webPath.translation(p, t.component.slug, t.language.code)),
    translate_url: webUrl(site, webPath.translate(p, t.component.slug, t.language.code)),
  };
}

/** `/api/projects/<p>/languages/`: a bare array of compact per-language entries, by language name. */
function projectLanguagesBody(project: Project, sums: ReadonlyMap<Language, Counters>): JsonValue {
  const hasReview = projectHasReview(project);
  const entries = [...sums].sort(([a], [b]) => compareStrings(a.name, b.name) || compareStrings(a.code, b.code));
  return entries.map(([language, c]) => ({
    language: languageDisplayName(language),
    code: language.code,
    total: c.total,
    translated: c.translated,
    translated_percent: new JsonFloat(percent(c.translated, c.total, !hasReview)),
    total_words: c.total_words,
    translated_words: c.translated_words,
    translated_words_percent: new JsonFloat(percent(c.translated_words, c.total_words, !hasReview)),
    total_chars: c.total_chars,
    translated_chars: c.translated_chars,
    translated_chars_percent: new JsonFloat(percent(c.translated_chars, c.total_chars, !hasReview)),
  }));
}

function componentRepositoryBody(url: string): JsonValue {
  return { needs_commit: false, needs_merge: false, needs_push: false, url, remote_commit: null, status: '', merge_failure: null };
}

/**
 * Weblate hides credentials in repository URLs (HIDE_REPO_CREDENTIALS, on by
 * default): `https://user:secret@host/x` shows as `https://host/x`. URLs
 * without a scheme (`git@host:x`) have no user part in this sense and stay.
 */
export function hideCredentials(url: string): string {
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
