/**
 * The layouts of Weblate's objects, per resource kind and flavour: each kind
 * has one table of its fields (how each value is written and where it comes
 * from), then the order of the fields in each flavour, as Weblate's
 * serializers emit them: the 4 flavour's as Weblate 4.x answers, the 2026.8
 * flavour's as Weblate 2026.8's serializers list them (weblate/api/serializers.py,
 * Meta.fields).
 * A field whose value differs between the flavours says so where it is
 * computed. bodies.ts fills these layouts; output/serialize.ts writes them.
 */
import { hasTrait } from '../model/releases.ts';
import {
  INHERITABLE_SETTINGS,
  type InheritableSetting,
  type WeblateVersion,
} from '../model/defaults.ts';
import {
  percent,
  STATISTICS_COUNTERS,
  STATISTICS_ORDER,
  type Counters,
  type StatisticsSource,
} from '../model/statistics.ts';
import { formatTimestamp } from '../model/timestamps.ts';
import type {
  Category,
  Component,
  Inherited,
  InheritableValues,
  Language,
  Plural,
  Project,
  Settings,
  Translation,
} from '../model/types.ts';
import {
  defineLayout,
  fillLayout,
  type Layout,
  type RawJson,
  type SourcedField,
} from '../output/serialize.ts';
import {
  arrayOf,
  INTEGER,
  MAP,
  NULL,
  nullable,
  objectNamed,
  STRING,
  STRING_OR_NULL,
  type ValueType,
} from '../output/value-types.ts';
import { apiPath, apiUrl, categoryWebPath, componentSegment, webPath, webUrl } from './urls.ts';

type Layouts<S> = Record<WeblateVersion, Layout<S>>;

/** The objects nested in others, by the name api-types/ publishes them under. */
export type NestedObject = 'Plural' | 'Language' | 'Project' | 'Component';
const nested = (name: NestedObject): ValueType => objectNamed(name);
const STRINGS = arrayOf(STRING);

// --- Language (4.x 1.4.1; current 3.1) ---

const PLURAL_FIELDS = {
  id: ['int', (p) => p.id],
  source: ['int', (p) => p.source],
  number: ['int', (p) => p.number],
  formula: ['text', (p) => p.formula],
  type: ['int', (p) => p.type],
} satisfies Record<string, SourcedField<Plural>>;
export const PLURAL = defineLayout(PLURAL_FIELDS, ['id', 'source', 'number', 'formula', 'type']);

interface LanguageSource {
  settings: Settings;
  language: Language;
}

const LANGUAGE_FIELDS = {
  id: ['int', (s) => s.language.id],
  code: ['unescaped', (s) => s.language.code],
  name: ['text', (s) => s.language.name],
  plural: ['json', (s) => fillLayout(PLURAL, s.language.plural), nested('Plural')],
  aliases: ['json', (s) => s.language.aliases, STRINGS],
  direction: ['unescaped', (s) => s.language.direction],
  population: ['int', (s) => s.language.population],
  web_url: ['unescaped', (s) => webUrl(s.settings, webPath.language(s.language.code))],
  url: ['unescaped', (s) => apiUrl(s.settings, apiPath.language(s.language.code))],
  statistics_url: [
    'unescaped',
    (s) => apiUrl(s.settings, apiPath.languageStatistics(s.language.code)),
  ],
} satisfies Record<string, SourcedField<LanguageSource>>;

const LANGUAGE_4 = [
  'code',
  'name',
  'plural',
  'aliases',
  'direction',
  'population',
  'web_url',
  'url',
  'statistics_url',
] as const;

export const LANGUAGE: Layouts<LanguageSource> = {
  '4': defineLayout(LANGUAGE_FIELDS, LANGUAGE_4),
  // 5.0.1 puts the database id first.
  '2026.8': defineLayout(LANGUAGE_FIELDS, ['id', ...LANGUAGE_4]),
};

// --- the inheritable settings (2026.8): each as its own value, its switch and its value in effect ---

/** `<setting>`, `inherit_<setting>` and `effective_<setting>` for each inheritable setting; a language shows as its id. */
type TripleKey =
  InheritableSetting | `inherit_${InheritableSetting}` | `effective_${InheritableSetting}`;

