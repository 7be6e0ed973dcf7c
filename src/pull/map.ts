/**
 * API objects → content files, so that building the files reproduces the API
 * that was read. Pure: what was read of the instance and the catalog in, the files
 * (path + fields in the order they are written) and warnings out. Fields
 * equal to what the generator would derive anyway are left out, to keep the
 * files short; ids are always written.
 */
import type { Catalog } from '../catalog/catalog.ts';
import { checkBaseUrl } from '../content/base-url.ts';
import { PullError } from './errors.ts';
import { componentPath, mapComponent, type HiddenFields } from './map-component.ts';
import { mapLanguages } from './map-languages.ts';
import type { ApiProject } from './shapes.ts';
import type { ContentFile } from './content-file.ts';
import type { PulledInstance, ListObservation } from './walk.ts';
import { PROJECT_FIELD_DEFAULTS, SITE_DEFAULTS } from '../model/defaults.ts';

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
  const hidden: HiddenFields[] = [];
  const pulledSlugs = new Set(instance.projects.map((p) => p.project.slug));
  const files: ContentFile[] = [{ path: 'site.yaml', value: mapSite(instance, warnings) }];
  const kept: string[] = [];
  const notes: MappedContent['notes'] = new Map();
  let components = 0;
  let translations = 0;
  for (const { project, components: pulled } of instance.projects) {
    files.push({ path: `projects/${project.slug}/project.yaml`, value: mapProject(project) });
    for (const component of pulled) {
      if ('kept' in component) {
        kept.push(componentPath(project.slug, component.slug));
        warnings.push(...component.warnings);
        if (component.hidden.length > 0) hidden.push({ component: `${project.slug}/${component.slug}`, fields: component.hidden });
        components++;
        translations += component.translations;
        continue;
      }
      const mapped = mapComponent(project.slug, component, pulledSlugs);
      files.push(mapped.file);
      notes.set(mapped.file.path, { warnings: mapped.warnings, hidden: mapped.hidden?.fields ?? [] });
      warnings.push(...mapped.warnings);
      if (mapped.hidden) hidden.push(mapped.hidden);
      components++;
      translations += component.translations.length;
    }
  }
  const languages = mapLanguages(instance, catalog);
  files.push(...languages.files);
  if (hidden.length > 0) warnings.push(describeHidden(hidden));
  const counts = { projects: instance.projects.length, components, translations, languages: languages.published };
  return { files, kept, notes, warnings, counts };
}

/** The page size the lists were cut at: the length of a first page that has a next one. */
export function inferPageSize(lists: readonly ListObservation[]): number | undefined {
  const cut = lists.filter((list) => list.next !== null && list.firstPageLength > 0).map((list) => list.firstPageLength);
  if (cut.length > 0) return mostCommon(cut);
  // No list needed a second page: any size at least as long as the longest list gives the same pages.
  const longest = Math.max(0, ...lists.map((list) => list.count));
  return longest > SITE_DEFAULTS.page_size ? Math.min(longest, 1000) : undefined;
}

/** `query` when next links read `?page=N`, `path` when they are page paths; undefined when no list had a next page. */
export function inferPagination(lists: readonly ListObservation[]): 'path' | 'query' | undefined {
  const next = lists.find((list) => list.next !== null)?.next;
  if (next === undefined || next === null) return undefined;
  return /[?&]page=\d+/.test(next) ? 'query' : 'path';
}

// --- internal ---

function mapSite(instance: PulledInstance, warnings: string[]): Record<string, unknown> {
  const baseUrl = instance.apiRoot.replace(/\/api\/$/, '').replace(/\/+$/, '');
  if (!instance.apiRoot.endsWith('/api/')) {
    warnings.push(`The API root ${instance.apiRoot} does not end with /api/; the mirror serves its API at ${baseUrl}/api/.`);
  }
  refuseUnsafeUrl('base URL', baseUrl, instance.apiRoot);
  const site: Record<string, unknown> = { base_url: baseUrl };
  const webUrl = inferWebUrl(instance);
  if (webUrl !== undefined) refuseUnsafeUrl('web URL', webUrl, instance.apiRoot);
  if (webUrl !== undefined && webUrl !== baseUrl) site.web_url = webUrl;
  const pageSize = inferPageSize(instance.lists);
  if (pageSize !== undefined && pageSize !== SITE_DEFAULTS.page_size) site.page_size = pageSize;
  const pagination = inferPagination(instance.lists);
  if (pagination !== undefined && pagination !== SITE_DEFAULTS.pagination) site.pagination = pagination;
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

/** The base of web links, from a project's `web_url` (`<web>/projects/<slug>/`) or a language's. */
function inferWebUrl(instance: PulledInstance): string | undefined {
  for (const { project } of instance.projects) {
    const base = withoutSuffix(project.web_url, `/projects/${project.slug}/`);
    if (base !== undefined) return base;
  }
  for (const language of instance.languages) {
    const base = language.web_url === undefined ? undefined : withoutSuffix(language.web_url, `/languages/${language.code}/`);
    if (base !== undefined) return base;
  }
  return undefined;
}

function mapProject(project: ApiProject): Record<string, unknown> {
  const value: Record<string, unknown> = { name: project.name };
  if (project.id !== undefined) value.id = project.id;
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
