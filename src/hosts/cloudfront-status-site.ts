/**
 * The CloudFront Function's part for the status site (written when
 * `settings.pages` is on), from the status site's route table. CloudFront cannot look
 * for a key before it rewrites, so, as on Cloudflare Pages, a chart at a
 * language's prefix goes to the chart it stands for only where no file can
 * have that path, and only where the release draws no chart of that language's own
 * (`languageCharts`: then it is a file, its own key). The viewer request sends 2026.8's 4.x widget paths to
 * their 301, a page folder to its `index.html` and an export folder to its
 * `index.json` or (by path or `?format=csv`) `index.csv`, and a folder
 * without its slash to a 301 to it; every other status site path is its own key (an export's
 * too, in a release without `exports`: a key no bucket holds, the site's 404).
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

/** The declarations, the viewer request's and response's steps, and the functions of the site. */
export function statusSiteFunctionParts(
  version: WeblateVersion,
  { languageCharts, exports }: { languageCharts: boolean; exports: boolean },
): {
  declarations: string;
  request: string;
  response: string;
  functions: string;
} {
  const routes = [
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
  ];
  const rules = [
    ...routes,
    ...(exports ? folderShapes(version, 'export') : []).map(
      (shape) => `[${folderRegex([shape], [EXPORT_FILES.json, EXPORT_FILES.csv])}, 'e']`,
    ),
    // The page folders in one expression: their prefixes differ, so at most one part matches.
    `[${folderRegex(folderShapes(version, 'page'), [PAGE_FILE])}, 'p']`,
  ];
  const aliases = routes.some((rule) => rule.includes(", 'a', "));
  return {
    declarations: `// The status site: [the path after BASE, r a 301 | a a chart at a language's prefix | e an export | p a page, target]
var SITE = [
${rules.map((rule) => `  ${rule}`).join(',\n')}
];
${exports ? CSV_DECLARATION : ''}`,
    request: `  var site = mapSite(request);
  if (site) return site;`,
    response: `${exports ? CSV_RESPONSE : ''}  var type = headers['content-type'];
  if (type && type.value.indexOf('text/html') === 0) headers['content-security-policy'] = { value: ${JSON.stringify(PAGE_POLICY)} };`,
    functions: statusSiteFunctions(aliases),
  };
}

// --- internal ---

/** Which requests are a CSV export, and the name Weblate gives its file. */
const CSV_DECLARATION = `var CSV = /^\\/exports\\/stats\\/([^\\/]+)(?:\\/(?:[^\\/]+\\/)*([^\\/]+))?\\/${escape(EXPORT_FILES.csv)}$/;
`;
const CSV_RESPONSE = `  var csv = CSV.exec(event.request.uri.slice(BASE.length));
  if (csv && event.response.statusCode === 200) {
    headers['content-disposition'] = { value: 'attachment; filename=stats-' + csv[1] + (csv[2] ? '-' + csv[2] : '') + '.csv' };
  }
`;

/** The site's functions, beside mapRequest and addHeaders (the step of an alias where there are any). */
function statusSiteFunctions(aliases: boolean): string {
  return `
function mapSite(request) {
  if (request.uri.slice(0, BASE.length) !== BASE) return null;
  var rest = request.uri.slice(BASE.length);
  for (var i = 0; i < SITE.length; i++) {
    var found = SITE[i][0].exec(rest);
    if (!found) continue;
    var kind = SITE[i][1];
    if (kind === 'r') return moved(BASE + rest.replace(SITE[i][0], SITE[i][2]), request);${
      aliases
        ? `
    if (kind === 'a') {
      request.uri = BASE + rest.replace(SITE[i][0], SITE[i][2]);
      return request;
    }`
        : ''
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
}

/** One segment: no slug or code has a dot, so an index file asked for by name is never taken for one. */
const ONE = '([^\\/.]+)';
const CHART = `((?:${CHART_KINDS.join('|')})-(?:${CHART_COLORS.join('|')})\\.svg)`;
const WIDGET = `(${escape(BADGE_FILE)}|(?:${CHART_KINDS.join('|')})-(?:${CHART_COLORS.join('|')})\\.svg)`;
const IMAGE = `(${alternation(PROJECT_WIDGET_FILES)})`;

/**
 * File names as one alternation, those of one stem and extension folded to keep the function
 * short: `88x31-(?:grey|white|black)\\.png`. It matches the same names, each whole.
 */
function alternation(names: readonly string[]): string {
  const groups = new Map<
    string,
    { names: string[]; stem: string; ext: string; variants: string[] }
  >();
  for (const name of names) {
    const [, stem = name, variant = '', ext = ''] = /^(.+)-([^-.]+)(\.[a-z]+)$/.exec(name) ?? [];
    const group = groups.get(`${stem} ${ext}`) ?? { names: [], stem, ext, variants: [] };
    group.names.push(name);
    group.variants.push(variant);
    groups.set(`${stem} ${ext}`, group);
  }
  return [...groups.values()]
    .map((group) =>
      group.names.length === 1
        ? escape(group.names[0]!)
        : `${escape(group.stem)}-(?:${group.variants.map(escape).join('|')})${escape(group.ext)}`,
    )
    .join('|');
}

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

/** Folder shapes as a regular expression literal: the folder (group 1), then its slash or an index file by name (group 2). */
function folderRegex(shapes: readonly FolderShape[], files: readonly string[]): string {
  const folder = (shape: FolderShape) => {
    const prefix = shape.prefix.map((segment) => `\\/${escape(segment)}`).join('');
    return `${prefix}${shape.max === 0 ? '' : `(?:\\/[^\\/.]+){${shape.min},${shape.max}}`}`;
  };
  const ends = ['\\/', ...files.map((file) => `\\/${escape(file)}`)].join('|');
  return `/^(${shapes.map(folder).join('|')})(${ends})?$/`;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
