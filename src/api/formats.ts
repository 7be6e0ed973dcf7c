/**
 * The answers Weblate gives the statistics beside JSON (from 5.10): `?format=csv` from its
 * AutoCSVRenderer and `?format=json-flat` from its FlatJsonRenderer, both of which answer a page
 * with its `results` alone. The snapshot writes them as files beside the endpoint's `index.json`;
 * a host that can map a query answers the format with its file.
 */
import { hasTrait, type Release } from '../model/releases.ts';
import { csvOfJson } from '../output/csv.ts';
import { joinFileText, serializeFileInParts, type FileText } from '../output/serialize.ts';
import { resultsOfPage } from './pagination.ts';
import type { Resource } from './resources.ts';
import { routeOf, type ResourceKind, type Route } from './routes.ts';
import { folderOfPath } from './urls.ts';

/** The formats besides JSON, and the file of each beside `index.json`. */
export const FORMAT_FILES = { csv: 'index.csv', 'json-flat': 'index.json-flat.json' } as const;
export type ExtraFormat = keyof typeof FORMAT_FILES;
export const EXTRA_FORMATS = Object.keys(FORMAT_FILES) as ExtraFormat[];

/** What Weblate sends with CSV: the renderer's media type and BaseRenderer's charset. */
export const CSV_TYPE = 'text/csv; charset=utf-8';

/** The resources whose views take FlatJsonRenderer besides the default renderers. */
const FORMAT_KINDS: ReadonlySet<string> = new Set<ResourceKind>([
  'project-statistics',
  'project-languages',
  'component-statistics',
  'translation-statistics',
  'language-statistics',
  'category-statistics',
]);

/** The same routes told by the end of a path (a page of a list included), for a host's function. */
export const FORMAT_PATH_END = /(statistics|\/projects\/[^/]+\/languages)(\/~page\/\d+)?$/;

/** Whether a route is one whose view has the flat renderers (in the releases that have them). */
export function takesFormats(route: Route): boolean {
  return FORMAT_KINDS.has(route.kind);
}

/** Whether a route answers `?format=csv` and `?format=json-flat` in a release. */
export function answersFormats(route: Route, release: Release): boolean {
  return takesFormats(route) && hasTrait(release, 'statisticsFormats');
}

/** The routes that answer the formats in a release (none before 5.10). */
export function formatRoutes(routes: readonly Route[], release: Release): Route[] {
  return routes.filter((route) => answersFormats(route, release));
}

/**
 * The file that answers `format` on a route that takes it: `index.csv`, and for json-flat the
 * page's own file only where the JSON is a page (elsewhere the flat answer is the JSON itself).
 */
export function formatFileName(route: Route, format: ExtraFormat): string {
  return format === 'csv' || route.paginated ? FORMAT_FILES[format] : 'index.json';
}

/** Whether a `?format=` value is one of the formats besides JSON. */
export function isExtraFormat(format: string | null): format is ExtraFormat {
  return format !== null && Object.hasOwn(FORMAT_FILES, format);
}

/** The format files of a resource beside its JSON (`json` is that JSON's text), or none. */
export function formatFiles(
  resource: Resource,
  json: FileText,
  release: Release,
): { path: string; data: FileText }[] {
  const route = routeOf(resource.kind);
  if (!answersFormats(route, release)) return [];
  const folder = folderOfPath(resource.path);
  const files: { path: string; data: FileText }[] = [
    { path: folder + FORMAT_FILES.csv, data: csvOfJson(joinFileText(json)) },
  ];
  const results = resultsOfPage(resource.body);
  if (results !== null)
    files.push({ path: folder + FORMAT_FILES['json-flat'], data: serializeFileInParts(results) });
  return files;
}
