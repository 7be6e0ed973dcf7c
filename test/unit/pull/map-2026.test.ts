import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../../src/catalog/catalog.ts';
import { INHERITABLE_DEFAULTS_2026 } from '../../../src/model/defaults.ts';
import { PullError } from '../../../src/pull/errors.ts';
import { mapComponent } from '../../../src/pull/map-component.ts';
import {
  componentSlugOf,
  mapCategories,
  map2026Project,
  refuseSharedSlugs,
  type Flavour2026Context,
} from '../../../src/pull/map-2026.ts';
import { mapLanguages } from '../../../src/pull/map-languages.ts';
import { inferPageSize } from '../../../src/pull/map.ts';
import type {
  ApiCategory,
  ApiComponent,
  ApiLanguage,
  ApiProject,
} from '../../../src/pull/shapes.ts';
import type { PulledInstance } from '../../../src/pull/walk.ts';

const catalog = loadCatalog();
const API = 'https://weblate.example.org/api';

/** A context over languages `de` (id 7) and the categories `guides` (5) and `api` (6). */
function context(pulled = ['docs']): Flavour2026Context {
  const codes = new Map([[7, 'de']]);
  const slugs = new Map([
    [`${API}/categories/5/`, 'guides'],
    [`${API}/categories/6/`, 'api'],
  ]);
  return {
    languageCode: (id) => codes.get(id) ?? null,
    categorySlug: (url) => slugs.get(url) ?? null,
    pulledProjects: new Set(pulled),
    warnings: [],
  };
}

/** The inheritable settings as today's Weblate shows an object that sets none of them, its switches as given. */
function triples(inherit: boolean): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [setting, value] of Object.entries(INHERITABLE_DEFAULTS_2026)) {
    fields[setting] = value;
    fields[`inherit_${setting}`] = inherit;
    fields[`effective_${setting}`] = value;
  }
  return fields;
}

function category(
  id: number,
  slug: string,
  parent: number | null,
  changes: Record<string, unknown> = {},
): ApiCategory {
  return {
    id,
    name: slug.toUpperCase(),
    slug,
    project: `${API}/projects/docs/`,
    category: parent === null ? null : `${API}/categories/${parent}/`,
    url: `${API}/categories/${id}/`,
    check_flags: '',
    ...triples(true),
    ...changes,
  };
}

function project(changes: Record<string, unknown> = {}): ApiProject {
  return {
    name: 'Docs',
    slug: 'docs',
    id: 1,
    web: '',
    web_url: 'https://weblate.example.org/projects/docs/',
    components_list_url: `${API}/projects/docs/components/`,
    categories_url: `${API}/projects/docs/categories/`,
    translation_review: false,
    source_review: false,
    instructions: '',
    enable_hooks: true,
    language_aliases: '',
    check_flags: '',
    commit_policy: 0,
    access_control: 0,
    workspace: null,
    ...triples(false),
    ...changes,
  };
}

function language(code: string, changes: Partial<ApiLanguage> = {}): ApiLanguage {
  const entry = catalog.get(code)!;
  const plural = { ...entry.plural, type: entry.typeCurrent };
  return {
    id: entry.id,
    code,
    name: entry.name,
    plural,
    aliases: [...entry.aliasesCurrent],
    direction: entry.direction,
    population: entry.population,
    ...changes,
  };
}

function component(segment: string, changes: Record<string, unknown> = {}): ApiComponent {
  const api = `${API}/components/docs/${segment}/`;
  return {
    name: 'Manual',
    slug: componentSlugOf(segment),
    id: 20,
    source_language: language('en'),
    web_url: 'https://weblate.example.org/projects/docs/manual/',
    translations_url: `${api}translations/`,
    statistics_url: `${api}statistics/`,
    lock_url: `${api}lock/`,
    links_url: `${api}links/`,
    license_url: null,
    addons: [],
    vcs: 'git',
    repo: 'https://git.example.org/docs.git',
    filemask: 'po/*.po',
    file_format: 'po',
    ...triples(true),
    effective_license: '',
    category: null,
    linked_component: null,
    locked: false,
    ...changes,
  };
}

const pulled = (c: ApiComponent) => ({
  component: c,
  translations: [],
  statistics: new Map(),
  locked: false,
  links: [],
  lists: [],
});

