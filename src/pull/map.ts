/**
 * API objects → content files, so that building the files reproduces the API
 * that was read. Pure: what was read of the instance and the catalog in, the files
 * (path + fields in the order they are written) and warnings out. Fields
 * equal to what the generator would derive anyway are left out, to keep the
 * files short; ids are always written.
 */
import type { Catalog } from '../catalog/catalog.ts';
import { checkBaseUrl } from '../content/base-url.ts';
import { codeExpectation, slugExpectation } from '../content/schema.ts';
import { PullError } from './errors.ts';
import { componentPath, mapComponent, type HiddenFields } from './map-component.ts';
import {
  mapCategories,
  map2026Project,
  refuseSharedSlugs,
  type Flavour2026Context,
} from './map-2026.ts';
import { mapLanguages } from './map-languages.ts';
import { dropUnsafeLinks } from './map-links.ts';
import type { ApiLanguage, ApiProject } from './shapes.ts';
import type { ContentFile } from './content-file.ts';
import type { PulledComponent, PulledInstance, PulledProject, ListObservation } from './walk.ts';
import { PROJECT_FIELD_DEFAULTS, SITE_DEFAULTS } from '../model/defaults.ts';
import { hasTrait, NEWEST_RELEASE, releaseOfFields, type Release } from '../model/releases.ts';

export interface MappedContent {
  files: ContentFile[];
  /** Files of components kept from an earlier pull (pull/refresh.ts): left as they are. */
  kept: string[];
  /** What the mapping of each component read anew warned of, by its file's path (for the pull's record). */
  notes: Map<string, { warnings: string[]; hidden: string[] }>;
  warnings: string[];
  counts: { projects: number; components: number; translations: number; languages: number };
}

export function mapInstance(instance: PulledInstance, catalog: Catalog): MappedContent {
  const warnings = [...instance.warnings];
  const pulledSlugs = new Set(instance.projects.map((p) => p.project.slug));
  const current =
    (instance.flavour ?? '4') === '4'
      ? undefined
      : flavour2026Context(instance, pulledSlugs, warnings);
  const mapped: MappedContent = {
    files: [{ path: 'site.yaml', value: mapSite(instance, warnings) }],
    kept: [],
    notes: new Map(),
    warnings,
    counts: { projects: instance.projects.length, components: 0, translations: 0, languages: 0 },
  };
  const hidden: HiddenFields[] = [];
  for (const pulled of instance.projects)
    mapProjectFiles(pulled, { instance, pulledSlugs, current, mapped, hidden });
  const languages = mapLanguages(instance, catalog);
  mapped.files.push(...languages.files);
  if (hidden.length > 0) warnings.push(describeHidden(hidden));
  mapped.counts.languages = languages.published;
  refuseUnwritableNames([...mapped.files.map((file) => file.path), ...mapped.kept]);
  return mapped;
}

/**
 * The release the instance runs, as far as what it served tells: 4.x's as "4"; of today's, a
 * root with `suggestions` is 2026.8 or later: the newest release, or "2026.8" when its statistics
 * do not answer `?format=csv` (a snapshot built as "2026.8"); and before that the component
 * statistics' pages tell 5.0-5.9 (the page size), 5.10 (twice it) and 5.11 on (four times);
 * of 5.0-5.9, statistics of 21 counters tell 5.0.1 and 5.1 ("5.1", or "5.0" when its languages
 * have no id) from 5.2 on ("5.2"); and
 * fields a later release added to projects and components tell that release.
 */
export function inferRelease(instance: PulledInstance): Release {
  if ((instance.flavour ?? '4') === '4') return '4';
  if (!instance.rootKeys) return '2026.8';
  // Releases from 2026.8 on build alike; only a snapshot built as "2026.8" lacks the formats.
  if (instance.rootKeys.includes('suggestions'))
    return instance.statisticsFormats === false ? '2026.8' : NEWEST_RELEASE;
  const factor = largePageFactor(instance.lists);
  const base =
    factor === 1
      ? instance.statisticsCounters === 21
        ? languagesWithoutIds(instance)
          ? '5.0'
          : '5.1'
        : '5.2'
      : factor === 2
        ? '5.10'
        : '5.11';
  return releaseOfFields(base, instance.fieldsSeen ?? {});
}