function inheritableFields<S>(of: (source: S) => Inherited): Record<TripleKey, SourcedField<S>> {
  const fields = {} as Record<TripleKey, SourcedField<S>>;
  for (const setting of INHERITABLE_SETTINGS) {
    fields[setting] = settingField(setting, (s: S) => of(s).own);
    fields[`inherit_${setting}`] = ['bool', (s) => of(s).inherit[setting]];
    fields[`effective_${setting}`] = settingField(setting, (s: S) => of(s).effective);
  }
  return fields;
}

/** One inheritable setting's value: a string, or a language's id (or null) for `secondary_language`. */
function settingField<S>(
  setting: InheritableSetting,
  values: (source: S) => InheritableValues,
): SourcedField<S> {
  if (setting === 'secondary_language')
    return ['json', (s) => values(s).secondary_language?.id ?? null, nullable(INTEGER)];
  return ['text', (s) => values(s)[setting]];
}

// --- Project (4.x 1.4.2; current 3.2) ---

interface ProjectSource {
  settings: Settings;
  project: Project;
}

const PROJECT_FIELDS = {
  name: ['text', (s) => s.project.name],
  slug: ['unescaped', (s) => s.project.slug],
  id: ['int', (s) => s.project.id],
  web: ['text', (s) => s.project.web],
  web_url: ['unescaped', (s) => webUrl(s.settings, webPath.project(s.project.slug))],
  url: ['unescaped', (s) => apiUrl(s.settings, apiPath.project(s.project.slug))],
  check_flags: ['text', (s) => s.project.current.check_flags],
  effective_check_flags: ['text', (s) => s.project.inherited.effectiveCheckFlags],
  components_list_url: [
    'unescaped',
    (s) => apiUrl(s.settings, apiPath.projectComponents(s.project.slug)),
  ],
  repository_url: [
    'unescaped',
    (s) => apiUrl(s.settings, apiPath.projectRepository(s.project.slug)),
  ],
  statistics_url: [
    'unescaped',
    (s) => apiUrl(s.settings, apiPath.projectStatistics(s.project.slug)),
  ],
  metrics_url: ['unescaped', (s) => apiUrl(s.settings, apiPath.projectMetrics(s.project.slug))],
  categories_url: [
    'unescaped',
    (s) => apiUrl(s.settings, apiPath.projectCategories(s.project.slug)),
  ],
  changes_list_url: [
    'unescaped',
    (s) => apiUrl(s.settings, apiPath.projectChanges(s.project.slug)),
  ],
  languages_url: ['unescaped', (s) => apiUrl(s.settings, apiPath.projectLanguages(s.project.slug))],
  labels_url: ['unescaped', (s) => apiUrl(s.settings, apiPath.projectLabels(s.project.slug))],
  reports_url: ['unescaped', (s) => apiUrl(s.settings, apiPath.projectReports(s.project.slug))],
  lock_url: ['unescaped', (s) => apiUrl(s.settings, apiPath.projectLock(s.project.slug))],
  translation_review: ['bool', (s) => s.project.translation_review],
  source_review: ['bool', (s) => s.project.source_review],
  set_language_team: ['bool', (s) => s.project.set_language_team],
  commit_policy: ['int', (s) => s.project.current.commit_policy],
  // A snapshot has no workspaces.
  workspace: ['json', () => null, NULL],
  instructions: ['text', (s) => s.project.instructions],
  enable_hooks: ['bool', (s) => s.project.enable_hooks],
  language_aliases: ['text', (s) => s.project.language_aliases],
  access_control: ['int', (s) => s.project.current.access_control],
  public_sharing: ['bool', (s) => s.project.current.public_sharing],
  use_shared_tm: ['bool', (s) => s.project.current.use_shared_tm],
  contribute_shared_tm: ['bool', (s) => s.project.current.contribute_shared_tm],
  use_workspace_tm: ['bool', (s) => s.project.current.use_workspace_tm],
  contribute_workspace_tm: ['bool', (s) => s.project.current.contribute_workspace_tm],
  autoclean_tm: ['bool', (s) => s.project.current.autoclean_tm],
  ...inheritableFields<ProjectSource>((s) => s.project.inherited),
  enforced_2fa: ['bool', (s) => s.project.current.enforced_2fa],
  machinery_settings: [
    'unescaped',
    (s) => apiUrl(s.settings, apiPath.projectMachinerySettings(s.project.slug)),
  ],
  // Weblate: locked when every component is, and there is one.
  locked: ['bool', (s) => projectLocked(s.project)],
  announcements_url: [
    'unescaped',
    (s) => apiUrl(s.settings, apiPath.projectAnnouncements(s.project.slug)),
  ],
} satisfies Record<string, SourcedField<ProjectSource>>;

