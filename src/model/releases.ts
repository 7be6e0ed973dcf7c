/**
 * The Weblate releases a snapshot can speak, and what changed between them: one table of traits,
 * each keyed by the release that brought it and the source it was read from. Every body, route,
 * badge and page that differs between releases asks `hasTrait`, never the version itself.
 */
import type { WeblateVersion } from './defaults.ts';

/** The minor releases, oldest first; a patch level (`5.4.3`) of one is accepted too. */
export const MINOR_RELEASES = [
  ...[14, 15, 16, 17, 18].map((minor) => `4.${minor}`),
  ...Array.from({ length: 18 }, (_, minor) => `5.${minor}`),
  ...[5, 6, 7, 8, 9, 10, 11].map((month) => `2026.${month}`),
] as const;

/** The newest release the table knows. */
export const NEWEST_RELEASE = MINOR_RELEASES.at(-1)!;

/**
 * Names kept from the two flavours this tool had before it took releases: each builds the bytes
 * it always built, so it is its own entry: the traits of a release, less those it never had.
 */
const LEGACY = {
  '4': { like: '4.14', without: [] },
  '2026.8': {
    like: '2026.9',
    without: [
      'noStatsExports',
      'translateChartRows',
      'languageChartRow',
      'statisticsFormats',
      'glossaryFreeWidgets',
    ],
  },
} as const satisfies Record<string, { like: string; without: readonly TraitName[] }>;

/** A release as content and flags name it: a legacy name, or `<minor>[.<patch>]` of the table. */
export type Release = string;

/** Whether `text` names a release of the table (or a legacy name). */
export function isRelease(text: string): boolean {
  if (Object.hasOwn(LEGACY, text)) return true;
  const match = /^(\d+\.\d+)(\.\d+)?$/.exec(text);
  return match !== null && MINOR_RELEASES.includes(match[1]!);
}

/** What a refused release is told: the range the table covers. */
export const RELEASE_RANGE = `a Weblate release from 4.14 to ${NEWEST_RELEASE} (such as "4.18", "5.10" or "${NEWEST_RELEASE}"), or "4" or "2026.8"`;

/** The objects whose fields a trait may add. */
export type FieldedObject = 'language' | 'project' | 'component';

interface Trait {
  since: string;
  what: string;
  source: string;
  test: string;
  /** Fields the release added to objects of today's shapes; earlier releases leave them out. */
  fields?: Partial<Record<FieldedObject, readonly string[]>>;
  /** The trait changes the objects' fields or their layout, so the published types. */
  changesTypes?: true;
}

/**
 * Each trait: the release that brought it, what a client sees, where the fact was read (a Weblate
 * file and pull request or release note), and the test that exercises it.
 */
