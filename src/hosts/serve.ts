/**
 * `serve.json` for serve (serve-handler), read by `npx serve dist` and by the
 * preview. serve knows only `index.html` as a folder index, so one rewrite per
 * path depth sends `/api/a/b/` to `/api/a/b/index.json`; its parameters cannot
 * match a dot, because serve applies rewrites again to their result. Headers
 * are matched against the file served, every matching rule applies, and a
 * later rule wins a header an earlier one set: the first rule gives every API
 * file the API root's Allow, later ones correct it per resource kind, page
 * files last. The serve CLI accepts at most 50 header rules, which the 2026.8
 * flavour's longer table would pass: there a page rule is written only where
 * the rules before it would give the page another Allow than its list's, and
 * routes Weblate refuses an anonymous reader (no files) get none. The first
 * rule and the 404 page's also carry the API's Access-Control-Allow-Origin;
 * serve answers OPTIONS with the file, so a preflight gets that header alone.
 * With the status site, statusSiteRewrites() and statusSiteRedirects() add its folders,
 * charts and 301s from the site's route table, and header rules its SVG
 * and JSON types and its pages' Content-Security-Policy; serve cannot map `?format=csv` or name a CSV per project.
 * Its one 404 page, `404.html`, answers every miss: the site's HTML page when the site is on.
 */
import { hasTrait, shapesOf, type Release } from '../model/releases.ts';
import { deepestPath, isParam, pagePattern, paginatedRoutes } from '../api/match.ts';
import { refusalOf, routeOf, routesOf, type Route } from '../api/routes.ts';
import type { WeblateVersion } from '../model/defaults.ts';
import type { Settings } from '../model/types.ts';
import { NOT_FOUND_FILE } from './common.ts';
import { JSON_TYPE, VARY } from '../api/answers.ts';
import { CSV_TYPE, FORMAT_FILES } from '../api/formats.ts';
import {
  BADGE_FILE,
  basePath,
  CHART_COLORS,
  CHART_KINDS,
  chartFile,
  PROJECT_WIDGET_FILES,
} from '../api/urls.ts';
import {
  EXPORT_FILES,
  expandDepths,
  folderShapes,
  isStatusSiteParam,
  PAGE_FILE,
  statusSiteRoutesOf,
  type StatusSiteRoute,
  type FolderShape,
} from '../api/status-site-routes.ts';
import { contentTypeOf, PAGE_POLICY } from './published.ts';
import { ALLOW_ORIGIN } from '../api/cors.ts';

interface ServeHeaderRule {
  source: string;
  headers: { key: string; value: string }[];
}

export interface ServeConfig {
  directoryListing: boolean;
  cleanUrls: boolean;
  rewrites: { source: string; destination: string }[];
  /** The status site's 301s (2026.8's from the 4.x widget paths). */
  redirects?: { source: string; destination: string; type: number }[];
  headers: ServeHeaderRule[];
}

/** The serve-handler configuration of a site (without `public`, which the caller sets). */
export function serveConfig(settings: Settings): ServeConfig {
  const base = basePath(settings);
  const version = shapesOf(settings.weblateVersion);
  const redirects = settings.pages ? statusSiteRedirects(base, version) : [];
  return {
    directoryListing: false,
    cleanUrls: false,
    rewrites: [
      ...serveRewrites(base, version),
      ...(settings.pages ? statusSiteRewrites(base, settings.weblateVersion) : []),
    ],
    ...(redirects.length > 0 ? { redirects } : {}),
    headers: [
      ...serveHeaders(version),
      ...formatHeaders(settings),
      ...(settings.pages ? statusSiteHeaders(settings.weblateVersion) : []),
      notFoundHeaders(settings.pages),
    ],
  };
}

/**
 * The CSV answers of the statistics (5.10 and later) as Weblate types them. serve cannot map a
 * query: a reader asks for the file (`…/statistics/index.csv`); the preview maps `?format=csv`.
 */
function formatHeaders(settings: Settings): ServeHeaderRule[] {
  if (!hasTrait(settings.weblateVersion, 'statisticsFormats')) return [];
  return [
    {
      source: `api/**/${FORMAT_FILES.csv}`,
      headers: [{ key: 'Content-Type', value: CSV_TYPE }],
    },
  ];
}

/** The text of serve.json. */
export function renderServeConfig(settings: Settings): string {
  return JSON.stringify(serveConfig(settings), null, 2) + '\n';
}

// --- internal ---