export const PROJECT: Layouts<ProjectSource> = {
  '4': defineLayout(PROJECT_FIELDS, [
    'name',
    'slug',
    'id',
    'web',
    'web_url',
    'url',
    'components_list_url',
    'repository_url',
    'statistics_url',
    'changes_list_url',
    'languages_url',
    'translation_review',
    'source_review',
    'set_language_team',
    'instructions',
    'enable_hooks',
    'language_aliases',
  ]),
  '2026.8': defineLayout(PROJECT_FIELDS, [
    'name',
    'slug',
    'id',
    'web',
    'web_url',
    'url',
    'check_flags',
    'effective_check_flags',
    'components_list_url',
    'repository_url',
    'statistics_url',
    'metrics_url',
    'categories_url',
    'changes_list_url',
    'languages_url',
    'labels_url',
    'reports_url',
    'lock_url',
    'translation_review',
    'source_review',
    'commit_policy',
    'workspace',
    'instructions',
    'enable_hooks',
    'language_aliases',
    'access_control',
    'public_sharing',
    'use_shared_tm',
    'contribute_shared_tm',
    'use_workspace_tm',
    'contribute_workspace_tm',
    'autoclean_tm',
    ...triples(),
    'enforced_2fa',
    'machinery_settings',
    'locked',
    'announcements_url',
  ]),
};

/** Project.locked in Weblate 2026.8: some component, and every one, is locked. */
export function projectLocked(project: Project): boolean {
  return project.components.length > 0 && project.components.every((component) => component.locked);
}

/** The inheritable settings as their three fields each, in Weblate's order. */
function triples(): TripleKey[] {
  return INHERITABLE_SETTINGS.flatMap((setting): TripleKey[] => [
    setting,
    `inherit_${setting}`,
    `effective_${setting}`,
  ]);
}

// --- Component (4.x 1.4.3; current 3.3) ---

export interface ComponentSource {
  settings: Settings;
  component: Component;
  /** The source language's object and the project's, serialized once per build. */
  sourceLanguage: RawJson;
  project: RawJson | null;
  /** The project's slug, the component's segment in API paths and its path on the web. */
  p: string;
  c: string;
  web: string;
}

/** The component whose repository settings a component shows: the one it shares (`weblate://`), or itself (LinkedField). */
const repository = (s: ComponentSource) => (s.component.linkedComponent ?? s.component).settings;
/** Settings a component sharing a repository shows from the shared one in 2026.8 (Component.LINKED_REPOSITORY_SETTINGS). */
const linkedSetting = <K extends 'push_on_commit' | 'commit_pending_age' | 'auto_lock_error'>(
  s: ComponentSource,
  key: K,
) =>
  (hasTrait(s.settings.weblateVersion, 'sharedRepositorySettings')
    ? repository(s)
    : s.component.settings)[key];
const componentUrl = (path: (p: string, c: string) => string) => (s: ComponentSource) =>
  apiUrl(s.settings, path(s.p, s.c));
/** A message template: 4.x's default or today's when the content leaves it out. */
const message =
  (
    key:
      | 'commit_message'
      | 'add_message'
      | 'delete_message'
      | 'merge_message'
      | 'addon_message'
      | 'pull_message',
  ) =>
  (s: ComponentSource) =>
    hasTrait(s.settings.weblateVersion, 'shapes5')
      ? s.component.inherited.own[key]
      : s.component.settings[key];