export const TRAITS = {
  currentPluralTypes: {
    since: '4.16',
    what: 'plural types as a fresh install gives them: Slavic formulas type 22, Arabic 12',
    source: 'weblate/lang/data.py, PR #8773',
    test: 'test/golden/release-4.18/api/languages/cs/index.json',
  },
  projectExport27: {
    since: '4.18',
    what: "the project stats export has the component export's 27 columns",
    source: 'weblate/trans/views/basic.py, PR #9310; docs/changes/v4.rst 4.18',
    test: 'test/golden/release-4.18/exports/stats/hello/index.csv',
  },
  shapes5: {
    since: '5.0',
    what: 'categories, language ids, /widget/ URLs, /engage/<p>/-/<l>/, today\u2019s objects',
    source: 'docs/changes/v5.rst 5.0, 5.0.1, 5.2; weblate/api/serializers.py',
    test: 'test/golden/release-5.10/api/index.json',
    changesTypes: true,
  },
  languageIds: {
    since: '5.0.1',
    what: 'a language has an `id`, first',
    source: 'docs/changes/v5.rst 5.0.1 ("Added object id to all API endpoints")',
    test: 'test/regressions/issue-25-releases-fields.test.ts',
    fields: { language: ['id'] },
    changesTypes: true,
  },
  translateChartRows: {
    since: '5.0',
    what: "a component chart's rows link to /translate/<p>/<c>/<l>/",
    source: 'weblate/trans/widgets.py (5.x)',
    test: 'test/golden/release-5.10/widget/hello/app/multi-auto.svg',
  },
  statistics33: {
    since: '5.2',
    what: 'statistics objects have 33 counters, `total_chars` third (before: 4.x\u2019s 21, `total_chars` 11th)',
    source:
      'docs/changes/v5.rst 5.2 ("statistics now includes character and word counts for more string states")',
    test: 'test/regressions/issue-25-releases-statistics-5.1.test.ts',
    changesTypes: true,
  },
  projectLabels: {
    since: '5.3',
    what: 'a project links its labels: `labels_url`',
    source: 'docs/changes/v5.rst 5.3 ("Added labels API")',
    test: 'test/regressions/issue-25-releases-fields.test.ts',
    fields: { project: ['labels_url'] },
    changesTypes: true,
  },
  linkedComponentField: {
    since: '5.4',
    what: 'a component names the one whose repository it shares: `linked_component`',
    source: 'docs/changes/v5.rst 5.4 ("now includes information about linked component")',
    test: 'test/regressions/issue-25-releases-fields.test.ts',
    fields: { component: ['linked_component'] },
    changesTypes: true,
  },
  keyFilter: {
    since: '5.8',
    what: 'a component has `key_filter`',
    source: 'docs/changes/v5.rst 5.8',
    test: 'test/regressions/issue-25-releases-fields.test.ts',
    fields: { component: ['key_filter'] },
    changesTypes: true,
  },
  projectMachinerySettings: {
    since: '5.9',
    what: 'a project links its machinery settings: `machinery_settings`',
    source: 'docs/changes/v5.rst 5.9',
    test: 'test/regressions/issue-25-releases-fields.test.ts',
    fields: { project: ['machinery_settings'] },
    changesTypes: true,
  },
  languageChartRow: {
    since: '5.0',
    what: "a chart at a language's prefix (/widget/<p>/-/<l>/, /widget/<p>/<c>/<l>/) shows that language's row alone",
    source:
      'weblate/trans/widgets.py MultiLanguageWidget (ProjectLanguageStats, TranslationStats); pinned to the 5.0 widget paths',
    test: 'test/golden/release-5.10/widget/hello/-/cs/multi-auto.svg',
  },
  largeStatistics: {
    since: '5.10',
    what: 'component statistics pages hold LargePagination pages (twice the page size)',
    source: 'weblate/api/views.py, PR #13667',
    test: 'test/golden/release-5.10/api/components/hello/app/statistics/index.json',
  },
  noStatsExports: {
    since: '5.10',
    what: 'no /exports/stats/ files (Weblate answers its HTML 404 there)',
    source: 'weblate/urls.py, PR #13814',
    test: 'test/golden/release-5.10/FILES.txt',
  },
  standardizedErrors: {
    since: '5.10',
    what: 'error bodies by drf-standardized-errors: `{"type","errors":[{"code","detail","attr"}]}` (before: DRF\u2019s `{"detail"}`)',
    source: 'docs/changes/v5.rst 5.10 ("API error responses format has changed"), PR #13547',
    test: 'test/regressions/issue-25-releases-errors.test.ts',
  },
  statisticsFormats: {
    since: '5.10',
    what: 'statistics and project languages answer ?format=csv and ?format=json-flat (index.csv, index.json-flat.json)',
    source:
      'weblate/api/views.py renderer_classes with FlatJsonRenderer; weblate/api/renderers.py AutoCSVRenderer; PR #13814',
    test: 'test/golden/release-5.10/api/translations/hello/app/cs/statistics/index.csv',
  },
  largePagination4: {
    since: '5.11',
    what: 'LargePagination pages hold four times the page size (pinned: inferred, not dated)',
    source: 'weblate/api/pagination.py, PR #14137',
    test: 'test/golden/release-2026.11/api/components/hello/app/statistics/index.json',
  },
  glossaryFreeWidgets: {
    since: '5.11',
    what: 'project, project-language and site-wide badges and charts leave glossaries out',
    source: 'weblate/trans/widgets.py, PR #14235',
    test: 'test/golden/release-2026.11/widget/hello/svg-badge.svg',
  },
  sharedRepositorySettings: {
    since: '5.17',
    what: 'a component sharing a repository shows its push_on_commit, commit_pending_age, auto_lock_error',
    source:
      'weblate/trans/models/component.py LINKED_REPOSITORY_SETTINGS; docs/changes/v5.rst 5.17',
    test: 'test/unit/model/releases.test.ts',
  },
  rootSinceRouter2026: {
    since: '2026.8',
    what: '`suggestions` and `reports` in the API root',
    source: 'weblate/api/urls.py; docs/changes.rst 2026.8',
    test: 'test/golden/release-2026.11/api/index.json',
    changesTypes: true,
  },
} as const satisfies Record<string, Trait>;