function serveRewrites(base: string, version: WeblateVersion): ServeConfig['rewrites'] {
  const rewrites: ServeConfig['rewrites'] = [];
  for (let depth = 0; depth <= deepestPath(version); depth++) {
    const names = Array.from({ length: depth }, (_, i) => `s${i + 1}`);
    rewrites.push({
      source: [`${base}/api`, ...names.map((name) => `:${name}([^/.]+)`)].join('/'),
      destination: ['/api', ...names.map((name) => `:${name}`), 'index.json'].join('/'),
    });
  }
  return rewrites;
}

/**
 * The status site's rewrites. serve looks for a file at the path first, then
 * applies the first rule that matches, then the remaining rules again to its
 * result. So: a chart at a language's prefix goes to the chart it stands for
 * (of the charts whose path a component inside categories may share, only
 * the one-segment component's, and only at the root, where a file at the
 * path is found first), unless the release draws that language's own chart
 * there, a file like the others; under a base path each file goes to its own path in
 * the tree, the exports' files asked by name too; then every export folder
 * goes to its `index.json` and page folder to its `index.html`, one rule per
 * depth. A parameter never matches a dot, so no rule takes a result for a
 * folder again.
 */
function statusSiteRewrites(base: string, release: Release): ServeConfig['rewrites'] {
  const version = shapesOf(release);
  const routes = statusSiteRoutesOf(version);
  const languageCharts = hasTrait(release, 'languageChartRow');
  // A release without stats exports leaves their paths to the 404 page, as any other miss.
  const exportShapes = hasTrait(release, 'noStatsExports') ? [] : folderShapes(version, 'export');
  const isFile = (route: StatusSiteRoute) =>
    route.serves.kind === 'file' || (languageCharts && route.serves.kind === 'alias');
  const aliases = routes.flatMap((route) => {
    if (route.serves.kind !== 'alias' || languageCharts) return [];
    if (!route.serves.lookFirst) return expandDepths(route, version);
    return base === '' ? expandDepths(route, version).slice(0, 1) : [];
  });
  const files =
    base === ''
      ? []
      : routes.flatMap((route) => (isFile(route) ? expandDepths(route, version) : []));
  const rule = (pattern: readonly string[], to: readonly string[]) => ({
    source: `${base}${sourceOf(pattern)}` || '/',
    destination: destinationOf(to),
  });
  const folder = (shape: FolderShape, index: string) =>
    depths(shape).map((depth) =>
      rule(folderPattern(shape, depth), [...folderPattern(shape, depth), index]),
    );
  const exportFiles =
    base === ''
      ? []
      : exportShapes.flatMap((shape) =>
          depths(shape).flatMap((depth) =>
            [EXPORT_FILES.json, EXPORT_FILES.csv].map((name) =>
              rule([...folderPattern(shape, depth), name], [...folderPattern(shape, depth), name]),
            ),
          ),
        );
  return [
    ...aliases.map(({ pattern, to }) => rule(pattern, to!)),
    ...files.map(({ pattern }) => rule(pattern, pattern)),
    ...exportFiles,
    ...exportShapes.flatMap((shape) => folder(shape, EXPORT_FILES.json)),
    ...folderShapes(version, 'page').flatMap((shape) => folder(shape, PAGE_FILE)),
  ];
}

/** A folder shape at one depth as a pattern: its literals, then `:s1`, `:s2`, … */
function folderPattern(shape: FolderShape, depth: number): string[] {
  return [...shape.prefix, ...Array.from({ length: depth }, (_, i) => `:s${i + 1}`)];
}

function statusSiteRedirects(
  base: string,
  version: WeblateVersion,
): NonNullable<ServeConfig['redirects']> {
  return statusSiteRoutesOf(version).flatMap((route) =>
    route.serves.kind === 'redirect'
      ? [
          {
            source: `${base}${sourceOf(route.pattern)}`,
            destination: `${base}${destinationOf(route.serves.to)}`,
            type: 301,
          },
        ]
      : [],
  );
}

/** Types serve's own table gives otherwise: SVG without its charset, the exports' JSON with one. */
function statusSiteHeaders(release: Release): ServeHeaderRule[] {
  const widgets = new Set(
    statusSiteRoutesOf(shapesOf(release)).flatMap((route) =>
      route.serves.kind === 'file' && route.pattern[0]!.startsWith('widget')
        ? [route.pattern[0]!]
        : [],
    ),
  );
  return [
    ...[...widgets].map((folder) => ({
      // The SVGs only: the folders also hold PNG widgets, and 4.x's widgets pages.
      source: `${folder}/**/*.svg`,
      headers: [{ key: 'Content-Type', value: contentTypeOf(BADGE_FILE) }],
    })),
    ...(hasTrait(release, 'noStatsExports')
      ? []
      : [
          {
            source: `exports/stats/**/${EXPORT_FILES.json}`,
            headers: [{ key: 'Content-Type', value: JSON_TYPE }],
          },
        ]),
    // Only pages are called index.html: the API's files are index.json.
    {
      source: `**/${PAGE_FILE}`,
      headers: [{ key: 'Content-Security-Policy', value: PAGE_POLICY }],
    },
  ];
}

