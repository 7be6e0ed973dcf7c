/**
 * The CloudFront Function's part for the status site (written when
 * `settings.pages` is on), from the status site's route table. CloudFront cannot look
 * for a key before it rewrites, so, as on Cloudflare Pages, a chart at a
 * language's prefix goes to the chart it stands for only where no file can
 * have that path, and only where the release draws no chart of that language's own
 * (`languageCharts`: then it is a file, its own key). The viewer request sends 2026.8's 4.x widget paths to
 * their 301, a page folder to its `index.html` and an export folder to its
 * `index.json` or (by path or `?format=csv`) `index.csv`, and a folder
 * without its slash to a 301 to it; every other status site path is its own key.
 * The viewer response names a CSV export as Weblate does, and gives an HTML
 * answer (a page) the pages' Content-Security-Policy. Kept short: the
 * function must stay within CloudFront's 10 KB.
 */
import {
  EXPORT_FILES,
  folderShapes,
  isStatusSiteParam,
  PAGE_FILE,
  statusSiteRoutesOf,
  type FolderShape,
} from '../api/status-site-routes.ts';
import { BADGE_FILE, CHART_COLORS, CHART_KINDS, PROJECT_WIDGET_FILES } from '../api/urls.ts';
import type { WeblateVersion } from '../model/defaults.ts';
import { PAGE_POLICY } from './published.ts';

/** The declarations, the viewer request's step and the viewer response's step of the site. */
export function statusSiteFunctionParts(
  version: WeblateVersion,
  languageCharts: boolean,
): {
  declarations: string;
  request: string;
  response: string;
} {
  const rules = [
    ...statusSiteRoutesOf(version).flatMap((route) => {
      const serves = route.serves;
      if (serves.kind === 'redirect')
        return [
          `[${regexOf(route.pattern)}, 'r', ${JSON.stringify(targetOf(serves.to, route.pattern))}]`,
        ];
      if (serves.kind === 'alias' && !serves.lookFirst && !languageCharts)
        return [
          `[${regexOf(route.pattern)}, 'a', ${JSON.stringify(targetOf(serves.to, route.pattern))}]`,
        ];
      return [];
    }),
    ...folderShapes(version, 'export').map(
      (shape) => `[${folderRegex(shape, [EXPORT_FILES.json, EXPORT_FILES.csv])}, 'e']`,
    ),
    ...folderShapes(version, 'page').map((shape) => `[${folderRegex(shape, [PAGE_FILE])}, 'p']`),
  ];
  return {
    declarations: `// The status site: [the path after BASE, what it is (r a 301, a a chart at a language's prefix, e an export's folder, p a page's), where to]
var SITE = [
${rules.map((rule) => `  ${rule}`).join(',\n')}
];
var CSV = /^\\/exports\\/stats\\/([^\\/]+)(?:\\/(?:[^\\/]+\\/)*([^\\/]+))?\\/${escape(EXPORT_FILES.csv)}$/;
`,
    request: `  var site = mapSite(request);
  if (site) return site;`,
    response: `  var csv = CSV.exec(event.request.uri.slice(BASE.length));
  if (csv && event.response.statusCode === 200) {
    event.response.headers['content-disposition'] = { value: 'attachment; filename=stats-' + csv[1] + (csv[2] ? '-' + csv[2] : '') + '.csv' };
  }
  var type = event.response.headers['content-type'];
  if (type && type.value.indexOf('text/html') === 0) event.response.headers['content-security-policy'] = { value: ${JSON.stringify(PAGE_POLICY)} };`,
  };
}

/** The site's functions, beside mapRequest and addHeaders. */
export const STATUS_SITE_FUNCTIONS = `
function mapSite(request) {
  if (request.uri.slice(0, BASE.length) !== BASE) return null;
  var rest = request.uri.slice(BASE.length);
  for (var i = 0; i < SITE.length; i++) {
    var found = SITE[i][0].exec(rest);
    if (!found) continue;
    var kind = SITE[i][1];
    if (kind === 'r') return moved(BASE + rest.replace(SITE[i][0], SITE[i][2]), request);
    if (kind === 'a') {
      request.uri = BASE + rest.replace(SITE[i][0], SITE[i][2]);
      return request;
    }
    if (found[2] === undefined) return moved(BASE + found[1] + '/', request);
    var format = request.querystring.format;
    var csv = found[2] === '/${EXPORT_FILES.csv}' || (found[2] === '/' && format && format.value === 'csv');
    request.uri = BASE + found[1] + '/' + (kind === 'p' ? '${PAGE_FILE}' : csv ? '${EXPORT_FILES.csv}' : '${EXPORT_FILES.json}');
    return request;
  }
  return null;
}

function moved(location, request) {
  var query = [];
  for (var key in request.querystring) query.push(key + '=' + request.querystring[key].value);
  if (query.length) location += '?' + query.join('&');
  return { statusCode: 301, statusDescription: 'Moved Permanently', headers: { location: { value: location } } };
}
`;

// --- internal ---

/** One segment: no slug or code has a dot, so an index file asked for by name is never taken for one. */
const ONE = '([^\\/.]+)';
const CHART = `((?:${CHART_KINDS.join('|')})-(?:${CHART_COLORS.join('|')})\\.svg)`;
const WIDGET = `(${escape(BADGE_FILE)}|(?:${CHART_KINDS.join('|')})-(?:${CHART_COLORS.join('|')})\\.svg)`;
const IMAGE = `(${PROJECT_WIDGET_FILES.map(escape).join('|')})`;

/** A route's pattern as a regular expression literal over the path after BASE, each parameter a numbered group. */
function regexOf(pattern: readonly string[]): string {
  const part = (segment: string) => {
    if (segment === ':chart') return CHART;
    if (segment === ':widget') return WIDGET;
    if (segment === ':image') return IMAGE;
    return isStatusSiteParam(segment) ? ONE : escape(segment);
  };
  return `/^${pattern.map((segment) => `\\/${part(segment)}`).join('')}$/`;
}

/** A target with `$n` for the pattern's n-th parameter. */
function targetOf(to: readonly string[], pattern: readonly string[]): string {
  const params = pattern.filter(isStatusSiteParam);
  return to
    .map((part) => `/${isStatusSiteParam(part) ? `$${params.indexOf(part) + 1}` : part}`)
    .join('');
}

/** A folder shape as a regular expression literal: the folder (group 1), then its slash or an index file by name (group 2). */
function folderRegex(shape: FolderShape, files: readonly string[]): string {
  const prefix = shape.prefix.map((segment) => `\\/${escape(segment)}`).join('');
  const depth = shape.max === 0 ? '' : `(?:\\/[^\\/.]+){${shape.min},${shape.max}}`;
  const ends = ['\\/', ...files.map((file) => `\\/${escape(file)}`)].join('|');
  return `/^(${prefix}${depth})(${ends})?$/`;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