/** Weblate 5.0 before 5.0.1 served its languages without `id`. */
function languagesWithoutIds(instance: PulledInstance): boolean {
  return (
    instance.languages.length > 0 &&
    instance.languages.every((language) => !Object.hasOwn(language, 'id'))
  );
}

/**
 * The page size the lists were cut at: the length of a first page that has a
 * next one. Component statistics pages are cut at LargePagination's size
 * (from 5.10 twice the page size, from 5.11 four times): those count for a share.
 */
export function inferPageSize(
  lists: readonly ListObservation[],
  release: Release = '4',
): number | undefined {
  const factor = !hasTrait(release, 'largeStatistics')
    ? 1
    : hasTrait(release, 'largePagination4')
      ? 4
      : 2;
  const large = (list: ListObservation) => factor > 1 && LARGE_LIST.test(list.url);
  const cut = lists
    .filter((list) => list.next !== null && list.firstPageLength > 0)
    .map((list) =>
      large(list) ? Math.max(1, Math.floor(list.firstPageLength / factor)) : list.firstPageLength,
    );
  if (cut.length > 0) return mostCommon(cut);
  // No list needed a second page: any size at least as long as the longest list gives the same pages.
  const longest = Math.max(0, ...lists.filter((list) => !large(list)).map((list) => list.count));
  return longest > SITE_DEFAULTS.page_size ? Math.min(longest, 1000) : undefined;
}

/** `query` when next links read `?page=N`, `path` when they are page paths; undefined when no list had a next page. */
export function inferPagination(lists: readonly ListObservation[]): 'path' | 'query' | undefined {
  const next = lists.find((list) => list.next !== null)?.next;
  if (next === undefined || next === null) return undefined;
  return /[?&]page=\d+/.test(next) ? 'query' : 'path';
}

// --- internal ---

/** A component's statistics list: `/components/<p>/<c>/statistics/`, any page. */
const LARGE_LIST = /\/components\/[^/]+\/[^/]+\/statistics\/($|\?|~page\/)/;
/** How many times the page size component statistics pages hold, from lists cut on both sides. */
function largePageFactor(lists: readonly ListObservation[]): number | undefined {
  const cut = lists.filter((list) => list.next !== null && list.firstPageLength > 0);
  const large = cut.filter((list) => LARGE_LIST.test(list.url)).map((l) => l.firstPageLength);
  const small = cut.filter((list) => !LARGE_LIST.test(list.url)).map((l) => l.firstPageLength);
  if (large.length === 0 || small.length === 0) return undefined;
  return Math.round(mostCommon(large) / mostCommon(small));
}

interface MapState {
  instance: PulledInstance;
  pulledSlugs: ReadonlySet<string>;
  current: Flavour2026Context | undefined;
  mapped: MappedContent;
  hidden: HiddenFields[];
}

/**
 * A project's files: its own, its categories' (today's Weblate), and its
 * components' (those an incremental pull keeps are left as they are).
 */
function mapProjectFiles({ project, components }: PulledProject, state: MapState): void {
  const { mapped, current, hidden } = state;
  const value = mapProject(project, current);
  dropUnsafeLinks(value, `Project ${project.slug}`, mapped.warnings);
  mapped.files.push({ path: `projects/${project.slug}/project.yaml`, value });
  if (current) {
    mapped.files.push(
      ...mapCategories(project.slug, state.instance.categories?.get(project.slug) ?? [], current),
    );
    refuseSharedSlugs(
      project.slug,
      components.map((c) => ('kept' in c ? c.slug : c.component.slug)),
      'components',
    );
  }
  for (const component of components) {
    mapped.counts.components++;
    if ('kept' in component) {
      mapped.kept.push(componentPath(project.slug, component.slug));
      mapped.warnings.push(...component.warnings);
      if (component.hidden.length > 0)
        hidden.push({ component: `${project.slug}/${component.slug}`, fields: component.hidden });
      mapped.counts.translations += component.translations;
      continue;
    }
    const one = mapComponent(project.slug, component, state.pulledSlugs, current);
    mapped.files.push(one.file);
    mapped.notes.set(one.file.path, { warnings: one.warnings, hidden: one.hidden?.fields ?? [] });
    mapped.warnings.push(...one.warnings);
    if (one.hidden) hidden.push(one.hidden);
    mapped.counts.translations += component.translations.length;
  }
}