/** A pattern as a serve source: literals, and each parameter with what it may match (path-to-regexp escapes no `|`). */
function sourceOf(pattern: readonly string[]): string {
  const param = (part: string) => {
    const name = part.slice(1);
    const names = { ':chart': CHART_NAMES, ':widget': WIDGET_NAMES, ':image': IMAGE_NAMES }[part];
    if (names !== undefined) return `:${name}(${names})`;
    return `:${name}(${SEGMENT})`;
  };
  return pattern.map((part) => `/${isStatusSiteParam(part) ? param(part) : part}`).join('');
}

function destinationOf(pattern: readonly string[]): string {
  return pattern.map((part) => `/${part}`).join('');
}

function depths(shape: FolderShape): number[] {
  return Array.from({ length: shape.max - shape.min + 1 }, (_, i) => shape.min + i);
}

/** One segment that is no file name (serve rewrites its own results again). */
const SEGMENT = '[^/.]+';
/** The charts' file names, and the badge's with them, as alternatives of a parameter. */
const CHART_NAMES = CHART_KINDS.flatMap((kind) =>
  CHART_COLORS.map((color) => chartFile(kind, color).replace('.', '\\.')),
).join('|');
const WIDGET_NAMES = [BADGE_FILE.replace('.', '\\.'), CHART_NAMES].join('|');
/** A project's other widgets (PNGs, the language badge, the matrix). */
const IMAGE_NAMES = PROJECT_WIDGET_FILES.map((name) => name.replace('.', '\\.')).join('|');

function serveHeaders(version: WeblateVersion): ServeHeaderRule[] {
  const fallback = routeOf('root').allow;
  const allowRule = (pattern: readonly string[], allow: string): ServeHeaderRule => ({
    source: fileGlob(pattern),
    headers: [{ key: 'Allow', value: allow }],
  });
  const served = (route: Route) => refusalOf(route, version) === undefined;
  const routeRules = routesOf(version)
    .filter((route) => served(route) && route.allow !== fallback)
    .map((route) => allowRule(route.pattern, route.allow));
  const pageRules = paginatedRoutes(version)
    .filter(served)
    .filter((route) => version === '4' || allowBefore(route, routeRules, fallback) !== route.allow)
    .map((route) => allowRule(pagePattern(route), route.allow));
  return [
    {
      source: 'api/**',
      headers: [
        { key: 'Content-Type', value: JSON_TYPE },
        { key: 'Vary', value: VARY },
        { key: 'Allow', value: fallback },
        ...headerList(ALLOW_ORIGIN),
      ],
    },
    ...routeRules,
    ...pageRules,
  ];
}

/**
 * The headers of the one 404 page serve has for every miss: the API's JSON
 * body, or with the status site its HTML page (with the pages' policy). Either
 * keeps the API's Access-Control-Allow-Origin, since serve sends it for misses
 * under the API too.
 */
function notFoundHeaders(pages: boolean): ServeHeaderRule {
  const type = pages
    ? [
        { key: 'Content-Type', value: contentTypeOf(PAGE_FILE) },
        { key: 'Content-Security-Policy', value: PAGE_POLICY },
      ]
    : [
        { key: 'Content-Type', value: JSON_TYPE },
        { key: 'Vary', value: VARY },
      ];
  return { source: NOT_FOUND_FILE, headers: [...type, ...headerList(ALLOW_ORIGIN)] };
}

/** The Allow a page file of the route's list gets from `rules` alone (the last that matches it wins). */
function allowBefore(route: Route, rules: readonly ServeHeaderRule[], fallback: string): string {
  const page = fileGlob(pagePattern(route)).replace(/\*/g, '2');
  const last = rules.findLast((rule) => globMatches(rule.source, page));
  return last ? last.headers[0]!.value : fallback;
}

function headerList(headers: Readonly<Record<string, string>>): { key: string; value: string }[] {
  return Object.entries(headers).map(([key, value]) => ({ key, value }));
}

/** Whether a glob of `*` (one segment) and literal segments matches a file path. */
function globMatches(glob: string, path: string): boolean {
  const parts = glob.split('/');
  const segments = path.split('/');
  return (
    parts.length === segments.length &&
    parts.every((part, i) => part === '*' || part === segments[i])
  );
}

/** The glob of the files of a pattern: `api/`, the segments with `*` for each parameter, `/index.json`. */
function fileGlob(pattern: readonly string[]): string {
  return ['api', ...pattern.map((part) => (isParam(part) ? '*' : part)), 'index.json'].join('/');
}
