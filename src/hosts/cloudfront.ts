/**
 * S3 + CloudFront. S3 keeps each file under the key of its URL path and serves
 * it with the Content-Type stored with it, so the upload script sets
 * `application/json` on every file. CloudFront looks up the key of the
 * request path as it is, so one CloudFront Function (runtime
 * cloudfront-js-2.0), attached to both the viewer request and the viewer
 * response, does what a server's index and query handling would: it sends
 * `/x/` and `/x` to `/x/index.json` and `?page=N` of a list to its page file,
 * answers 405 to other methods and a JSON 404 to unknown formats and invalid
 * pages, and adds Vary and the route's Allow to every response. Under the
 * API it answers a browser's preflight itself and adds
 * `Access-Control-Allow-Origin: *` to every answer, as Weblate does. The
 * function is plain ES5 with the route table written into it.
 */
import { hasTrait, shapesOf } from '../model/releases.ts';
import { internalError } from '../errors.ts';
import { CSV_TYPE, FORMAT_FILES, FORMAT_PATH_END } from '../api/formats.ts';
import { isParam, PAGE_NUMBER, paramPattern } from '../api/match.ts';
import { statusSiteFunctionParts } from './cloudfront-status-site.ts';
import { contentTypeOf } from './published.ts';
import {
  EXPORT_FILES,
  PAGE_FILE,
  statusSiteRoutesOf,
  type StatusSiteRoute,
} from '../api/status-site-routes.ts';
import { chartFile, PROJECT_WIDGET_FILES } from '../api/urls.ts';
import { refusalOf, routesOf, type Route } from '../api/routes.ts';
import type { WeblateVersion } from '../model/defaults.ts';
import type { Settings } from '../model/types.ts';
import { PAGE_SEGMENT, basePath } from '../api/urls.ts';
import { generatedBy, NOT_FOUND_FILE, shellQuote } from './common.ts';
import { ERRORS, INVALID_PAGE, JSON_TYPE, NOT_FOUND, VARY } from '../api/answers.ts';
import {
  ALLOW_ORIGIN,
  PREFLIGHT_ANSWER_HEADERS,
  PREFLIGHT_CONTENT_TYPE,
  PREFLIGHT_HEADERS,
  PREFLIGHT_MAX_AGE,
} from '../api/cors.ts';

