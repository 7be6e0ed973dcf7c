/**
 * Weblate's defaults: the value each project and component setting, and each
 * of the settings (site.yaml), takes when the content leaves it out. Facts about Weblate,
 * read by the content schema (which keys exist), the model (their types),
 * the resolver (filling them in) and pull (leaving out what equals them).
 */

/**
 * The two families of object shapes a release is served in (model/releases.ts shapesOf):
 * Weblate 4.x's (`4`) and today's (`2026.8`). docs/flavours.md compares them.
 */
export const WEBLATE_VERSIONS = ['4', '2026.8'] as const;
export type WeblateVersion = (typeof WEBLATE_VERSIONS)[number];

/** What site.yaml fields take when left out (`base_url` has no default; `pages` follows `web_url`). */
export const SITE_DEFAULTS = { page_size: 50, pagination: 'path', weblate_version: '4' } as const;

/** Weblate's defaults for the project fields content may leave out. */
export const PROJECT_FIELD_DEFAULTS = {
  web: '',
  translation_review: false,
  source_review: false,
  set_language_team: true,
  instructions: '',
  enable_hooks: true,
  language_aliases: '',
} as const;

/**
 * Every field of Weblate 4.x's Component object that content may set, with
 * the value Weblate gives it when omitted. `null` marks a required field.
 */
export const COMPONENT_FIELD_DEFAULTS = {
  vcs: 'git',
  repo: null,
  git_export: '',
  branch: '',
  push_branch: '',
  filemask: null,
  template: '',
  edit_template: true,
  intermediate: '',
  new_base: '',
  file_format: null,
  license: '',
  agreement: '',
  new_lang: 'add',
  language_code_style: '',
  push: '',
  check_flags: '',
  priority: 100,
  enforced_checks: [] as string[],
  restricted: false,
  repoweb: '',
  report_source_bugs: '',
  merge_style: 'rebase',
  commit_message:
    'Translated using Weblate ({{ language_name }})\n\n' +
    'Currently translated at {{ stats.translated_percent }}% ({{ stats.translated }} of {{ stats.all }} strings)\n\n' +
    'Translation: {{ project_name }}/{{ component_name }}\nTranslate-URL: {{ url }}',
  add_message: 'Added translation using Weblate ({{ language_name }})\n\n',
  delete_message: 'Deleted translation using Weblate ({{ language_name }})\n\n',
  merge_message: "Merge branch '{{ component_remote_branch }}' into Weblate.\n\n",
  addon_message:
    'Update translation files\n\nUpdated by "{{ addon_name }}" add-on in Weblate.\n\n' +
    'Translation: {{ project_name }}/{{ component_name }}\nTranslate-URL: {{ url }}',
  pull_message:
    'Translations update from {{ site_title }}\n\n' +
    'Translations update from [{{ site_title }}]({{ site_url }}) for [{{ project_name }}/{{ component_name }}]({{url}}).\n\n' +
    '{% if component_linked_childs %}\nIt also includes following components:\n' +
    '{% for linked in component_linked_childs %}\n* [{{ linked.project_name }}/{{ linked.name }}]({{ linked.url }})\n' +
    '{% endfor %}\n{% endif %}\n\nCurrent translation status:\n\n![Weblate translation status]({{widget_url}})\n',
  allow_translation_propagation: true,
  manage_units: false,
  enable_suggestions: true,
  suggestion_voting: false,
  suggestion_autoaccept: 0,
  push_on_commit: true,
  commit_pending_age: 24,
  auto_lock_error: true,
  language_regex: '^[^.]+$',
  variant_regex: '',
  is_glossary: false,
  glossary_color: 'silver',
} as const;

/** Defaults that differ for a glossary: Weblate creates one with string management on and adding languages off. */
export const GLOSSARY_FIELD_DEFAULTS = { manage_units: true, new_lang: 'none' } as const;

/**
 * The settings a category and a component take from their parent (category,
 * then project) while `inherit_<setting>` is on: Weblate 2026.8's
 * INHERITABLE_COMPONENT_SETTINGS (trans/inherited_settings.py), in its order.
 */
export const INHERITABLE_SETTINGS = [
  'license',
  'agreement',
  'new_lang',
  'language_code_style',
  'secondary_language',
  'commit_message',
  'add_message',
  'delete_message',
  'merge_message',
  'addon_message',
  'pull_message',
] as const;
export type InheritableSetting = (typeof INHERITABLE_SETTINGS)[number];