const COMPONENT_FIELDS = {
  name: ['text', (s) => s.component.name],
  slug: ['unescaped', (s) => s.component.slug],
  id: ['int', (s) => s.component.id],
  source_language: ['json', (s) => s.sourceLanguage, nested('Language')],
  // Null only where the layout leaves the field out (a project's component list).
  project: ['json', (s) => s.project, nested('Project')],
  vcs: ['text', (s) => s.component.settings.vcs],
  vcs_params: ['json', (s) => jsonbObject(s.component.settings.vcs_params), MAP],
  repo: ['text', (s) => hideCredentials(repository(s).repo)],
  git_export: ['text', (s) => s.component.settings.git_export],
  branch: ['text', (s) => repository(s).branch],
  push_branch: ['text', (s) => repository(s).push_branch],
  filemask: ['text', (s) => s.component.settings.filemask],
  screenshot_filemask: ['text', (s) => s.component.settings.screenshot_filemask],
  template: ['text', (s) => s.component.settings.template],
  edit_template: ['bool', (s) => s.component.settings.edit_template],
  intermediate: ['text', (s) => s.component.settings.intermediate],
  new_base: ['text', (s) => s.component.settings.new_base],
  file_format: ['text', (s) => s.component.settings.file_format],
  file_format_params: ['json', (s) => jsonbObject(s.component.settings.file_format_params), MAP],
  // license, agreement, new_lang, language_code_style and secondary_language: the component's own, with their switches and values in effect.
  ...inheritableFields<ComponentSource>((s) => s.component.inherited),
  // 4.x: the content's, else the SPDX page of the component's license; 2026.8: of the license in effect.
  license_url: [
    'text',
    (s) =>
      hasTrait(s.settings.weblateVersion, 'shapes5')
        ? s.component.licenseUrl2026
        : s.component.licenseUrl,
    STRING_OR_NULL,
  ],
  web_url: ['unescaped', (s) => webUrl(s.settings, webPath.component(s.p, s.web))],
  url: ['unescaped', componentUrl(apiPath.component)],
  repository_url: ['unescaped', componentUrl(apiPath.componentRepository)],
  translations_url: ['unescaped', componentUrl(apiPath.componentTranslations)],
  statistics_url: ['unescaped', componentUrl(apiPath.componentStatistics)],
  lock_url: ['unescaped', componentUrl(apiPath.componentLock)],
  links_url: ['unescaped', componentUrl(apiPath.componentLinks)],
  changes_list_url: ['unescaped', componentUrl(apiPath.componentChanges)],
  // Only while a background task runs.
  task_url: ['unescaped', () => null, STRING_OR_NULL],
  reports_url: ['unescaped', componentUrl(apiPath.componentReports)],
  announcements_url: ['unescaped', componentUrl(apiPath.componentAnnouncements)],
  push: ['text', (s) => hideCredentials(repository(s).push)],
  check_flags: ['text', (s) => s.component.settings.check_flags],
  effective_check_flags: ['text', (s) => s.component.inherited.effectiveCheckFlags],
  priority: ['int', (s) => s.component.settings.priority],
  enforced_checks: ['json', (s) => s.component.settings.enforced_checks, STRINGS],
  restricted: ['bool', (s) => s.component.settings.restricted],
  repoweb: ['text', (s) => s.component.settings.repoweb],
  report_source_bugs: ['text', (s) => s.component.settings.report_source_bugs],
  merge_style: ['text', (s) => s.component.settings.merge_style],
  commit_message: ['text', message('commit_message')],
  add_message: ['text', message('add_message')],
  delete_message: ['text', message('delete_message')],
  merge_message: ['text', message('merge_message')],
  addon_message: ['text', message('addon_message')],
  pull_message: ['text', message('pull_message')],
  allow_translation_propagation: [
    'bool',
    (s) => s.component.settings.allow_translation_propagation,
  ],
  hide_glossary_matches: ['bool', (s) => s.component.settings.hide_glossary_matches],
  contribute_project_tm: ['bool', (s) => s.component.settings.contribute_project_tm],
  manage_units: ['bool', (s) => s.component.settings.manage_units],
  enable_suggestions: ['bool', (s) => s.component.settings.enable_suggestions],
  suggestion_voting: ['bool', (s) => s.component.settings.suggestion_voting],
  suggestion_autoaccept: ['int', (s) => s.component.settings.suggestion_autoaccept],
  push_on_commit: ['bool', (s) => linkedSetting(s, 'push_on_commit')],
  commit_pending_age: ['int', (s) => linkedSetting(s, 'commit_pending_age')],
  auto_lock_error: ['bool', (s) => linkedSetting(s, 'auto_lock_error')],
  language_regex: ['text', (s) => s.component.settings.language_regex],
  key_filter: ['text', (s) => s.component.settings.key_filter],
  variant_regex: ['text', (s) => s.component.settings.variant_regex],
  // Add-ons are not part of a snapshot.
  addons: ['json', () => [], STRINGS],
  is_glossary: ['bool', (s) => s.component.settings.is_glossary],
  glossary_color: ['text', (s) => s.component.settings.glossary_color],
  category: [
    'unescaped',
    (s) =>
      s.component.category ? apiUrl(s.settings, apiPath.category(s.component.category.id)) : null,
    STRING_OR_NULL,
  ],
  linked_component: ['unescaped', (s) => linkedComponentUrl(s), STRING_OR_NULL],
  locked: ['bool', (s) => s.component.locked],
} satisfies Record<string, SourcedField<ComponentSource>>;