export function renderCloudFrontFunction(settings: Settings): string {
  const version = shapesOf(settings.weblateVersion);
  const parts =
    version === '4'
      ? PARTS_4
      : hasTrait(settings.weblateVersion, 'standardizedErrors')
        ? PARTS_CURRENT
        : PARTS_5_DRF;
  const allows = [...new Set(routesOf(version).map((route) => route.allow))];
  const formats = hasTrait(settings.weblateVersion, 'statisticsFormats');
  const routes = routesOf(version).map((route) => parts.route(route, version, allows));
  const pages = settings.pages
    ? statusSiteFunctionParts(version, {
        languageCharts: hasTrait(settings.weblateVersion, 'languageChartRow'),
        exports: !hasTrait(settings.weblateVersion, 'noStatsExports'),
      })
    : null;
  const checks = formats ? checksWithFormats(parts.checks) : parts.checks;
  return `// ${generatedBy(settings, 'CloudFront')}
// Runtime cloudfront-js-2.0; associate it with both the viewer request and the
// viewer response of the behaviour that serves the bucket.
var BASE = ${JSON.stringify(basePath(settings))};
var PAGE = ${JSON.stringify(PAGE_SEGMENT)};
var PAGE_NUMBER = ${PAGE_NUMBER.toString()};
var SLUG = /^${paramPattern(':project', version, 'raw')}$/;
var PATH = /^${paramPattern(':component', version, 'raw')}$/;
var ALLOW = ${JSON.stringify(allows)};
// 'segments after /api (* a slug or code, ** a component's path), Allow (index in ALLOW), paginated${parts.routeNote}'
var ROUTES = [
${wrapped(routes, 100)}
];${formats ? FORMAT_DECLARATIONS : ''}
// A browser's preflight under the API, answered first (django-cors-headers).
var PREFLIGHT = ${functionHeaders({ 'Content-Type': PREFLIGHT_CONTENT_TYPE, ...PREFLIGHT_ANSWER_HEADERS })};
${parts.declarations}${pages ? pages.declarations : ''}
function handler(event) {
  if (event.context.eventType === 'viewer-response') return addHeaders(event);
  return mapRequest(event.request);
}

function mapRequest(request) {
  if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] && isApi(request.uri)) {
    return { statusCode: 200, statusDescription: 'OK', headers: PREFLIGHT };
  }
${pages ? `${pages.request}\n` : ''}  var found = match(request.uri);
  if (!found) return request;
${checks}
  var page = '';
  var asked = request.querystring.page;
  if (found.paginated && !found.pathPage && asked && asked.value !== '1') {
    if (!PAGE_NUMBER.test(asked.value)) return answer(404, ${JSON.stringify(INVALID_PAGE)});
    page = PAGE + '/' + asked.value + '/';
  }
  request.uri = found.dir + '/' + page + ${formats ? 'file' : "'index.json'"};
  return request;
}

function addHeaders(event) {
  var found = match(event.request.uri);
  var headers = event.response.headers;
  if (isApi(event.request.uri)) headers['access-control-allow-origin'] = { value: ${JSON.stringify(ALLOW_ORIGIN['Access-Control-Allow-Origin'])} };
  if (found) {
    headers['vary'] = { value: ${JSON.stringify(VARY)} };
    headers['allow'] = { value: found.allow };
  }
${pages ? `${pages.response}\n` : ''}  return event.response;
}

function isApi(uri) {
  return uri === BASE + '/api' || uri.slice(0, BASE.length + 5) === BASE + '/api/';
}

function match(uri) {
  if (!isApi(uri)) return null;
  var dir = uri.replace(/(\\/index\\.json|\\/)$/, '');
  var parts = dir.slice(BASE.length + 5).split('/');
  if (parts[0] === '') parts = [];
  var pathPage = parts.length > 1 && parts[parts.length - 2] === PAGE && PAGE_NUMBER.test(parts[parts.length - 1]);
  if (pathPage) parts = parts.slice(0, -2);
  for (var i = 0; i < ROUTES.length; i++) {
    var route = ROUTES[i].split(' ');
    var pattern = route[0] === '' ? [] : route[0].split('/');
    if (pattern.length !== parts.length || (pathPage && route[2] !== '1')) continue;
    for (var k = 0; k < pattern.length; k++) {
      var part = pattern[k];
      if (part === '*' ? !SLUG.test(parts[k]) : part === '**' ? !PATH.test(parts[k]) : part !== parts[k]) break;
    }
    if (k === pattern.length) return { dir: dir, allow: ALLOW[route[1]], paginated: route[2] === '1', refused: +route[3] || 0, pathPage: pathPage };
  }
  return null;
}

function answer(status, detail, allow) {
  var headers = { 'content-type': { value: ${JSON.stringify(JSON_TYPE)} }, 'vary': { value: ${JSON.stringify(VARY)} }, 'access-control-allow-origin': { value: ${JSON.stringify(ALLOW_ORIGIN['Access-Control-Allow-Origin'])} } };
  if (allow) headers['allow'] = { value: allow };
${parts.answer}
}
${pages ? pages.functions : ''}`;
}

/** The check of an unknown format, as the flavours write it. */
const FORMAT_CHECK = "if (format && format.value !== 'json' && format.value !== 'api')";

/** The same check with the statistics' formats allowed, `file` the file a format names. */
function checksWithFormats(checks: string): string {
  if (!checks.includes(FORMAT_CHECK))
    internalError('the CloudFront checks lost their format check');
  return checks
    .replace('var format = request.querystring.format;', "$&\n  var file = 'index.json';")
    .replace(
      FORMAT_CHECK,
      `${FORMAT_CHECK.slice(0, -1)} && !(file = fileOf(found, format.value)))`,
    );
}

/**
 * The statistics' formats (5.10 and later), kept short for the function's 10 KB: the file a
 * format names on a path of the routes that take them (json-flat of an object is its JSON).
 */
const FORMAT_DECLARATIONS = `
function fileOf(r, f) {
  if (/${FORMAT_PATH_END.source}/.test(r.dir)) return f === 'csv' ? '${FORMAT_FILES.csv}' : f === 'json-flat' && 'index.json' + (r.paginated ? '${FORMAT_FILES['json-flat'].slice('index.json'.length)}' : '');
}`;

/** A shell script that uploads the tree with the metadata S3 serves it with. */
export function renderS3Upload(settings: Settings): string {
  const prefix = basePath(settings);
  return `#!/bin/sh
# ${generatedBy(settings, 'S3')}
# Uploads the snapshot to an S3 bucket, every file as application/json, under
# the keys of its URL paths (${prefix}/api/...)${settings.pages ? ', then the status site with the type of\n# each kind of file' : ''}. Needs the AWS CLI, and lists
# every key of the bucket on every run; it never follows a symbolic link, but
# uploads any other file found there. \`npm run deploy\` of weblate-snapshot does
# better: only files the build wrote, only what changed, without listing
# (docs/hosting.md).
# Usage, from anywhere: sh hosts/s3/upload.sh BUCKET
set -eu
bucket=\${1:?usage: sh hosts/s3/upload.sh BUCKET}
prefix=${shellQuote(prefix)}
tree=$(cd "$(dirname "$0")/../.." && pwd)
aws s3 sync "$tree/api" "s3://$bucket$prefix/api" --delete --no-follow-symlinks --content-type ${shellQuote(JSON_TYPE)}
aws s3 cp "$tree/${NOT_FOUND_FILE}" "s3://$bucket$prefix/${NOT_FOUND_FILE}" --no-follow-symlinks --content-type ${shellQuote(notFoundType(settings))}
${hasTrait(settings.weblateVersion, 'statisticsFormats') ? csvUpload() : ''}${settings.pages ? statusSiteUploads(shapesOf(settings.weblateVersion)) : ''}`;
}

