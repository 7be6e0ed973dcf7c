/**
 * The 2026.8 flavour held against Weblate 2026.8.1's serializers
 * (weblate/api/serializers.py): the fixture "current" is built and every
 * object of each kind, wherever it appears in the tree (detail, list,
 * nested), must have Weblate's keys in Weblate's order, restated here.
 * Then the values the flavour changes, and the raw bytes.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildInMemory, FIXTURES, type MemoryBuild } from './helpers.ts';

/** The API root (`reports` is listed, `tasks` has no list). */
const ROOT = [
  'users',
  'groups',
  'roles',
  'projects',
  'components',
  'translations',
  'memory',
  'languages',
  'component-lists',
  'changes',
  'units',
  'suggestions',
  'screenshots',
  'addons',
  'categories',
  'reports',
];

/** The list envelope. */
const PAGE = ['count', 'next', 'previous', 'results'];

/** LanguageSerializer, and the plural inside it. */
const LANGUAGE = [
  'id',
  'code',
  'name',
  'plural',
  'aliases',
  'direction',
  'population',
  'web_url',
  'url',
  'statistics_url',
];
const PLURAL = ['id', 'source', 'number', 'formula', 'type'];

/** The inheritable settings of projects, components and categories: value, `inherit_`, `effective_`. */
const TRIPLES = (settings: string[]) =>
  settings.flatMap((s) => [s, `inherit_${s}`, `effective_${s}`]);
const MESSAGES = [
  'commit_message',
  'add_message',
  'delete_message',
  'merge_message',
  'addon_message',
  'pull_message',
];

/** ProjectSerializer (69 keys). */
const PROJECT = [
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
  ...TRIPLES([
    'license',
    'agreement',
    'new_lang',
    'language_code_style',
    'secondary_language',
    ...MESSAGES,
  ]),
  'enforced_2fa',
  'machinery_settings',
  'locked',
  'announcements_url',
];

/** ComponentSerializer (92 keys emitted). */
const COMPONENT = [
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
  ...TRIPLES(['license']),
  'license_url',
  'announcements_url',
  ...TRIPLES(['agreement']),
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
  ...TRIPLES(['new_lang', 'language_code_style']),
  'push',
  'check_flags',
  'effective_check_flags',
  'priority',
  'enforced_checks',
  'restricted',
  'repoweb',
  'report_source_bugs',
  'merge_style',
  ...TRIPLES(MESSAGES),
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
  ...TRIPLES(['secondary_language']),
  'variant_regex',
  'addons',
  'is_glossary',
  'glossary_color',
  'category',
  'linked_component',
  'locked',
];

/** TranslationSerializer (33 keys). */
const TRANSLATION = [
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
  'announcements_url',
];

/** CategorySerializer (44 keys). */
const CATEGORY = [
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
  ...TRIPLES([
    'license',
    'agreement',
    'new_lang',
    'language_code_style',
    'secondary_language',
    ...MESSAGES,
  ]),
];

/** StatisticsSerializer: the 33 counters, in its order. */
const COUNTERS = [
  'total',
  'total_words',
  'total_chars',
  'last_change',
  'recent_changes',
  'translated',
  'translated_words',
  'translated_percent',
  'translated_words_percent',
  'translated_chars',
  'translated_chars_percent',
  'fuzzy',
  'fuzzy_percent',
  'fuzzy_words',
  'fuzzy_words_percent',
  'fuzzy_chars',
  'fuzzy_chars_percent',
  'failing',
  'failing_percent',
  'approved',
  'approved_percent',
  'approved_words',
  'approved_words_percent',
  'approved_chars',
  'approved_chars_percent',
  'readonly',
  'readonly_percent',
  'readonly_words',
  'readonly_words_percent',
  'readonly_chars',
  'readonly_chars_percent',
  'suggestions',
  'comments',
];

/** The keys after the counters, per statistics endpoint. */
const LANGUAGE_TRAILER = ['code', 'name', 'url', 'translate_url'];
const NAME_TRAILER = ['name', 'url'];

const without = (keys: string[], key: string) => keys.filter((k) => k !== key);

