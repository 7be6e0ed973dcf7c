/**
 * Netlify: `_redirects` and `_headers`. The first matching redirect rule wins;
 * Netlify matches a path with or without its trailing slash, serves a file
 * that exists before any rule that is not forced, and can test query
 * parameters, so `?page=N` rules for the lists come before the rules that send
 * every path to its `index.json`. Those use one placeholder per segment and a
 * rule per depth: a splat would keep the trailing slash and give `//`. Netlify
 * ignores a custom Allow header, so `_headers` sets Content-Type, Vary and
 * the API's Access-Control-Allow-Origin only, and the pages' Content-Security-Policy. Netlify answers OPTIONS itself:
 * no rule can answer a browser's preflight.
 */
import { hasTrait, shapesOf, type Release } from '../model/releases.ts';
import { deepestPath, paginatedRoutes } from '../api/match.ts';
import { refusalOf, routesOf, type Route } from '../api/routes.ts';
import { EXTRA_FORMATS, formatFileName, formatRoutes } from '../api/formats.ts';
import type { Settings } from '../model/types.ts';
import { PAGE_SEGMENT, basePath } from '../api/urls.ts';
import { generatedBy } from './common.ts';
import { JSON_TYPE, VARY } from '../api/answers.ts';
import { ALLOW_ORIGIN } from '../api/cors.ts';
import { EXPORT_FILES, PAGE_FILE } from '../api/status-site-routes.ts';
import { PAGE_POLICY } from './published.ts';
import {
  aliasRules,
  fileFolders,
  folderPaths,
  pageHeaderPaths,
  redirectRules,
} from './status-site-rules.ts';

export function renderNetlifyRedirects(settings: Settings): string {
  const base = basePath(settings);
  return [
    `# ${generatedBy(settings, 'Netlify')}`,
    ...formatRules(settings.weblateVersion, base),
    '# ?page=N of a list → its page file (first match wins, so these come first).',
    ...paginatedRoutes(shapesOf(settings.weblateVersion))
      .filter((route) => refusalOf(route, shapesOf(settings.weblateVersion)) === undefined)
      .map((route) => pageRule(route, base)),
    '# Every other path → its index.json, one rule per depth.',
    ...depthRules(base, deepestPath(shapesOf(settings.weblateVersion))),
    ...(settings.pages ? statusSiteRedirects(base, settings.weblateVersion) : []),
    '',
  ].join('\n');
}

export function renderNetlifyHeaders(settings: Settings): string {
  const base = basePath(settings);
  // Rules for the request path and, when the API sits under a path, for the file path too.
  const paths = [...new Set([`${base}/api/*`, '/api/*'])];
  return [
    `# ${generatedBy(settings, 'Netlify')}`,
    ...paths.flatMap((path) => [
      path,
      `  Content-Type: ${JSON_TYPE}`,
      `  Vary: ${VARY}`,
      ...headerLines(ALLOW_ORIGIN),
    ]),
    // No type for the widget folders: they hold PNGs and pages beside the SVGs, and Netlify
    // types each file by its extension (an SVG without Weblate's charset parameter).
    ...(settings.pages
      ? pageHeaderPaths(base, shapesOf(settings.weblateVersion)).flatMap((path) => [
          path,
          `  Content-Security-Policy: ${PAGE_POLICY}`,
        ])
      : []),
    '',
  ].join('\n');
}

/**
 * The status site's rules, after the API's: 2026.8's 301s from the 4.x widget
 * paths; a chart at a language's prefix to the chart it stands for (at the
 * root, where Netlify serves a file at the path before a rule, those a
 * component inside categories shares a path with too), unless the release
 * draws that language's own chart there (a file); under a base path,
 * an export's files asked by name to themselves; an export folder asked with
 * `?format=csv` to its CSV, otherwise to its JSON. Netlify serves a page
 * folder's `index.html` itself; under a base path, pages and files are sent
 * to their place in the tree.
 */
function statusSiteRedirects(base: string, release: Release): string[] {
  const version = shapesOf(release);
  const atRoot = base === '';
  const aliases = hasTrait(release, 'languageChartRow') ? [] : aliasRules(version, atRoot);
  const rule = (from: string, to: string, status = 200, query = '') =>
    `${base}${from}${query ? ` ${query}` : ''} ${to} ${status}`;
  // A release without stats exports leaves their paths to the 404 page, as any other miss.
  const exportFolders = hasTrait(release, 'noStatsExports') ? [] : folderPaths(version, 'export');
  return [
    "# The status site: the 4.x widget paths (301), charts at a language's prefix, exports; pages are folders.",
    ...redirectRules(version).map(({ from, to }) => rule(from, `${base}${to}`, 301)),
    ...aliases.map(({ from, to }) => rule(from, to)),
    ...(atRoot
      ? []
      : exportFolders.flatMap((folder) =>
          Object.values(EXPORT_FILES).map((name) => rule(`${folder}/${name}`, `${folder}/${name}`)),
        )),
    ...exportFolders.map((folder) =>
      rule(folder, `${folder}/${EXPORT_FILES.csv}`, 200, 'format=csv'),
    ),
    ...exportFolders.map((folder) => rule(folder, `${folder}/${EXPORT_FILES.json}`)),
    ...(atRoot
      ? []
      : folderPaths(version, 'page').map((folder) => rule(folder, `${folder}/${PAGE_FILE}`))),
    ...(atRoot
      ? []
      : fileFolders(version).map((folder) => rule(`/${folder}/*`, `/${folder}/:splat`))),
  ];
}

// --- internal ---

/**
 * From 5.10: `?format=csv` and `?format=json-flat` of the statistics → their files. A rule needs
 * only its own parameters present, so a page's rules (`page` and `format`) come before the
 * format's, and both before the page rules.
 */
function formatRules(release: Release, base: string): string[] {
  const routes = formatRoutes(routesOf(shapesOf(release)), release);
  if (routes.length === 0) return [];
  const rule = (route: Route, query: string, to: readonly string[]) =>
    `${[`${base}/api`, ...route.pattern].join('/')} ${query} ${['/api', ...route.pattern, ...to].join('/')} 200`;
  return [
    '# ?format=csv and ?format=json-flat of the statistics → their files (pages first).',
    ...routes
      .filter((route) => route.paginated)
      .flatMap((route) =>
        EXTRA_FORMATS.map((format) =>
          rule(route, `page=:page format=${format}`, [
            PAGE_SEGMENT,
            ':page',
            formatFileName(route, format),
          ]),
        ),
      ),
    ...routes.flatMap((route) =>
      EXTRA_FORMATS.map((format) =>
        rule(route, `format=${format}`, [formatFileName(route, format)]),
      ),
    ),
  ];
}

function headerLines(headers: Readonly<Record<string, string>>): string[] {
  return Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`);
}

/** Route patterns already read as Netlify placeholders (`:project`). */
function pageRule(route: Route, base: string): string {
  const from = [`${base}/api`, ...route.pattern].join('/');
  const to = ['/api', ...route.pattern, PAGE_SEGMENT, ':page', 'index.json'].join('/');
  return `${from} page=:page ${to} 200`;
}

function depthRules(base: string, deepest: number): string[] {
  const rules: string[] = [];
  for (let depth = 0; depth <= deepest; depth++) {
    const names = Array.from({ length: depth }, (_, i) => `:s${i + 1}`);
    rules.push(
      `${[`${base}/api`, ...names].join('/')} ${['/api', ...names, 'index.json'].join('/')} 200`,
    );
  }
  return rules;
}
