import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../../src/catalog/catalog.ts';
import { mapComponent } from '../../../src/pull/map-component.ts';
import { mapLanguages } from '../../../src/pull/map-languages.ts';
import { inferPageSize, inferPagination, mapInstance } from '../../../src/pull/map.ts';
import type {
  ApiComponent,
  ApiLanguage,
  ApiProject,
  ApiStatistics,
  ApiTranslation,
} from '../../../src/pull/shapes.ts';
import type { PulledInstance, ListObservation, PulledComponent } from '../../../src/pull/walk.ts';
import { COMPONENT_FIELD_DEFAULTS } from '../../../src/model/defaults.ts';

const catalog = loadCatalog();
const SITE = 'https://weblate.example.org';

// --- API objects as a Weblate 4.x server sends them ---

function language(code: string, changes: Partial<ApiLanguage> = {}): ApiLanguage {
  const entry = catalog.get(code);
  const base: ApiLanguage = entry
    ? {
        code,
        name: entry.name,
        plural: { ...entry.plural },
        aliases: [...entry.aliases],
        direction: entry.direction,
        population: entry.population,
      }
    : {
        code,
        name: code,
        plural: { id: 9000, source: 0, number: 2, formula: 'n != 1', type: 1 },
        aliases: [],
        direction: 'ltr',
        population: 0,
      };
  return { ...base, web_url: `${SITE}/languages/${code}/`, ...changes };
}

function project(slug: string, changes: Partial<ApiProject> = {}): ApiProject {
  return {
    name: slug.toUpperCase(),
    slug,
    id: 1,
    web: '',
    web_url: `${SITE}/projects/${slug}/`,
    components_list_url: `${SITE}/api/projects/${slug}/components/`,
    translation_review: false,
    source_review: false,
    set_language_team: true,
    instructions: '',
    enable_hooks: true,
    language_aliases: '',
    ...changes,
  };
}

function component(changes: Partial<ApiComponent> = {}): ApiComponent {
  const api = `${SITE}/api/components/p/app/`;
  return {
    name: 'App',
    slug: 'app',
    id: 10,
    source_language: language('en'),
    web_url: `${SITE}/projects/p/app/`,
    translations_url: `${api}translations/`,
    statistics_url: `${api}statistics/`,
    lock_url: `${api}lock/`,
    links_url: `${api}links/`,
    license_url: null,
    addons: [],
    ...COMPONENT_FIELD_DEFAULTS,
    repo: 'https://git.example.org/app.git',
    filemask: 'po/*.po',
    file_format: 'po',
    ...changes,
  };
}

function translation(code: string, changes: Partial<ApiTranslation> = {}): ApiTranslation {
  return {
    language: language(code),
    language_code: code,
    id: 100,
    filename: `po/${code}.po`,
    revision: '',
    is_source: code === 'en',
    total: 10,
    total_words: 20,
    translated: 0,
    translated_words: 0,
    fuzzy: 0,
    fuzzy_words: 0,
    failing_checks: 0,
    failing_checks_words: 0,
    have_suggestion: 0,
    have_comment: 0,
    last_change: null,
    last_author: null,
    statistics_url: `${SITE}/api/translations/p/app/${code}/statistics/`,
    ...changes,
  };
}

function statistics(code: string, changes: Partial<ApiStatistics> = {}): ApiStatistics {
  return {
    code,
    total_chars: 100,
    translated_chars: 0,
    approved: 0,
    readonly: 0,
    recent_changes: 0,
    ...changes,
  };
}

function pulled(
  c: ApiComponent,
  translations: ApiTranslation[],
  stats: ApiStatistics[],
  extra: Partial<PulledComponent> = {},
): PulledComponent {
  return {
    component: c,
    translations,
    statistics: new Map(stats.map((s) => [s.code, s])),
    locked: false,
    links: [],
    lists: [],
    ...extra,
  };
}

const sourceEn = () =>
  translation('en', { id: 1, filename: '', translated: 10, translated_words: 20 });
const sourceStats = () => statistics('en', { translated_chars: 100, readonly: 10 });

describe('inferPageSize', () => {
  const list = (count: number, firstPageLength: number, next: string | null): ListObservation => ({
    url: 'x',
    count,
    firstPageLength,
    next,
  });
  it.each([
    [
      'the first page of a list that has a next one',
      [list(5, 5, null), list(45, 20, '?page=2')],
      20,
    ],
    [
      'the most common cut when lists disagree',
      [list(45, 20, '?page=2'), list(45, 20, '?page=2'), list(300, 100, '?page=2')],
      20,
    ],
    [
      'the default when no list is cut and none is longer',
      [list(50, 50, null), list(3, 3, null)],
      undefined,
    ],
    [
      'the longest list when none is cut and it is longer than the default',
      [list(75, 75, null)],
      75,
    ],
  ])('takes %s', (_, lists, expected) => {
    expect(inferPageSize(lists)).toBe(expected);
  });
});