describe("the 2026.8 flavour against Weblate 2026.8's serializers", () => {
  let built: MemoryBuild;
  /** The body at an API path after `/api/`, as a URL writes it (`guides%252Fmanual`): its file is the path decoded once. */
  const api = (path: string) => {
    const file = `api/${path}${path ? '/' : ''}index.json`.replaceAll('%25', '%');
    const text = built.files.get(file);
    if (text === undefined) throw new Error(`no file ${file}`);
    return JSON.parse(text);
  };
  const everyFile = () =>
    [...built.files]
      // The statistics' CSV files sit beside their JSON.
      .filter(([path]) => path.startsWith('api/') && path.endsWith('.json'))
      .map(([path, text]) => [path, JSON.parse(text)] as const);

  beforeAll(async () => {
    built = await buildInMemory(join(FIXTURES, 'current/content'));
    expect(built.report.errors).toEqual([]);
  });

  it('has the API root keys, and every list the envelope', () => {
    expect(Object.keys(api(''))).toEqual(ROOT);
    const lists = everyFile().filter(
      ([path]) =>
        !/\/(languages|statistics)\/index\.json$/.test(path) || path === 'api/languages/index.json',
    );
    for (const [path, body] of lists.filter(([, body]) => 'results' in body))
      expect(Object.keys(body), path).toEqual(PAGE);
  });

  it('writes every language (detail, list, nested in components and translations) with the language keys', () => {
    const languages = [
      api('languages/cs'),
      ...api('languages').results,
      api('components/app/android').source_language,
    ];
    languages.push(api('translations/app/android/ar').language);
    for (const language of languages) {
      expect(Object.keys(language)).toEqual(LANGUAGE);
      expect(Object.keys(language.plural)).toEqual(PLURAL);
    }
  });

  it('writes every project with the 69 project keys, wherever it appears', () => {
    const projects = [
      api('projects/docs'),
      ...api('projects').results,
      api('components/app/android/links').results[0],
    ];
    projects.push(
      api('components/app/android').project,
      api('translations/app/ios/cs').component.project,
    );
    expect(PROJECT).toHaveLength(69);
    for (const project of projects) expect(Object.keys(project)).toEqual(PROJECT);
  });

  it("writes every component with the 92 component keys, and without project in a project's list", () => {
    expect(COMPONENT).toHaveLength(92);
    const components = [
      api('components/app/android'),
      api('components/docs/guides%252Fmanual'),
      ...api('components').results,
    ];
    components.push(
      api('translations/docs/guides%252Fapi%252Finternals%252Freference/tlh_XX').component,
    );
    for (const component of components) expect(Object.keys(component)).toEqual(COMPONENT);
    for (const component of api('projects/docs/components').results)
      expect(Object.keys(component)).toEqual(without(COMPONENT, 'project'));
  });

  it("writes every translation with the 33 translation keys, and without component in a component's list", () => {
    expect(TRANSLATION).toHaveLength(33);
    for (const translation of [
      api('translations/docs/guides%252Fmanual/cs'),
      ...api('translations').results,
    ]) {
      expect(Object.keys(translation)).toEqual(TRANSLATION);
    }
    for (const translation of api('components/docs/guides%252Fmanual/translations').results) {
      expect(Object.keys(translation)).toEqual(without(TRANSLATION, 'component'));
    }
  });

  it('writes every category with the 44 category keys', () => {
    expect(CATEGORY).toHaveLength(44);
    for (const category of [
      api('categories/5'),
      api('categories/7'),
      ...api('categories').results,
      ...api('projects/docs/categories').results,
    ]) {
      expect(Object.keys(category)).toEqual(CATEGORY);
    }
  });

  it('writes statistics with the 33 counters and the trailing keys of each endpoint', () => {
    expect(Object.keys(api('translations/app/android/cs/statistics'))).toEqual([
      ...COUNTERS,
      ...LANGUAGE_TRAILER,
    ]);
    for (const element of api('components/docs/guides%252Fmanual/statistics').results) {
      expect(Object.keys(element)).toEqual([...COUNTERS, ...LANGUAGE_TRAILER]);
    }
    for (const element of api('projects/docs/languages'))
      expect(Object.keys(element)).toEqual([...COUNTERS, ...LANGUAGE_TRAILER]);
    for (const path of [
      'projects/docs/statistics',
      'languages/cs/statistics',
      'categories/6/statistics',
    ]) {
      expect(Object.keys(api(path)), path).toEqual([...COUNTERS, ...NAME_TRAILER]);
    }
  });

  it('writes the lock for projects and components, and refuses no read it serves', () => {
    expect(api('projects/app/lock')).toEqual({ locked: true });
    expect(api('projects/docs/lock')).toEqual({ locked: false });
    expect(api('components/app/ios/lock')).toEqual({ locked: true });
    expect(built.files.has('api/projects/docs/repository/index.json')).toBe(false);
  });

  it('gives the 2026.8 values: ids, share_url, category paths, plural types, nulls', () => {
    const manual = api('translations/docs/guides%252Fmanual/cs');
    expect(manual.share_url).toBe('https://weblate.example.org/engage/docs/-/cs/');
    expect(manual.web_url).toBe('https://weblate.example.org/projects/docs/guides/manual/cs/');
    expect(manual.url).toBe(
      'https://weblate.example.org/mirror/api/translations/docs/guides%252Fmanual/cs/',
    );
    expect(manual.component.web_url).toBe(
      'https://weblate.example.org/projects/docs/guides/manual/',
    );
    expect(manual.component.category).toBe('https://weblate.example.org/mirror/api/categories/5/');
    expect(manual.language).toMatchObject({ id: 141, code: 'cs', plural: { type: 22 } });
    expect(api('languages/uk').plural.type).toBe(22);
    expect(api('languages/ar').plural.type).toBe(12);
    expect(api('languages/tlh_XX').id).toBe(9001);
    expect(api('categories/7')).toMatchObject({
      slug: 'internals',
      category: 'https://weblate.example.org/mirror/api/categories/6/',
    });
    expect(manual.component).toMatchObject({
      task_url: null,
      linked_component: null,
      secondary_language: null,
    });
    expect(manual.component.project).toMatchObject({
      workspace: null,
      secondary_language: 151,
      effective_secondary_language: 151,
    });
    expect(api('components/app/ios').linked_component).toBe(
      'https://weblate.example.org/mirror/api/components/app/android/',
    );
    expect(api('categories/5/statistics').url).toBe(
      'https://weblate.example.org/projects/docs/guides/',
    );
    expect(api('projects/docs/languages')[0].url).toMatch(
      /^https:\/\/weblate\.example\.org\/projects\/docs\/-\/[a-z_A-Z]+\/$/,
    );
  });

  it('pages component statistics four times as long as other lists (LargePagination), and project languages not at all', () => {
    const translations = api('components/docs/guides%252Fmanual/translations');
    const statistics = api('components/docs/guides%252Fmanual/statistics');
    expect([translations.count, translations.results.length, translations.next !== null]).toEqual([
      3,
      2,
      true,
    ]);
    expect([statistics.count, statistics.results.length, statistics.next]).toEqual([3, 3, null]);
    expect(Array.isArray(api('projects/docs/languages'))).toBe(true);
  });

  it('writes the bytes as Weblate does: compact JSON, floats with a decimal point, timestamps with microseconds and Z', () => {
    const text = built.files.get('api/translations/docs/guides%2Fmanual/cs/statistics/index.json')!;
    expect(text).toMatch(
      /^\{"total":40,"total_words":400,"total_chars":2400,"last_change":"2026-08-03T09:15:42\.123456Z","recent_changes":7,/,
    );
    expect(text).toContain('"translated_percent":75.0,');
    expect(text).toContain('"approved_chars_percent":47.9,"readonly":2,"readonly_percent":5.0,');
    expect(text).toContain('"fuzzy_chars":240,"fuzzy_chars_percent":10.0,');
    expect(
      text.endsWith(
        '"translate_url":"https://weblate.example.org/translate/docs/guides/manual/cs/"}\n',
      ),
    ).toBe(true);
    expect(
      built.files.get('api/translations/docs/guides%2Fmanual/uk/statistics/index.json'),
    ).toContain('"last_change":"2026-08-01T00:00:00Z"');
    expect(built.files.get('api/projects/app/statistics/index.json')).toContain(
      '"last_change":null,',
    );
    for (const [path, text] of built.files)
      if (path.startsWith('api/')) expect(text, path).not.toMatch(/": |", "/);
  });

  it('writes a 404 page in the standardized error body', () => {
    expect(built.files.get('404.html')).toBe(
      '{"type":"client_error","errors":[{"code":"not_found","detail":"Not found.","attr":null}]}\n',
    );
  });
});