const COMPONENT_ORDER: Record<WeblateVersion, readonly (keyof typeof COMPONENT_FIELDS)[]> = {
  '4': [
    'name',
    'slug',
    'id',
    'source_language',
    'project',
    'vcs',
    'repo',
    'git_export',
    'branch',
    'push_branch',
    'filemask',
    'template',
    'edit_template',
    'intermediate',
    'new_base',
    'file_format',
    'license',
    'license_url',
    'agreement',
    'web_url',
    'url',
    'repository_url',
    'translations_url',
    'statistics_url',
    'lock_url',
    'links_url',
    'changes_list_url',
    'task_url',
    'new_lang',
    'language_code_style',
    'push',
    'check_flags',
    'priority',
    'enforced_checks',
    'restricted',
    'repoweb',
    'report_source_bugs',
    'merge_style',
    'commit_message',
    'add_message',
    'delete_message',
    'merge_message',
    'addon_message',
    'pull_message',
    'allow_translation_propagation',
    'manage_units',
    'enable_suggestions',
    'suggestion_voting',
    'suggestion_autoaccept',
    'push_on_commit',
    'commit_pending_age',
    'auto_lock_error',
    'language_regex',
    'variant_regex',
    'addons',
    'is_glossary',
    'glossary_color',
  ],
  '2026.8': [
    'name',
    'slug',
    'id',
    'source_language',
    'project',
    'vcs',
    'vcs_params',
    'repo',
    'git_export',
    'branch',
    'push_branch',
    'filemask',
    'screenshot_filemask',
    'template',
    'edit_template',
    'intermediate',
    'new_base',
    'file_format',
    'file_format_params',
    'license',
    'inherit_license',
    'effective_license',
    'license_url',
    'announcements_url',
    'agreement',
    'inherit_agreement',
    'effective_agreement',
    'web_url',
    'url',
    'repository_url',
    'translations_url',
    'statistics_url',
    'lock_url',
    'links_url',
    'changes_list_url',
    'task_url',
    'reports_url',
    'new_lang',
    'inherit_new_lang',
    'effective_new_lang',
    'language_code_style',
    'inherit_language_code_style',
    'effective_language_code_style',
    'push',
    'check_flags',
    'effective_check_flags',
    'priority',
    'enforced_checks',
    'restricted',
    'repoweb',
    'report_source_bugs',
    'merge_style',
    'commit_message',
    'inherit_commit_message',
    'effective_commit_message',
    'add_message',
    'inherit_add_message',
    'effective_add_message',
    'delete_message',
    'inherit_delete_message',
    'effective_delete_message',
    'merge_message',
    'inherit_merge_message',
    'effective_merge_message',
    'addon_message',
    'inherit_addon_message',
    'effective_addon_message',
    'pull_message',
    'inherit_pull_message',
    'effective_pull_message',
    'allow_translation_propagation',
    'hide_glossary_matches',
    'contribute_project_tm',
    'manage_units',
    'enable_suggestions',
    'suggestion_voting',
    'suggestion_autoaccept',
    'push_on_commit',
    'commit_pending_age',
    'auto_lock_error',
    'language_regex',
    'key_filter',
    'secondary_language',
    'inherit_secondary_language',
    'effective_secondary_language',
    'variant_regex',
    'addons',
    'is_glossary',
    'glossary_color',
    'category',
    'linked_component',
    'locked',
  ],
};

