/**
 * Cloudflare Pages: `_redirects` and `_headers`. Pages applies `_redirects`
 * before it looks for a file, follows only the first rule that matches, and
 * drops the query of a source, so `?page=N` cannot be mapped (build with
 * `pagination: path`). Static rules must precede dynamic ones, which are
 * limited to 100. Three dynamic rules send every path to its `index.json`:
 * a direct `…/index.json` request to itself, `…/x/` and `…/x` to
 * `…/x/index.json`.
 *
 * `_headers` rules are matched against the requested path, at most 100 of
 * them; every matching rule applies, in order, and a header set twice is
 * joined with a comma unless a later rule detaches it first (`! Allow`). So
 * each rule detaches Allow and sets its own: the last matching rule wins.
 * The rules run from the API root to the deepest routes, each matching its
 * resource and everything below it (`/api/projects/:project*`). Then come
 * the paths a deeper route's placeholders would otherwise claim: a list's
 * file asked for by name (`/api/projects/index.json`, which
 * `/api/projects/:project*` matches) and the page rules (`…/~page/*`). The
 * first rule also gives every answer under the API (its 404 page included)
 * `Access-Control-Allow-Origin: *`; Pages answers OPTIONS with its own 405,
 * so a browser's preflight cannot pass there.
 */
import { hasTrait, shapesOf, type Release } from '../model/releases.ts';
import { isParam, paginatedRoutes } from '../api/match.ts';
import { refusalOf, routesOf, type Route } from '../api/routes.ts';
import type { Settings } from '../model/types.ts';
import { PAGE_SEGMENT, basePath } from '../api/urls.ts';
import { generatedBy } from './common.ts';
import { JSON_TYPE, VARY } from '../api/answers.ts';
import { ALLOW_ORIGIN } from '../api/cors.ts';
import {
  EXPORT_FILES,
  expandDepths,
  exportFileName,
  isStatusSiteParam,
  statusSiteRoutesOf,
  PAGE_FILE,
} from '../api/status-site-routes.ts';
import { BADGE_FILE } from '../api/urls.ts';
import { contentTypeOf, PAGE_POLICY } from './published.ts';
import {
  aliasRules,
  fileFolders,
  folderPaths,
  folderPrefixes,
  notSvgInWidgetFolders,
  redirectRules,
} from './status-site-rules.ts';

export function renderCloudflareRedirects(settings: Settings): string {
  const base = basePath(settings);
  const api = `${base}/api`;
  const pages = settings.pages;
  return [
    `# ${generatedBy(settings, 'Cloudflare Pages')}`,
    '# Static rules first: Pages counts every rule after the first dynamic one as dynamic.',
    `${api} /api/index.json 200`,
    `${api}/ /api/index.json 200`,
    `${api}/index.json /api/index.json 200`,
    ...(pages && base !== '' ? [`${base} / 200`, `${base}/ / 200`] : []),
    `${api}/*/index.json /api/:splat/index.json 200`,
    `${api}/*/ /api/:splat/index.json 200`,
    `${api}/* /api/:splat/index.json 200`,
    ...(pages ? statusSiteRedirects(base, settings.weblateVersion) : []),
    '',
  ].join('\n');
}

/**
 * The status site's dynamic rules. Pages follows a rule whether or not a
 * file is at the path, so a chart at a language's prefix goes to the chart it
 * stands for only where no file can have that path (not those a component
 * inside categories shares a path with), and only where the release draws no
 * chart of that language's own (a file, served as the others). An export's files asked by name go
 * to themselves, its folder to its JSON (Pages drops the query: the CSV is
 * asked by path); a page folder, with or without its slash, to the folder
 * (Pages serves its `index.html`); under a base path the files to theirs.
 */
function statusSiteRedirects(base: string, release: Release): string[] {
  const version = shapesOf(release);
  const aliases = hasTrait(release, 'languageChartRow') ? [] : aliasRules(version, false);
  // A release without stats exports leaves their paths to the 404 page, as any other miss.
  const exports = hasTrait(release, 'noStatsExports') ? [] : folderPrefixes(version, 'export');
  const files = new Set(fileFolders(version).map((folder) => `/${folder}`));
  const pagePrefixes = folderPrefixes(version, 'page').filter((prefix) => !files.has(prefix));
  const insideFiles = folderPaths(version, 'page').filter((path) =>
    files.has(`/${path.split('/')[1]!}`),
  );
  return [
    ...redirectRules(version).map(({ from, to }) => `${base}${from} ${base}${to} 301`),
    ...aliases.map(({ from, to }) => `${base}${from} ${to} 200`),
    ...exports.flatMap((prefix) =>
      Object.values(EXPORT_FILES).map(
        (name) => `${base}${prefix}/*/${name} ${prefix}/:splat/${name} 200`,
      ),
    ),
    ...exports.flatMap((prefix) => [
      `${base}${prefix}/*/ ${prefix}/:splat/${EXPORT_FILES.json} 200`,
      `${base}${prefix}/* ${prefix}/:splat/${EXPORT_FILES.json} 200`,
    ]),
    // A page inside a file folder (4.x's widgets page) at its own depth only: a splat would take the files.
    ...insideFiles.flatMap((path) => [
      `${base}${path}/ ${path}/ 200`,
      `${base}${path} ${path}/ 200`,
    ]),
    ...pagePrefixes.flatMap((prefix) => [
      `${base}${prefix}/*/ ${prefix}/:splat/ 200`,
      `${base}${prefix}/* ${prefix}/:splat/ 200`,
    ]),
    ...(base === ''
      ? []
      : fileFolders(version).map((folder) => `${base}/${folder}/* /${folder}/:splat 200`)),
  ];
}