/** The statistics' CSV files (5.10 and later) again, with the type Weblate sends them with. */
function csvUpload(): string {
  return `aws s3 cp "$tree/api" "s3://$bucket$prefix/api" --recursive --no-follow-symlinks --exclude '*' --include '*.csv' --content-type ${shellQuote(CSV_TYPE)}
`;
}

/** The type of the root's 404 page: the status site's HTML page, or the API's JSON body. */
function notFoundType(settings: Settings): string {
  return settings.pages ? contentTypeOf(PAGE_FILE) : JSON_TYPE;
}

/**
 * The status site's files, each kind with the type it is served as: the home
 * page, then each of the site's folders synced whole (a page that left the
 * tree is deleted there, as under api/; nothing outside them is touched).
 */
function statusSiteUploads(version: WeblateVersion): string {
  const folders = new Map<string, Set<string>>();
  for (const route of statusSiteRoutesOf(version)) {
    const folder = route.pattern[0];
    if (folder === undefined) continue;
    const extensions = folders.get(folder) ?? new Set<string>();
    for (const file of filesOf(route)) extensions.add(file.slice(file.lastIndexOf('.')));
    folders.set(folder, extensions);
  }
  const calls = [...folders].flatMap(([folder, extensions]) =>
    [...extensions].map(
      (extension) => `site ${folder} ${extension} ${shellQuote(contentTypeOf(extension))}`,
    ),
  );
  return [
    '# The status site: the home page, then each of its folders whole, a kind of file at a time with its type.',
    `aws s3 cp "$tree/${PAGE_FILE}" "s3://$bucket$prefix/${PAGE_FILE}" --no-follow-symlinks --content-type ${shellQuote(contentTypeOf(PAGE_FILE))}`,
    'site() {',
    '  if [ -d "$tree/$1" ]; then',
    '    aws s3 sync "$tree/$1" "s3://$bucket$prefix/$1" --delete --no-follow-symlinks --exclude \'*\' --include "*$2" --content-type "$3"',
    '  fi',
    '}',
    ...calls,
    '',
  ].join('\n');
}

/** The files a site route's paths are (their names, for their types). */
function filesOf(route: StatusSiteRoute): string[] {
  if (route.serves.kind === 'page') return [PAGE_FILE];
  if (route.serves.kind === 'export') return Object.values(EXPORT_FILES);
  if (route.serves.kind !== 'file') return [];
  const last = route.pattern.at(-1)!;
  if (last === ':image') return [...PROJECT_WIDGET_FILES];
  return [last === ':chart' ? chartFile('multi', 'auto') : last];
}

/**
 * The bucket's CORS configuration, for `aws s3api put-bucket-cors --bucket
 * BUCKET --cors-configuration file://hosts/s3/cors.json`: S3 then answers a
 * request that carries Origin with `Access-Control-Allow-Origin: *`, and a
 * preflight for a read with Weblate's request headers and lifetime. The
 * snapshot is read-only, so only reads are allowed (S3 refuses a preflight
 * for a write with 403, where Weblate would allow it and then refuse the
 * anonymous write).
 */
export function renderS3Cors(): string {
  const rule = {
    AllowedOrigins: [ALLOW_ORIGIN['Access-Control-Allow-Origin']],
    AllowedMethods: ['GET', 'HEAD'],
    AllowedHeaders: PREFLIGHT_HEADERS.split(', '),
    MaxAgeSeconds: PREFLIGHT_MAX_AGE,
  };
  return `${JSON.stringify({ CORSRules: [rule] }, null, 2)}\n`;
}

// --- internal ---

/** Headers as a CloudFront Function writes them: lower-case names, each `{ value }`. */
function functionHeaders(headers: Readonly<Record<string, string>>): string {
  const entries = Object.entries(headers).map(
    ([name, value]) => `'${name.toLowerCase()}': { value: ${JSON.stringify(value)} }`,
  );
  return `{ ${entries.join(', ')} }`;
}