/** A component, and (in a project's component list) a component without its project. */
export const COMPONENT = layoutsWithout(COMPONENT_FIELDS, COMPONENT_ORDER, null);
export const COMPONENT_WITHOUT_PROJECT = layoutsWithout(
  COMPONENT_FIELDS,
  COMPONENT_ORDER,
  'project',
);

function linkedComponentUrl(s: ComponentSource): string | null {
  const linked = s.component.linkedComponent;
  return linked
    ? apiUrl(s.settings, apiPath.component(linked.project.slug, componentSegment(linked)))
    : null;
}

// --- Translation (4.x 1.4.4; current 3.4) ---

export interface TranslationSource {
  settings: Settings;
  translation: Translation;
  /** The translation's counters, read once: each read of a packed translation's makes a view. */
  counters: Counters;
  language: RawJson;
  component: RawJson | null;
  /** Whether percentages count reviews (the source translation uses source_review, others translation_review). */
  review: boolean;
  p: string;
  c: string;
  web: string;
}

const translationUrl =
  (path: (p: string, c: string, l: string) => string) => (s: TranslationSource) =>
    apiUrl(s.settings, path(s.p, s.c, s.translation.language.code));
const counter = (key: Exclude<keyof Counters, 'last_change'>) => (s: TranslationSource) =>
  s.counters[key];

const TRANSLATION_FIELDS = {
  language: ['json', (s) => s.language, nested('Language')],
  // Null only where the layout leaves the field out (a component's translation list).
  component: ['json', (s) => s.component, nested('Component')],
  language_code: ['text', (s) => s.translation.languageCode],
  id: ['int', (s) => s.translation.id],
  filename: ['text', (s) => s.translation.filename],
  revision: ['text', (s) => s.translation.revision],
  web_url: [
    'unescaped',
    (s) => webUrl(s.settings, webPath.translation(s.p, s.web, s.translation.language.code)),
  ],
  share_url: [
    'unescaped',
    (s) =>
      webUrl(
        s.settings,
        (hasTrait(s.settings.weblateVersion, 'shapes5') ? webPath.share2026 : webPath.share)(
          s.p,
          s.translation.language.code,
        ),
      ),
  ],
  translate_url: [
    'unescaped',
    (s) => webUrl(s.settings, webPath.translate(s.p, s.web, s.translation.language.code)),
  ],
  url: ['unescaped', translationUrl(apiPath.translation)],
  is_template: ['bool', (s) => s.translation.isTemplate],
  is_source: ['bool', (s) => s.translation.isSource],
  total: ['int', counter('total')],
  total_words: ['int', counter('total_words')],
  translated: ['int', counter('translated')],
  translated_words: ['int', counter('translated_words')],
  translated_percent: ['float', (s) => percent(s.counters.translated, s.counters.total, !s.review)],
  fuzzy: ['int', counter('fuzzy')],
  fuzzy_words: ['int', counter('fuzzy_words')],
  fuzzy_percent: ['float', (s) => percent(s.counters.fuzzy, s.counters.total, false)],
  failing_checks: ['int', counter('failing_checks')],
  failing_checks_words: ['int', counter('failing_checks_words')],
  failing_checks_percent: [
    'float',
    (s) => percent(s.counters.failing_checks, s.counters.total, false),
  ],
  have_suggestion: ['int', counter('have_suggestion')],
  have_comment: ['int', counter('have_comment')],
  last_change: [
    'text',
    (s) => (s.counters.last_change === null ? null : formatTimestamp(s.counters.last_change)),
    STRING_OR_NULL,
  ],
  last_author: ['text', (s) => s.translation.lastAuthor, STRING_OR_NULL],
  repository_url: ['unescaped', translationUrl(apiPath.translationRepository)],
  file_url: ['unescaped', translationUrl(apiPath.translationFile)],
  statistics_url: ['unescaped', translationUrl(apiPath.translationStatistics)],
  changes_list_url: ['unescaped', translationUrl(apiPath.translationChanges)],
  units_list_url: ['unescaped', translationUrl(apiPath.translationUnits)],
  announcements_url: ['unescaped', translationUrl(apiPath.translationAnnouncements)],
} satisfies Record<string, SourcedField<TranslationSource>>;