describe('mapCategories', () => {
  it('writes each category with its parent by slug, its own settings, and only the switches its file does not imply', () => {
    const files = mapCategories(
      'docs',
      [
        category(6, 'api', 5, { inherit_commit_message: false }),
        category(5, 'guides', null, {
          license: 'CC-BY-4.0',
          inherit_license: false,
          check_flags: 'strict-same',
        }),
        category(7, 'internals', 6, { license: 'MIT', inherit_license: true }),
      ],
      context(),
    );
    expect(files).toEqual([
      {
        path: 'projects/docs/categories/api.yaml',
        value: { name: 'API', id: 6, parent: 'guides', inherit_commit_message: false },
      },
      {
        path: 'projects/docs/categories/guides.yaml',
        value: { name: 'GUIDES', id: 5, check_flags: 'strict-same', license: 'CC-BY-4.0' },
      },
      {
        path: 'projects/docs/categories/internals.yaml',
        value: { name: 'INTERNALS', id: 7, parent: 'api', license: 'MIT', inherit_license: true },
      },
    ]);
  });

  it('writes a secondary language by its code, and warns of one whose id no language read has', () => {
    const c = context();
    const [known, unknown] = mapCategories(
      'docs',
      [
        category(5, 'a', null, { secondary_language: 7 }),
        category(6, 'b', null, { secondary_language: 99 }),
      ],
      c,
    );
    expect(known!.value).toMatchObject({ secondary_language: 'de' });
    expect(unknown!.value).not.toHaveProperty('secondary_language');
    expect(c.warnings).toEqual([
      'docs/b has a secondary language (id 99) that no language read has; it is left out.',
    ]);
  });

  it('refuses two categories of a project with one slug (Weblate allows it under different parents)', () => {
    expect(() =>
      mapCategories('docs', [category(5, 'intro', null), category(6, 'intro', 5)], context()),
    ).toThrow(PullError);
  });
});

describe('map2026Project', () => {
  it("writes today's settings that differ from their defaults, but never set_language_team", () => {
    const value = map2026Project(
      project({
        set_language_team: false,
        commit_policy: 20,
        license: 'MIT',
        secondary_language: 7,
      }),
      context(),
    );
    expect(value).toEqual({ commit_policy: 20, license: 'MIT', secondary_language: 'de' });
  });

  it('writes the value in effect as its own where the project inherits from a workspace, and warns', () => {
    const c = context();
    const value = map2026Project(
      project({ workspace: 'a-uuid', inherit_license: true, effective_license: 'MIT' }),
      c,
    );
    expect(value).toEqual({ license: 'MIT', inherit_license: true });
    expect(c.warnings).toEqual([
      'docs is in workspace a-uuid; a mirror has no workspaces (workspace is null).',
      'docs inherits license from a workspace, which a mirror does not have: the value in effect is written as its own.',
    ]);
  });
});

describe('mapComponent in the 2026.8 flavour', () => {
  it('places a component in its category, and writes a switch only where it differs from what its file implies', () => {
    const c = component('guides%252Fmanual', {
      category: `${API}/categories/5/`,
      license: 'GPL-3.0-or-later',
      inherit_license: true,
      inherit_new_lang: false,
      effective_license: 'CC-BY-4.0',
      license_url: 'https://spdx.org/licenses/CC-BY-4.0.html',
    });
    const { file } = mapComponent('docs', pulled(c), new Set(['docs']), context());
    expect(file.value).toMatchObject({
      category: 'guides',
      license: 'GPL-3.0-or-later',
      inherit_license: true,
      inherit_new_lang: false,
    });
    expect(file.value).not.toHaveProperty('license_url');
    expect(Object.keys(file.value).slice(0, 4)).toEqual([
      'name',
      'id',
      'category',
      'source_language',
    ]);
  });

  it("compares message templates with today's defaults", () => {
    const own = component('manual', {
      commit_message: 'docs: {{ language_name }}',
      inherit_commit_message: false,
    });
    expect(mapComponent('docs', pulled(own), new Set(), context()).file.value).toMatchObject({
      commit_message: 'docs: {{ language_name }}',
    });
    expect(
      mapComponent('docs', pulled(component('manual')), new Set(), context()).file.value,
    ).not.toHaveProperty('commit_message');
  });

  it("names a shared repository by weblate:// and leaves out the settings it shows of the shared one's", () => {
    const c = component('ios', {
      repo: 'https://git.example.org/app.git',
      branch: 'main',
      push_on_commit: false,
      commit_pending_age: 12,
      linked_component: `${API}/components/app/ui%252Fandroid/`,
      vcs_params: { depth: 1 },
    });
    const { file } = mapComponent(
      'docs',
      pulled(c),
      new Set(['docs', 'app']),
      context(['docs', 'app']),
    );
    expect(file.value).toMatchObject({ repo: 'weblate://app/android', vcs_params: { depth: 1 } });
    for (const key of ['branch', 'push_on_commit', 'commit_pending_age'])
      expect(file.value).not.toHaveProperty(key);
  });

  it('writes the repository settings as its own when the shared one is in a project not pulled, and warns', () => {
    const c = component('ios', {
      branch: 'main',
      linked_component: `${API}/components/app/android/`,
    });
    const mapped = mapComponent('docs', pulled(c), new Set(['docs']), context());
    expect(mapped.file.value).toMatchObject({
      repo: 'https://git.example.org/docs.git',
      branch: 'main',
    });
    expect(mapped.warnings).toEqual([
      `docs/ios shares the repository of ${API}/components/app/android/, not pulled: its settings are written as its own, and linked_component is null.`,
    ]);
  });
});