export function renderCloudflareHeaders(settings: Settings): string {
  const api = `${basePath(settings)}/api`;
  const version = shapesOf(settings.weblateVersion);
  // Routes Weblate refuses an anonymous reader have no files to give headers to.
  const routes = routesOf(version).filter((route) => refusalOf(route, version) === undefined);
  const [root, ...others] = [...routes].sort((a, b) => a.pattern.length - b.pattern.length);
  return [
    `# ${generatedBy(settings, 'Cloudflare Pages')}`,
    '# Every rule detaches Allow before setting it, so the last matching rule wins.',
    `${api}*`,
    `  Content-Type: ${JSON_TYPE}`,
    `  Vary: ${VARY}`,
    `  Allow: ${root!.allow}`,
    `  Access-Control-Allow-Origin: ${ALLOW_ORIGIN['Access-Control-Allow-Origin']}`,
    ...others.flatMap((route) => allowRule(`${pathOf(api, route)}*`, route.allow)),
    ...routes
      .filter((route) => hasParamChild(route, routes))
      .flatMap((route) => allowRule(`${pathOf(api, route)}/index.json`, route.allow)),
    ...paginatedRoutes(version)
      .filter((route) => routes.includes(route))
      .flatMap((route) => allowRule(`${pathOf(api, route)}/${PAGE_SEGMENT}/*`, route.allow)),
    ...(settings.pages
      ? statusSiteHeaders(
          basePath(settings),
          settings.weblateVersion,
          settings.pngWidgets === 'all',
        )
      : []),
    '',
  ].join('\n');
}

/** The SVG's charset, a CSV export's type and the name Weblate gives it (placeholders fill header values), the pages' policy. */
function statusSiteHeaders(base: string, release: Release, allPngs: boolean): string[] {
  const version = shapesOf(release);
  // With PNGs in every widget folder, a rule for each would pass the 100: Pages types by extension.
  const svg = allPngs ? [] : fileFolders(version).filter((folder) => folder.startsWith('widget'));
  const notSvg = allPngs ? { png: [], pages: [] } : notSvgInWidgetFolders(version);
  const exports = !hasTrait(release, 'noStatsExports');
  const csv = statusSiteRoutesOf(version).flatMap((route) =>
    exports && route.serves.kind === 'export' ? expandDepths(route, version) : [],
  );
  // Pages matches the requested path only: a page's path under the base path.
  const pages = ['/', ...folderPrefixes(version, 'page').map((prefix) => `${prefix}/*`)];
  return [
    ...svg.flatMap((folder) => [
      `${base}/${folder}/*`,
      `  Content-Type: ${contentTypeOf(BADGE_FILE)}`,
    ]),
    // The folders' PNG widgets and pages: the SVG type detached, their own set.
    ...notSvg.png.flatMap((path) => [
      `${base}${path}`,
      '  ! Content-Type',
      `  Content-Type: ${contentTypeOf(path)}`,
    ]),
    ...notSvg.pages.flatMap((path) => [
      `${base}${path}/`,
      '  ! Content-Type',
      `  Content-Type: ${contentTypeOf(PAGE_FILE)}`,
    ]),
    ...pages.flatMap((path) => [`${base}${path}`, `  Content-Security-Policy: ${PAGE_POLICY}`]),
    ...csv.flatMap(({ pattern }) => {
      const params = pattern.filter(isStatusSiteParam);
      const name = exportFileName(params[0]!, params.length > 1 ? params.at(-1)! : null);
      return [
        `${base}${pattern.map((part) => `/${part}`).join('')}/${EXPORT_FILES.csv}`,
        `  Content-Type: ${contentTypeOf(EXPORT_FILES.csv)}`,
        `  Content-Disposition: attachment; filename=${name}`,
      ];
    }),
  ];
}

// --- internal ---

function allowRule(path: string, allow: string): string[] {
  return [path, '  ! Allow', `  Allow: ${allow}`];
}

/** Whether a route one segment deeper starts with a placeholder, which `index.json` would fill. */
function hasParamChild(route: Route, routes: readonly Route[]): boolean {
  return routes.some(
    (other) =>
      other.pattern.length === route.pattern.length + 1 &&
      isParam(other.pattern.at(-1)!) &&
      route.pattern.every((part, i) => other.pattern[i] === part),
  );
}

/** Route patterns already read as Pages placeholders (`:project`). */
function pathOf(api: string, route: Route): string {
  return [api, ...route.pattern].join('/');
}