describe('inferPagination', () => {
  it.each([
    [`${SITE}/api/languages/?page=2`, 'query'],
    [`${SITE}/api/languages/?format=json&page=2`, 'query'],
    [`${SITE}/api/languages/~page/2/`, 'path'],
  ])('reads %s as %s', (next, expected) => {
    expect(inferPagination([{ url: 'x', count: 3, firstPageLength: 1, next }])).toBe(expected);
  });

  it('cannot tell when no list has a second page', () => {
    expect(
      inferPagination([{ url: 'x', count: 1, firstPageLength: 1, next: null }]),
    ).toBeUndefined();
  });
});

describe('mapComponent', () => {
  it("writes the required fields and only the settings that differ from Weblate's defaults", () => {
    const c = component({
      branch: 'main',
      priority: 80,
      enforced_checks: ['same'],
      edit_template: true,
      license: 'MIT',
      license_url: 'https://spdx.org/licenses/MIT.html',
    });
    const { file } = mapComponent('p', pulled(c, [sourceEn()], [sourceStats()]), new Set(['p']));
    expect(file.path).toBe('projects/p/components/app.yaml');
    expect(Object.keys(file.value)).toEqual([
      'name',
      'id',
      'source_language',
      'repo',
      'branch',
      'filemask',
      'file_format',
      'license',
      'priority',
      'enforced_checks',
      'source',
      'translations',
    ]);
  });

  it('writes license_url only when it is not the SPDX page of the license', () => {
    const own = mapComponent(
      'p',
      pulled(component({ license: 'MIT', license_url: 'https://example.org/mit' }), [], []),
      new Set(),
    );
    expect(own.file.value.license_url).toBe('https://example.org/mit');
    const none = mapComponent(
      'p',
      pulled(component({ license: 'MIT', license_url: null }), [], []),
      new Set(),
    );
    expect(none.file.value.license_url).toBeNull();
  });

  it('compares a glossary with the defaults Weblate gives a glossary', () => {
    const glossary = component({ is_glossary: true, manage_units: true, new_lang: 'none' });
    expect(mapComponent('p', pulled(glossary, [], []), new Set()).file.value).not.toHaveProperty(
      'manage_units',
    );
    const changed = component({ is_glossary: true, manage_units: false, new_lang: 'add' });
    expect(mapComponent('p', pulled(changed, [], []), new Set()).file.value).toMatchObject({
      manage_units: false,
      new_lang: 'add',
    });
  });

  it('writes the source translation explicitly, with the counters only its statistics hold', () => {
    const { file } = mapComponent(
      'p',
      pulled(component(), [sourceEn()], [sourceStats()]),
      new Set(),
    );
    expect(file.value.source).toEqual({ total: 10, total_words: 20, total_chars: 100 });
    expect(file.value.translations).toEqual({
      en: { id: 1, translated: 10, translated_words: 20, translated_chars: 100, readonly: 10 },
    });
  });

  it('writes what a translation does not share with the defaults: file name, language code, totals, counters, change', () => {
    const cs = translation('cs', {
      id: 7,
      filename: 'other/cs.po',
      revision: 'abc',
      translated: 4,
      translated_words: 9,
      fuzzy: 1,
      fuzzy_words: 2,
      failing_checks: 1,
      failing_checks_words: 3,
      have_suggestion: 2,
      have_comment: 1,
      last_change: '2024-05-02T10:20:05.499000Z',
      last_author: 'Jana',
    });
    const pt = translation('pt_BR', {
      id: 8,
      language_code: 'pt-rBR',
      filename: 'po/pt-rBR.po',
      total: 12,
    });
    const stats = [
      sourceStats(),
      statistics('cs', { translated_chars: 40, approved: 2, readonly: 1, recent_changes: 3 }),
      statistics('pt_BR', { total_chars: 90 }),
    ];
    const { file } = mapComponent('p', pulled(component(), [sourceEn(), cs, pt], stats), new Set());
    const entries = file.value.translations as Record<string, Record<string, unknown>>;
    expect(entries.cs).toEqual({
      id: 7,
      filename: 'other/cs.po',
      revision: 'abc',
      translated: 4,
      translated_words: 9,
      translated_chars: 40,
      fuzzy: 1,
      fuzzy_words: 2,
      failing_checks: 1,
      failing_checks_words: 3,
      approved: 2,
      readonly: 1,
      have_suggestion: 2,
      have_comment: 1,
      recent_changes: 3,
      last_change: '2024-05-02T10:20:05.499000Z',
      last_author: 'Jana',
    });
    expect(entries.pt_BR).toEqual({ id: 8, language_code: 'pt-rBR', total: 12, total_chars: 90 });
  });

  it('falls back for repository fields hidden from the caller, guessing the file mask from the file names', () => {
    const hidden = component({ vcs: null, repo: null, branch: null, filemask: null, push: null });
    const translations = [
      sourceEn(),
      translation('cs', { filename: 'locale/cs/LC_MESSAGES/app.po' }),
      translation('de', { filename: 'locale/de/LC_MESSAGES/app.po' }),
    ];
    const mapped = mapComponent('p', pulled(hidden, translations, [sourceStats()]), new Set());
    expect(mapped.hidden).toEqual({
      component: 'p/app',
      fields: ['vcs', 'repo', 'branch', 'filemask', 'push'],
    });
    expect(mapped.file.value).toMatchObject({ repo: '', filemask: 'locale/*/LC_MESSAGES/app.po' });
    expect(mapped.file.value).not.toHaveProperty('vcs');
    expect(mapped.file.value).not.toHaveProperty('branch');
    expect((mapped.file.value.translations as Record<string, object>).cs).not.toHaveProperty(
      'filename',
    );
  });

  it('keeps links to pulled projects, drops the others with a warning, and warns about add-ons', () => {
    const c = component({ addons: [`${SITE}/api/addons/1/`] });
    const mapped = mapComponent(
      'p',
      pulled(c, [], [], { locked: true, links: [project('q'), project('r')] }),
      new Set(['p', 'q']),
    );
    expect(mapped.file.value).toMatchObject({ locked: true, links: ['q'] });
    expect(mapped.warnings).toEqual([
      'p/app is also shared into r, not pulled: that link is left out.',
      'p/app has 1 add-on(s); add-ons are not mirrored (addons is empty).',
    ]);
  });
});