export type TraitName = keyof typeof TRAITS;

/** Each release's answers of hasTrait() so far. */
const TRAITS_OF = new Map<Release, Map<TraitName, boolean>>();

/** Whether a snapshot of `version` shows the trait. */
export function hasTrait(version: Release, trait: TraitName): boolean {
  // Asked for nearly every file a build writes: each answer is worked out once per release.
  let traits = TRAITS_OF.get(version);
  if (!traits) TRAITS_OF.set(version, (traits = new Map<TraitName, boolean>()));
  let has = traits.get(trait);
  if (has === undefined) traits.set(trait, (has = workOutTrait(version, trait)));
  return has;
}

/**
 * The object shapes a release is served in: `4` (Weblate 4.x's) or `2026.8` (today's). The
 * shapes of each 5.x release were not established field by field; today's are the nearest.
 */
export function shapesOf(version: Release): WeblateVersion {
  return hasTrait(version, 'shapes5') ? '2026.8' : '4';
}

/** The fields of `object` that `version` does not serve yet: those the traits it lacks add. */
export function laterFields(version: Release, object: FieldedObject): ReadonlySet<string> {
  const later = new Set<string>();
  for (const name of Object.keys(TRAITS) as TraitName[]) {
    const trait: Trait = TRAITS[name];
    if (!hasTrait(version, name))
      for (const field of trait.fields?.[object] ?? []) later.add(field);
  }
  return later;
}

/**
 * The release an instance runs at least, from `base` (what else it showed) and the fields its
 * objects were seen with: each field a trait adds tells its release.
 */
export function releaseOfFields(
  base: Release,
  seen: Partial<Record<FieldedObject, readonly string[]>>,
): Release {
  let release = base;
  for (const name of Object.keys(TRAITS) as TraitName[]) {
    const trait: Trait = TRAITS[name];
    const shown = Object.entries(trait.fields ?? {}).some(([object, fields]) =>
      fields.some((field) => seen[object as FieldedObject]?.includes(field)),
    );
    if (shown && !hasTrait(release, name)) release = trait.since;
  }
  return release;
}

/** The statistics layout a release serves: 4.x's 21 counters before 5.2, today's 33 from it. */
export function statisticsShapesOf(version: Release): WeblateVersion {
  return hasTrait(version, 'statistics33') ? '2026.8' : '4';
}

/**
 * The release whose published types (`api-<release>.d.ts`) the objects of `version` fit: the
 * newest of the traits that changed them, `4` before any, `2026.8` (the flavour) from 2026.8.
 */
export function typesReleaseOf(version: Release): Release {
  if (legacyEntry(version)) return version;
  let types: Release = '4';
  for (const name of Object.keys(TRAITS) as TraitName[]) {
    const trait: Trait = TRAITS[name];
    if (trait.changesTypes && hasTrait(version, name) && compareReleases(trait.since, types) > 0)
      types = trait.since;
  }
  return types;
}

/** Each release that has its own published types, oldest first: `4`, then each that changed them. */
export function typesReleases(): Release[] {
  const since = Object.values(TRAITS as Record<TraitName, Trait>)
    .filter((trait) => trait.changesTypes)
    .map((trait) => trait.since);
  return ['4', ...new Set(since)].sort(compareReleases);
}

// --- internal ---

function workOutTrait(version: Release, trait: TraitName): boolean {
  const legacy = legacyEntry(version);
  if (legacy) return !legacy.without.includes(trait) && hasTrait(legacy.like, trait);
  return compareReleases(version, TRAITS[trait].since) >= 0;
}

function legacyEntry(version: Release): { like: string; without: readonly TraitName[] } | null {
  return Object.hasOwn(LEGACY, version) ? LEGACY[version as keyof typeof LEGACY] : null;
}

/** Orders two releases by their numbers (calendar releases sort after 5.x: 2026 > 5). */
function compareReleases(a: string, b: string): number {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const difference = (x[i] ?? 0) - (y[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}
