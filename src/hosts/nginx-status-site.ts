/**
 * nginx for the status site (written when `settings.pages` is on): one regex
 * location per route of the status site's table (api/status-site-routes.ts), as nginx.ts
 * writes one per API route. A 4.x widget path of 2026.8 returns its 301; a
 * chart at a language's prefix tries a file at its own path, then the chart
 * it stands for (try_files looks first, so the charts of components inside
 * categories keep their own files); a file is tried at its path; a page or
 * export folder without its slash returns a 301 to it (relative, as Django's
 * APPEND_SLASH sends it), and with it serves `index.html`, or an export's
 * `index.json` or, by path or `?format=csv`, its `index.csv` with the file
 * name Weblate gives it. A page is sent with the pages' Content-Security-Policy
 * (on a 200 only). A miss is the site's own 404 page, `404.html`, from a named location. Only the API takes
 * `?format=` as a renderer, so the server's check of it is kept to the API.
 */
import {
  EXPORT_FILES,
  isStatusSiteParam,
  PAGE_FILE,
  patternRegex,
  statusSiteRoutesOf,
  type StatusSiteRoute,
} from '../api/status-site-routes.ts';
import type { WeblateVersion } from '../model/defaults.ts';
import { hasTrait, shapesOf, type Release } from '../model/releases.ts';
import { NOT_FOUND_FILE } from './common.ts';
import { contentTypeOf, PAGE_POLICY } from './published.ts';

/** Maps for the http context: which `?format=` is unknown (the API's only), and what an export serves (in a release with exports). */
export function statusSiteMaps(base: string, release: Release): string[] {
  return [
    '',
    '# The status site: only the API takes ?format= as a renderer (pages ignore it, an export reads csv).',
    'map "$arg_format&$uri" $weblate_snapshot_unknown_format {',
    '    default 0;',
    '    "~^(json|api)?&" 0;',
    `    "~^[^&]*&${escapeRegex(base)}/api(?:/|$)" 1;`,
    '}',
    ...(hasTrait(release, 'noStatsExports') ? [] : EXPORT_MAPS),
    '',
    '# The slug of a component at the end of its path through categories.',
    'map $weblate_snapshot_component $weblate_snapshot_component_slug {',
    '    "~(?<weblate_snapshot_last>[^/]+)$" $weblate_snapshot_last;',
    '}',
  ];
}

/** The server's types and charset with the status site: its text files are UTF-8, as Weblate sends them. */
export function statusSiteTypes(): string[] {
  const types = ['json', 'html', 'css', 'svg', 'csv', 'png'].map(
    (extension) => `${contentTypeOf(`x.${extension}`).split(';')[0]} ${extension};`,
  );
  const texts = ['html', 'css', 'csv', 'svg'].map(
    (extension) => contentTypeOf(`x.${extension}`).split(';')[0],
  );
  return [
    'charset utf-8;',
    `charset_types ${texts.join(' ')};`,
    `types { ${types.join(' ')} }`,
    'absolute_redirect off;',
  ];
}

/**
 * One location per route of the status site: redirects, then charts at a language's
 * prefix (which look for their own file first), then files, then folders;
 * and below each of the status site's folders a prefix location that answers what no
 * route matched with the site's HTML 404. A release without stats exports has no route for
 * them: the catch-all answers them so.
 */
export function statusSiteLocations(base: string, release: Release): string[][] {
  const version = shapesOf(release);
  const exports = !hasTrait(release, 'noStatsExports');
  const routes = statusSiteRoutesOf(version).filter(
    (route) => exports || route.serves.kind !== 'export',
  );
  const order: StatusSiteRoute['serves']['kind'][] = [
    'redirect',
    'alias',
    'file',
    'page',
    'export',
  ];
  const folders = [...new Set(routes.flatMap((route) => route.pattern.slice(0, 1)))];
  return [
    ...order.flatMap((kind) =>
      routes
        .filter((route) => route.serves.kind === kind)
        .map((route) => statusSiteLocation(route, base, version)),
    ),
    ...folders.map((folder) => [
      `location ${base}/${folder}/ {`,
      `    ${SITE_NOT_FOUND}`,
      '    return 404;',
      '}',
    ]),
  ];
}

/**
 * What a miss outside the API gets with the status site: the site's 404 page,
 * sent with status 404 (`error_page` without `=` keeps it) and the pages'
 * policy; and the catch-all location, whose misses are outside the API (a
 * prefix location for the API, written by the caller, keeps its JSON 404).
 */