const TRANSLATION_4 = [
  'language',
  'component',
  'language_code',
  'id',
  'filename',
  'revision',
  'web_url',
  'share_url',
  'translate_url',
  'url',
  'is_template',
  'is_source',
  'total',
  'total_words',
  'translated',
  'translated_words',
  'translated_percent',
  'fuzzy',
  'fuzzy_words',
  'fuzzy_percent',
  'failing_checks',
  'failing_checks_words',
  'failing_checks_percent',
  'have_suggestion',
  'have_comment',
  'last_change',
  'last_author',
  'repository_url',
  'file_url',
  'statistics_url',
  'changes_list_url',
  'units_list_url',
] as const;

const TRANSLATION_ORDER: Record<WeblateVersion, readonly (keyof typeof TRANSLATION_FIELDS)[]> = {
  '4': TRANSLATION_4,
  // 2026.x adds the announcements.
  '2026.8': [...TRANSLATION_4, 'announcements_url'],
};

/** A translation, and (in a component's translation list) a translation without its component. */
export const TRANSLATION = layoutsWithout(TRANSLATION_FIELDS, TRANSLATION_ORDER, null);
export const TRANSLATION_WITHOUT_COMPONENT = layoutsWithout(
  TRANSLATION_FIELDS,
  TRANSLATION_ORDER,
  'component',
);

// --- Statistics (4.x section 3; current 4.1 and 4.2): the counters, then what names the object ---

interface NamedStatisticsSource extends StatisticsSource {
  /** The language's code (translations and a project's languages). */
  code: string;
  name: string;
  url: string;
  translateUrl: string;
}

const TRAILING_FIELDS = {
  code: ['unescaped', (s) => s.code],
  name: ['text', (s) => s.name],
  url: ['unescaped', (s) => s.url],
  translate_url: ['unescaped', (s) => s.translateUrl],
} satisfies Record<string, SourcedField<NamedStatisticsSource>>;
const STATISTICS_FIELDS: Record<string, SourcedField<NamedStatisticsSource>> = {
  ...STATISTICS_COUNTERS,
  ...TRAILING_FIELDS,
};

/** Statistics of a translation (and an element of a component's statistics, or of a project's languages in 2026.8). */
export const TRANSLATION_STATISTICS = statisticsLayouts(['code', 'name', 'url', 'translate_url']);
/** Statistics of a project, a language or a category: their name and web page. */
export const NAMED_STATISTICS = statisticsLayouts(['name', 'url']);

function statisticsLayouts(
  trailing: readonly (keyof typeof TRAILING_FIELDS)[],
): Layouts<NamedStatisticsSource> {
  return {
    '4': defineLayout(STATISTICS_FIELDS, [...STATISTICS_ORDER['4'], ...trailing]),
    '2026.8': defineLayout(STATISTICS_FIELDS, [...STATISTICS_ORDER['2026.8'], ...trailing]),
  };
}

/** An element of a project's languages in 4.x: a compact summary of its own (a bare array, no envelope). */
export const PROJECT_LANGUAGE_4 = defineLayout(
  {
    language: ['text', (s) => s.name],
    code: ['unescaped', (s) => s.code],
    total: ['int', (s) => s.counters.total],
    translated: ['int', (s) => s.counters.translated],
    translated_percent: [
      'float',
      (s) => percent(s.counters.translated, s.counters.total, !s.review),
    ],
    total_words: ['int', (s) => s.counters.total_words],
    translated_words: ['int', (s) => s.counters.translated_words],
    translated_words_percent: [
      'float',
      (s) => percent(s.counters.translated_words, s.counters.total_words, !s.review),
    ],
    total_chars: ['int', (s) => s.counters.total_chars],
    translated_chars: ['int', (s) => s.counters.translated_chars],
    translated_chars_percent: [
      'float',
      (s) => percent(s.counters.translated_chars, s.counters.total_chars, !s.review),
    ],
  } satisfies Record<string, SourcedField<NamedStatisticsSource>>,
  [
    'language',
    'code',
    'total',
    'translated',
    'translated_percent',
    'total_words',
    'translated_words',
    'translated_words_percent',
    'total_chars',
    'translated_chars',
    'translated_chars_percent',
  ],
);

// --- Category (current 3.5; 2026.8 only) ---

interface CategorySource {
  settings: Settings;
  category: Category;
}

