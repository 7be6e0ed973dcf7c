/**
 * Weblate's defaults: the value each project and component setting, and each
 * site setting, takes when the content leaves it out. Facts about Weblate,
 * read by the content schema (which keys exist), the model (their types),
 * the resolver (filling them in) and pull (leaving out what equals them).
 */

/** The Weblate versions whose API a snapshot can speak (`weblate_version`, `--weblate-version`). */
export const WEBLATE_VERSIONS = ['4'] as const;
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