describe('refuseSharedSlugs', () => {
  it('refuses two components of a project with one slug in different categories, and names them', () => {
    expect(() => refuseSharedSlugs('docs', ['intro', 'guide', 'Intro'], 'components')).toThrow(
      'docs has two components with the slugs "intro" and "Intro" (Weblate allows it in different categories)',
    );
    expect(() => refuseSharedSlugs('docs', ['intro', 'guide'], 'components')).not.toThrow();
  });
});

describe('componentSlugOf', () => {
  it.each([
    ['manual', 'manual'],
    ['guides%252Fmanual', 'manual'],
    ['guides%252Fapi%252Finternals%252Freference', 'reference'],
    ['guides%2Fmanual', 'manual'],
  ])('reads %s as %s', (segment, slug) => {
    expect(componentSlugOf(segment)).toBe(slug);
  });
});

describe('inferPageSize in the 2026.8 flavour', () => {
  const list = (url: string, count: number, firstPageLength: number, next: string | null) => ({
    url,
    count,
    firstPageLength,
    next,
  });

  it("counts a component's statistics list, cut at four times the page size, for a quarter", () => {
    const lists = [
      list(`${API}/components/p/c/statistics/`, 9, 8, `${API}/components/p/c/statistics/?page=2`),
    ];
    expect(inferPageSize(lists, '2026.8')).toBe(2);
    expect(inferPageSize(lists, '4')).toBe(8);
  });

  it('leaves a statistics list out of the longest list when none is cut', () => {
    const lists = [
      list(`${API}/components/p/c/statistics/`, 120, 120, null),
      list(`${API}/projects/`, 60, 60, null),
    ];
    expect(inferPageSize(lists, '2026.8')).toBe(60);
  });
});

describe('mapLanguages in the 2026.8 flavour', () => {
  const instance = (languages: ApiLanguage[]): PulledInstance => ({
    apiRoot: `${API}/`,
    lists: [],
    languages,
    projects: [],
    partial: false,
    date: null,
    warnings: [],
    flavour: '2026.8',
  });
  const files = (languages: ApiLanguage[]) =>
    Object.fromEntries(
      mapLanguages(instance(languages), catalog).files.map((f) => [f.path, f.value]),
    );

  it("compares a catalog language with today's plural type and aliases, and writes an id of the instance's own numbering", () => {
    expect(files([language('cs'), language('de', { id: 7 })])).toEqual({
      'languages/cs.yaml': {},
      'languages/de.yaml': { id: 7 },
    });
  });

  it('writes the whole plural of a language still typed as 4.x types it, and the id of a language outside the catalog', () => {
    const uk = language('uk');
    const older = language('uk', { plural: { ...uk.plural, type: 2 } });
    const outside: ApiLanguage = {
      id: 301,
      code: 'nds_NL',
      name: 'Low German',
      plural: { id: 302, source: 0, number: 2, formula: 'n != 1', type: 1 },
      aliases: [],
      direction: 'ltr',
      population: 0,
    };
    const written = files([older, outside]);
    const { id, number, formula } = uk.plural;
    expect(written['languages/uk.yaml']).toEqual({ plural: { id, number, formula, type: 2 } });
    expect(Object.keys(written['languages/nds_NL.yaml']!)).toEqual([
      'id',
      'name',
      'direction',
      'population',
      'plural',
    ]);
  });
});