/** What mapping today's objects needs: languages by id (every language read), categories by link. */
function flavour2026Context(
  instance: PulledInstance,
  pulledProjects: ReadonlySet<string>,
  warnings: string[],
): Flavour2026Context {
  const { context, note } = languageContext(instance, pulledProjects, warnings);
  for (const { components } of instance.projects) {
    for (const c of components) {
      if ('kept' in c) c.languages.forEach(note);
      else [c.component.source_language, ...c.translations.map((t) => t.language)].forEach(note);
    }
  }
  return context;
}

/**
 * Maps a component as soon as its reads are complete (a full pull), from what
 * the walk read first: the languages and categories, and the component's own
 * languages, noted before it is mapped. Undefined for 4.x, which needs none of it.
 */
export function earlyComponentMapper(
  start: Pick<PulledInstance, 'languages' | 'categories' | 'flavour'>,
  pulledProjects: ReadonlySet<string>,
): (projectSlug: string, pulled: PulledComponent) => ReturnType<typeof mapComponent> {
  const current =
    (start.flavour ?? '4') === '4' ? undefined : languageContext(start, pulledProjects, []);
  return (projectSlug, pulled) => {
    if (current)
      [pulled.component.source_language, ...pulled.translations.map((t) => t.language)].forEach(
        current.note,
      );
    return mapComponent(projectSlug, pulled, pulledProjects, current?.context);
  };
}

/** The context of today's objects with the instance's languages noted; `note` adds more (the first code of an id wins). */
function languageContext(
  instance: Pick<PulledInstance, 'languages' | 'categories'>,
  pulledProjects: ReadonlySet<string>,
  warnings: string[],
): { context: Flavour2026Context; note: (language: ApiLanguage) => void } {
  const codes = new Map<number, string>();
  const note = (language: ApiLanguage) => {
    if (language.id !== undefined && !codes.has(language.id)) codes.set(language.id, language.code);
  };
  instance.languages.forEach(note);
  const slugs = new Map(
    [...(instance.categories?.values() ?? [])]
      .flat()
      .map((category) => [category.url, category.slug]),
  );
  const context = {
    languageCode: (id: number) => codes.get(id) ?? null,
    categorySlug: (url: string) => slugs.get(url) ?? null,
    pulledProjects,
    warnings,
  };
  return { context, note };
}

function mapSite(instance: PulledInstance, warnings: string[]): Record<string, unknown> {
  const baseUrl = instance.apiRoot.replace(/\/api\/$/, '').replace(/\/+$/, '');
  if (!instance.apiRoot.endsWith('/api/')) {
    warnings.push(
      `The API root ${instance.apiRoot} does not end with /api/; the mirror serves its API at ${baseUrl}/api/.`,
    );
  }
  refuseUnsafeUrl('base URL', baseUrl, instance.apiRoot);
  const site: Record<string, unknown> = { base_url: baseUrl };
  const webUrl = inferWebUrl(instance);
  if (webUrl !== undefined) refuseUnsafeUrl('web URL', webUrl, instance.apiRoot);
  if (webUrl !== undefined && webUrl !== baseUrl) site.web_url = webUrl;
  const release = inferRelease(instance);
  const pageSize = inferPageSize(instance.lists, release);
  if (pageSize !== undefined && pageSize !== SITE_DEFAULTS.page_size) site.page_size = pageSize;
  const pagination = inferPagination(instance.lists);
  if (pagination !== undefined && pagination !== SITE_DEFAULTS.pagination)
    site.pagination = pagination;
  if (release !== SITE_DEFAULTS.weblate_version) site.weblate_version = release;
  // Translating happens upstream: a mirror's translate and share pages link there.
  site.edit_url = webUrl ?? baseUrl;
  return site;
}