/** The message templates of Weblate 2026.8 (trans/defaults.py: Conventional Commits since 2026.7). */
const MESSAGE_DEFAULTS_2026 = {
  commit_message:
    'chore(l10n): update {{ language_name }} translation\n\n' +
    'Translation: {{ project_name }}/{{ component_name }}\nLanguage: {{ language_name }}\n' +
    'Progress: {{ stats.translated_percent }}% ({{ stats.translated }} of {{ stats.all }} strings)\nTranslate-URL: {{ url }}',
  add_message:
    'chore(l10n): add {{ language_name }} translation\n\n' +
    'Translation: {{ project_name }}/{{ component_name }}\nLanguage: {{ language_name }}\nTranslate-URL: {{ url }}',
  delete_message:
    'chore(l10n): remove {{ language_name }} translation\n\n' +
    'Translation: {{ project_name }}/{{ component_name }}\nLanguage: {{ language_name }}\nTranslate-URL: {{ url }}',
  merge_message:
    'chore(l10n): merge remote changes\n\n' +
    'Translation: {{ project_name }}/{{ component_name }}\nRemote-Branch: {{ component_remote_branch }}\nTranslate-URL: {{ url }}',
  addon_message:
    'chore(l10n): update translation files\n\n' +
    'Add-on: {{ addon_name }}\nTranslation: {{ project_name }}/{{ component_name }}\nTranslate-URL: {{ url }}',
  pull_message:
    'chore(l10n): update translations\n\n' +
    'Translations updated in [{{ site_title }}]({{ site_url }}) for [{{ project_name }}/{{ component_name }}]({{ url }}).\n\n' +
    '{% if component_linked_children %}\nIncluded components:\n{% for linked in component_linked_children %}\n' +
    '* [{{ linked.project_name }}/{{ linked.name }}]({{ linked.url }})\n{% endfor %}\n{% endif %}\n\n' +
    'Translation status:\n\n![Weblate translation status]({{widget_url}})\n',
} as const;

/** The own values of the inheritable settings when content leaves them out, in 2026.8 (`secondary_language`: none). */
export const INHERITABLE_DEFAULTS_2026 = {
  license: '',
  agreement: '',
  new_lang: 'add',
  language_code_style: '',
  secondary_language: null,
  ...MESSAGE_DEFAULTS_2026,
} as const satisfies Record<InheritableSetting, string | null>;

/**
 * Project settings only the 2026.8 flavour has, with Weblate 2026.8's model
 * defaults (trans/models/project.py). The inheritable settings and their
 * `inherit_*` switches come on top (a project inherits from a workspace, which
 * a snapshot never has, so a project's switches are off unless the content
 * turns them on, as the API's create leaves them).
 */
export const PROJECT_FIELD_DEFAULTS_2026 = {
  check_flags: '',
  commit_policy: 0,
  access_control: 0,
  public_sharing: false,
  use_shared_tm: true,
  contribute_shared_tm: true,
  use_workspace_tm: false,
  contribute_workspace_tm: false,
  autoclean_tm: false,
  enforced_2fa: false,
} as const;

/**
 * Component settings only the 2026.8 flavour has, with their defaults
 * (trans/models/component.py). `secondary_language` and `category` name a
 * language code and a category slug in content.
 */
export const COMPONENT_FIELD_DEFAULTS_2026 = {
  vcs_params: {} as Record<string, unknown>,
  screenshot_filemask: '',
  file_format_params: {} as Record<string, unknown>,
  hide_glossary_matches: false,
  contribute_project_tm: true,
  key_filter: '',
} as const;

/** Settings content may give in one flavour only, by the kind of file; each is an error in the other. */
export const FLAVOUR_ONLY_FIELDS: Record<
  'project' | 'component' | 'language',
  Record<WeblateVersion, readonly string[]>
> = {
  project: {
    '4': ['set_language_team'],
    '2026.8': [
      ...Object.keys(PROJECT_FIELD_DEFAULTS_2026),
      ...INHERITABLE_SETTINGS,
      ...INHERITABLE_SETTINGS.map((name) => `inherit_${name}`),
    ],
  },
  component: {
    '4': [],
    '2026.8': [
      ...Object.keys(COMPONENT_FIELD_DEFAULTS_2026),
      'secondary_language',
      'category',
      ...INHERITABLE_SETTINGS.map((name) => `inherit_${name}`),
    ],
  },
  language: { '4': [], '2026.8': ['id'] },
};