describe('mapLanguages', () => {
  const instance = (languages: ApiLanguage[], used: string[], partial = false): PulledInstance => ({
    apiRoot: `${SITE}/api/`,
    lists: [],
    languages,
    partial,
    date: null,
    warnings: [],
    projects: [
      {
        project: project('p'),
        statistics: null,
        components: [
          pulled(
            component(),
            used.map((code) => translation(code)),
            [],
          ),
        ],
      },
    ],
  });
  const files = (s: PulledInstance) =>
    Object.fromEntries(mapLanguages(s, catalog).files.map((f) => [f.path, f]));

  it('writes nothing for a used language shown as the catalog has it', () => {
    expect(files(instance([language('en'), language('cs')], ['en', 'cs']))).toEqual({});
  });

  it('writes the fields that differ, and the whole plural when any part of it differs', () => {
    const cs = language('cs', {
      population: 10_700_000,
      name: 'Czech',
      plural: { ...catalog.get('cs')!.plural, id: 12 },
    });
    expect(files(instance([language('en'), cs], ['en', 'cs']))['languages/cs.yaml']!.value).toEqual(
      {
        population: 10_700_000,
        plural: { id: 12, number: 3, formula: '(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2', type: 2 },
      },
    );
  });

  it('writes every field of a language the catalog does not know', () => {
    const custom = language('sjn', {
      name: 'Sindarin',
      aliases: ['dev'],
      plural: { id: 901, source: 2, number: 2, formula: 'n != 1', type: 1 },
    });
    expect(
      files(instance([language('en'), custom], ['en', 'sjn']))['languages/sjn.yaml']!.value,
    ).toEqual({
      name: 'Sindarin',
      direction: 'ltr',
      population: 0,
      aliases: ['dev'],
      plural: { id: 901, source: 2, number: 2, formula: 'n != 1', type: 1 },
    });
  });

  it('gives a language published without translations a file, even when it matches the catalog', () => {
    const eo = files(instance([language('en'), language('eo')], ['en']))['languages/eo.yaml']!;
    expect(eo.value).toEqual({});
    expect(eo.comment).toBe('Published without any translation.');
  });

  it('leaves unused languages out of a pull of some projects only', () => {
    expect(files(instance([language('en'), language('eo')], ['en'], true))).toEqual({});
  });
});

describe('mapInstance', () => {
  it('derives site.yaml from the links the server wrote', () => {
    const s: PulledInstance = {
      apiRoot: 'https://l10n.example.org/mirror/api/',
      lists: [
        {
          url: 'x',
          count: 30,
          firstPageLength: 20,
          next: 'https://l10n.example.org/mirror/api/languages/?page=2',
        },
      ],
      languages: [],
      partial: false,
      date: null,
      warnings: [],
      projects: [
        {
          project: project('p', { web_url: 'https://www.example.org/projects/p/' }),
          statistics: null,
          components: [],
        },
      ],
    };
    expect(mapInstance(s, catalog).files[0]).toEqual({
      path: 'site.yaml',
      value: {
        base_url: 'https://l10n.example.org/mirror',
        web_url: 'https://www.example.org',
        page_size: 20,
        pagination: 'query',
        // Translating happens at the instance's web URL (issue 26).
        edit_url: 'https://www.example.org',
      },
    });
  });

  it("writes a project's name, id and the fields that differ from the defaults", () => {
    const s: PulledInstance = {
      apiRoot: `${SITE}/api/`,
      lists: [],
      languages: [],
      partial: false,
      date: null,
      warnings: [],
      projects: [
        {
          project: project('docs', { id: 5, translation_review: true, instructions: 'Be nice.' }),
          statistics: null,
          components: [],
        },
      ],
    };
    expect(mapInstance(s, catalog).files[1]).toEqual({
      path: 'projects/docs/project.yaml',
      value: { name: 'DOCS', id: 5, translation_review: true, instructions: 'Be nice.' },
    });
  });
});