/**
 * A base URL the instance's links imply must be one a build accepts: its
 * host and path end up in shell, nginx and redirect files. Checked before
 * anything is written.
 */
function refuseUnsafeUrl(what: string, url: string, apiRoot: string): void {
  const checked = checkBaseUrl(url);
  if (checked.ok) return;
  throw new PullError(
    `The instance's links (API root ${JSON.stringify(apiRoot)}) imply the ${what} ${JSON.stringify(url)}, which a build cannot take: ${checked.expected}. Nothing was written.`,
    { resumable: false },
  );
}

/**
 * A slug or code that content refuses as a file name (one Windows reserves),
 * or two language files whose codes differ only in letter case, cannot be
 * mirrored under another name: the pull stops before anything is written.
 */
function refuseUnwritableNames(paths: readonly string[]): void {
  const folded = new Map<string, string>();
  for (const path of paths) {
    const refused = refusedName(path);
    const other = folded.get(path.toLowerCase());
    const why =
      refused ??
      (other === undefined
        ? undefined
        : `the files ${other} and ${path}, whose names differ only in letter case`);
    if (why !== undefined) {
      throw new PullError(
        `The instance has ${why}, which content cannot hold on every file system; ` +
          `pull the other projects with --project. Nothing was written.`,
        { resumable: false },
      );
    }
    folded.set(path.toLowerCase(), path);
  }
}

/** What content refuses in a content file's path (`projects/con/project.yaml`), or undefined. */
function refusedName(path: string): string | undefined {
  const parts = path.replace(/\.yaml$/, '').split('/');
  if (parts.length < 2) return undefined; // site.yaml
  const named = (what: string, name: string, expected: string | null) =>
    expected === null ? undefined : `the ${what} "${name}" (${expected})`;
  if (parts[0] === 'languages')
    return named('language code', parts[1]!, codeExpectation(parts[1]!));
  const project = named('project slug', parts[1]!, slugExpectation(parts[1]!));
  if (project !== undefined || parts.length < 4) return project;
  const what = parts[2] === 'categories' ? 'category slug' : 'component slug';
  return named(what, parts[3]!, slugExpectation(parts[3]!));
}

/** The base of web links, from a project's `web_url` (`<web>/projects/<slug>/`) or a language's. */
function inferWebUrl(instance: PulledInstance): string | undefined {
  for (const { project } of instance.projects) {
    const base = withoutSuffix(project.web_url, `/projects/${project.slug}/`);
    if (base !== undefined) return base;
  }
  for (const language of instance.languages) {
    const base =
      language.web_url === undefined
        ? undefined
        : withoutSuffix(language.web_url, `/languages/${language.code}/`);
    if (base !== undefined) return base;
  }
  return undefined;
}

function mapProject(
  project: ApiProject,
  current: Flavour2026Context | undefined,
): Record<string, unknown> {
  const value: Record<string, unknown> = { name: project.name };
  if (project.id !== undefined) value.id = project.id;
  if (current) return Object.assign(value, map2026Project(project, current));
  for (const [key, fallback] of Object.entries(PROJECT_FIELD_DEFAULTS)) {
    const served = project[key as keyof typeof PROJECT_FIELD_DEFAULTS];
    if (served !== undefined && served !== fallback) value[key] = served;
  }
  return value;
}

function describeHidden(hidden: HiddenFields[]): string {
  const fields = [...new Set(hidden.flatMap((h) => h.fields))].join(', ');
  const examples =
    hidden
      .slice(0, 3)
      .map((h) => h.component)
      .join(', ') + (hidden.length > 3 ? ', …' : '');
  const count = hidden.length === 1 ? '1 component shows' : `${hidden.length} components show`;
  return (
    `${count} ${fields} as null, hidden from this caller (${examples}). The mirror writes repo and branch empty, vcs as git ` +
    `and the file mask guessed from the translation file names. Pull with --token of a user who may see the repositories to mirror them.`
  );
}

function withoutSuffix(url: string, suffix: string): string | undefined {
  return url.endsWith(suffix) ? url.slice(0, -suffix.length) : undefined;
}

function mostCommon(values: readonly number[]): number {
  const counts = new Map<number, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]![0];
}