const CATEGORY_FIELDS = {
  id: ['int', (s) => s.category.id],
  name: ['text', (s) => s.category.name],
  slug: ['unescaped', (s) => s.category.slug],
  project: ['unescaped', (s) => apiUrl(s.settings, apiPath.project(s.category.project.slug))],
  category: [
    'unescaped',
    (s) => (s.category.parent ? apiUrl(s.settings, apiPath.category(s.category.parent.id)) : null),
    STRING_OR_NULL,
  ],
  url: ['unescaped', (s) => apiUrl(s.settings, apiPath.category(s.category.id))],
  statistics_url: [
    'unescaped',
    (s) => apiUrl(s.settings, apiPath.categoryStatistics(s.category.id)),
  ],
  announcements_url: [
    'unescaped',
    (s) => apiUrl(s.settings, apiPath.categoryAnnouncements(s.category.id)),
  ],
  reports_url: ['unescaped', (s) => apiUrl(s.settings, apiPath.categoryReports(s.category.id))],
  check_flags: ['text', (s) => s.category.inherited.checkFlags],
  effective_check_flags: ['text', (s) => s.category.inherited.effectiveCheckFlags],
  ...inheritableFields<CategorySource>((s) => s.category.inherited),
} satisfies Record<string, SourcedField<CategorySource>>;

export const CATEGORY = defineLayout(CATEGORY_FIELDS, [
  'id',
  'name',
  'slug',
  'project',
  'category',
  'url',
  'statistics_url',
  'announcements_url',
  'reports_url',
  'check_flags',
  'effective_check_flags',
  ...triples(),
]);

// --- Repository status and lock (4.x 1.4.8 and 1.4.9; current 3.8) ---

interface RepositorySource {
  /** The status's own API URL. */
  url: string;
}

const REPOSITORY_FIELDS = {
  // A snapshot has nothing to commit, merge or push, and knows no upstream commit, VCS status or merge failure.
  needs_commit: ['bool', () => false],
  needs_merge: ['bool', () => false],
  needs_push: ['bool', () => false],
  url: ['unescaped', (s) => s.url],
  remote_commit: ['json', () => null, NULL],
  status: ['text', () => ''],
  merge_failure: ['json', () => null, NULL],
} satisfies Record<string, SourcedField<RepositorySource>>;

/** A project's repository status (4.x: 2026.8 refuses it to an anonymous reader). */
export const PROJECT_REPOSITORY = defineLayout(REPOSITORY_FIELDS, [
  'needs_commit',
  'needs_merge',
  'needs_push',
  'url',
]);
/** A component's or a translation's repository status (4.x, as above). */
export const REPOSITORY = defineLayout(REPOSITORY_FIELDS, [
  'needs_commit',
  'needs_merge',
  'needs_push',
  'url',
  'remote_commit',
  'status',
  'merge_failure',
]);

/** A component's lock, and (2026.8) a project's. */
export const LOCK = defineLayout(
  { locked: ['bool', (locked: boolean) => locked] } satisfies Record<string, SourcedField<boolean>>,
  ['locked'],
);

/** A category's web page: `/projects/<p>/<its path>/`. */
export function categoryWebUrl(settings: Settings, category: Category): string {
  return webUrl(settings, webPath.category(category.project.slug, categoryWebPath(category)));
}

// --- internal ---

/** The layouts of each flavour's order, without one field (`project`, `component`) or with all (null). */
function layoutsWithout<S, K extends string>(
  fields: Readonly<Record<K, SourcedField<S>>>,
  order: Record<WeblateVersion, readonly K[]>,
  without: K | null,
): Layouts<S> {
  const keep = (keys: readonly K[]) => keys.filter((key) => key !== without);
  return {
    '4': defineLayout(fields, keep(order['4'])),
    '2026.8': defineLayout(fields, keep(order['2026.8'])),
  };
}

/**
 * A JSON field's map as PostgreSQL's jsonb keeps it, which is how Weblate
 * reads it back: keys by length, then by their bytes.
 */
function jsonbObject(value: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const keys = Object.keys(value).sort(
    (a, b) =>
      Buffer.byteLength(a) - Buffer.byteLength(b) || Buffer.compare(Buffer.from(a), Buffer.from(b)),
  );
  return Object.fromEntries(keys.map((key) => [key, value[key]]));
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