export function statusSiteNotFoundLocations(): string[][] {
  return [
    [
      `location ${SITE_NOT_FOUND_LOCATION} {`,
      `    add_header Content-Security-Policy "${PAGE_POLICY}" always;`,
      `    rewrite ^ /${NOT_FOUND_FILE} break;`,
      '}',
    ],
    ['location / {', `    ${SITE_NOT_FOUND}`, '    return 404;', '}'],
  ];
}

// --- internal ---

/** What an export folder serves, and the name Weblate gives its CSV. */
const EXPORT_MAPS = [
  '',
  '# A stats export: its CSV by path or ?format=csv, its JSON otherwise (as Weblate falls back).',
  'map "$weblate_snapshot_end&$arg_format" $weblate_snapshot_export {',
  `    default ${EXPORT_FILES.json};`,
  `    "~^/index\\.csv&" ${EXPORT_FILES.csv};`,
  `    "/&csv" ${EXPORT_FILES.csv};`,
  '}',
  '',
  'map $weblate_snapshot_export $weblate_snapshot_disposition {',
  '    default "";',
  `    ${EXPORT_FILES.csv} "attachment; filename=$weblate_snapshot_csv_name";`,
  '}',
];

const SITE_NOT_FOUND_LOCATION = '@weblate_snapshot_site_not_found';
/** A location's misses (its `return 404` and its try_files' `=404`) answered with the site's 404 page. */
const SITE_NOT_FOUND = `error_page 404 ${SITE_NOT_FOUND_LOCATION};`;

function statusSiteLocation(
  route: StatusSiteRoute,
  base: string,
  version: WeblateVersion,
): string[] {
  const captured = patternRegex(
    route.pattern,
    version,
    (param) => `(?<${variable(param).slice(1)}>`,
  ).replaceAll('\\/', '/');
  const prefix = escapeRegex(base);
  const serves = route.serves;
  const block = (regex: string, body: string[]) => [
    `# ${route.kind}`,
    `location ~ "${regex}" {`,
    ...[SITE_NOT_FOUND, ...body].map((line) => `    ${line}`),
    '}',
  ];
  switch (serves.kind) {
    case 'redirect':
      return block(`^${prefix}${captured}$`, [
        `return 301 ${base}${target(serves.to)}$is_args$args;`,
      ]);
    case 'alias':
      return block(`^${prefix}(?<weblate_snapshot_file>${captured})$`, [
        `try_files $weblate_snapshot_file ${target(serves.to)} =404;`,
      ]);
    case 'file':
      return block(`^${prefix}(?<weblate_snapshot_file>${captured})$`, [
        'try_files $weblate_snapshot_file =404;',
      ]);
    case 'page':
      return block(
        `^${prefix}(?<weblate_snapshot_dir>${captured})(?<weblate_snapshot_end>/|/index\\.html)?$`,
        [
          ...slashRedirect(base),
          `add_header Content-Security-Policy "${PAGE_POLICY}";`,
          `try_files $weblate_snapshot_dir/${PAGE_FILE} =404;`,
        ],
      );
    case 'export': {
      const name = route.pattern.includes(':component')
        ? 'stats-${weblate_snapshot_project}-${weblate_snapshot_component_slug}.csv'
        : 'stats-${weblate_snapshot_project}.csv';
      return block(
        `^${prefix}(?<weblate_snapshot_dir>${captured})(?<weblate_snapshot_end>/|/index\\.json|/index\\.csv)?$`,
        [
          ...slashRedirect(base),
          `set $weblate_snapshot_csv_name ${name};`,
          'add_header Content-Disposition $weblate_snapshot_disposition;',
          'try_files $weblate_snapshot_dir/$weblate_snapshot_export =404;',
        ],
      );
    }
  }
}

/** A folder asked for without its slash: a 301 to it, the query kept. */
function slashRedirect(base: string): string[] {
  return [
    'if ($weblate_snapshot_end = "") {',
    `    return 301 ${base}$weblate_snapshot_dir/$is_args$args;`,
    '}',
  ];
}

/** A route's target with the location's captures: `/widget/$weblate_snapshot_project/$weblate_snapshot_widget`. */
function target(pattern: readonly string[]): string {
  return pattern.map((part) => `/${isStatusSiteParam(part) ? variable(part) : part}`).join('');
}

/** The variable a parameter's capture sets: `:project` → `$weblate_snapshot_project`. */
function variable(param: string): string {
  return `$weblate_snapshot_${param.slice(1)}`;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