/** The parts of the function that differ between the flavours. */
interface FunctionParts {
  /** A route as an entry of ROUTES, its Allow an index of `allows`. */
  route(route: Route, version: WeblateVersion, allows: readonly string[]): string;
  routeNote: string;
  declarations: string;
  /** The checks of mapRequest before a page is looked for. */
  checks: string;
  /** The end of answer(): the response. */
  answer: string;
}

/** 4.x: a 405 for any method but GET and HEAD, then unknown formats; DRF's `{"detail": …}`. */
const PARTS_4: FunctionParts = {
  route: (route, version, allows) => `'${routeEntry(route, version, allows)}'`,
  routeNote: '',
  declarations: '',
  checks: `  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return answer(405, 'Method "' + request.method + '" not allowed.', found.allow);
  }
  var format = request.querystring.format;
  if (format && format.value !== 'json' && format.value !== 'api') return answer(404, ${JSON.stringify(NOT_FOUND)});`,
  answer: `  return {
    statusCode: status,
    statusDescription: status === 405 ? 'Method Not Allowed' : 'Not Found',
    headers: headers,
    body: JSON.stringify({ detail: detail }) + '\\n'
  };`,
};

/** The details and status lines of today's refusals (5.0 on). */
const DETAIL_DECLARATIONS = `var DETAILS = {
  401: ${JSON.stringify(ERRORS.notAuthenticated.detail)},
  403: ${JSON.stringify(ERRORS.permissionDenied.detail)}
};
var STATUS_TEXT = { 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed' };
`;

/**
 * 2026.8: the format first, then permissions (a write is a 401; OPTIONS stays
 * a 405), then what Weblate refuses an anonymous reader (its 401 or 403), in
 * drf-standardized-errors' body. The function sees the path as sent, so a
 * component inside categories reads `docs%252Fguide`, and S3 decodes it once
 * to the key `docs%2Fguide`.
 */
const PARTS_CURRENT: FunctionParts = {
  route: (route, version, allows) => {
    const refusal = refusalOf(route, version);
    return `'${routeEntry(route, version, allows)}${refusal ? ` ${refusal}` : ''}'`;
  },
  routeNote: '[, the status Weblate refuses it with]',
  declarations: `var CODES = { 401: 'not_authenticated', 403: 'permission_denied', 404: 'not_found', 405: 'method_not_allowed' };
${DETAIL_DECLARATIONS}`,
  checks: `  // Weblate negotiates the format before it checks permissions, and permissions before methods.
  var format = request.querystring.format;
  if (format && format.value !== 'json' && format.value !== 'api') return answer(404, ${JSON.stringify(NOT_FOUND)});
  if (request.method === 'OPTIONS') return answer(405, 'Method "OPTIONS" not allowed.', found.allow);
  if (request.method !== 'GET' && request.method !== 'HEAD') return answer(401, DETAILS[401], found.allow);
  if (found.refused) return answer(found.refused, DETAILS[found.refused], found.allow);`,
  answer: `  if (status === 401) headers['www-authenticate'] = { value: 'Token' };
  var error = { code: CODES[status], detail: detail, attr: null };
  return {
    statusCode: status,
    statusDescription: STATUS_TEXT[status],
    headers: headers,
    body: JSON.stringify({ type: 'client_error', errors: [error] }) + '\\n'
  };`,
};

/** 5.0-5.9: today's routes and checks, their errors in DRF's `{"detail": …}` (drf-standardized-errors came in 5.10). */
const PARTS_5_DRF: FunctionParts = {
  ...PARTS_CURRENT,
  declarations: DETAIL_DECLARATIONS,
  answer: `  if (status === 401) headers['www-authenticate'] = { value: 'Token' };
  return {
    statusCode: status,
    statusDescription: STATUS_TEXT[status],
    headers: headers,
    body: JSON.stringify({ detail: detail }) + '\\n'
  };`,
};

/** Entries of an array, as many to a line as fit in `width` columns (indented by two). */
function wrapped(entries: readonly string[], width: number): string {
  const lines: string[] = [];
  for (const entry of entries) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + entry.length + 2 <= width)
      lines[lines.length - 1] = `${last}, ${entry}`;
    else lines.push(`  ${entry}`);
  }
  return lines.join(',\n');
}

/**
 * A route as the start of an entry of ROUTES, its fields split by a space (shorter than an array,
 * for the 10 KB): its segments (`*` for a slug or code), Allow and paginated.
 */
function routeEntry(route: Route, version: WeblateVersion, allows: readonly string[]): string {
  const segments = route.pattern.map((part) =>
    isParam(part) ? (part === ':component' && version !== '4' ? '**' : '*') : part,
  );
  return `${segments.join('/')} ${allows.indexOf(route.allow)} ${route.paginated ? 1 : 0}`;
}
