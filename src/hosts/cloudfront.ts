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
import { isParam, PAGE_NUMBER, paramPattern } from '../api/match.ts';
import { refusalOf, routesOf, type Route } from '../api/routes.ts';
import type { WeblateVersion } from '../model/defaults.ts';
import type { Site } from '../model/types.ts';
import { PAGE_SEGMENT, basePath } from '../api/urls.ts';
import { generatedBy, NOT_FOUND_FILE, shellQuote } from './common.ts';
import { ERRORS, INVALID_PAGE, JSON_TYPE, NOT_FOUND, VARY } from '../api/answers.ts';
import { ALLOW_ORIGIN, PREFLIGHT_ANSWER_HEADERS, PREFLIGHT_CONTENT_TYPE, PREFLIGHT_HEADERS, PREFLIGHT_MAX_AGE } from '../api/cors.ts';

export function renderCloudFrontFunction(site: Site): string {
  const parts = site.weblateVersion === '4' ? PARTS_4 : PARTS_CURRENT;
  const routes = routesOf(site.weblateVersion).map((route) => parts.route(route, site.weblateVersion));
  return `// ${generatedBy(site, 'CloudFront')}
// Runtime cloudfront-js-2.0; associate it with both the viewer request and the
// viewer response of the behaviour that serves the bucket.
var BASE = ${JSON.stringify(basePath(site))};
var PAGE = ${JSON.stringify(PAGE_SEGMENT)};
var PAGE_NUMBER = ${PAGE_NUMBER.toString()};
// [the path after BASE without its trailing slash or index.json, Allow, paginated${parts.routeNote}]
var ROUTES = [
${routes.join(',\n')}
];
// A browser's preflight under the API, answered first (django-cors-headers).
var PREFLIGHT = ${functionHeaders({ 'Content-Type': PREFLIGHT_CONTENT_TYPE, ...PREFLIGHT_ANSWER_HEADERS })};
${parts.declarations}
function handler(event) {
  if (event.context.eventType === 'viewer-response') return addHeaders(event);
  return mapRequest(event.request);
}

function mapRequest(request) {
  if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] && isApi(request.uri)) {
    return { statusCode: 200, statusDescription: 'OK', headers: PREFLIGHT };
  }
  var found = match(request.uri);
  if (!found) return request;
${parts.checks}
  var page = '';
  var asked = request.querystring.page;
  if (found.paginated && !found.pathPage && asked && asked.value !== '1') {
    if (!PAGE_NUMBER.test(asked.value)) return answer(404, ${JSON.stringify(INVALID_PAGE)});
    page = PAGE + '/' + asked.value + '/';
  }
  request.uri = found.dir + '/' + page + 'index.json';
  return request;
}

function addHeaders(event) {
  var found = match(event.request.uri);
  if (isApi(event.request.uri)) event.response.headers['access-control-allow-origin'] = { value: ${JSON.stringify(ALLOW_ORIGIN['Access-Control-Allow-Origin'])} };
  if (found) {
    event.response.headers['vary'] = { value: ${JSON.stringify(VARY)} };
    event.response.headers['allow'] = { value: found.allow };
  }
  return event.response;
}

function isApi(uri) {
  return uri === BASE + '/api' || uri.slice(0, BASE.length + 5) === BASE + '/api/';
}

function match(uri) {
  if (uri.slice(0, BASE.length) !== BASE) return null;
  var dir = uri.replace(/(\\/index\\.json|\\/)$/, '');
  var rest = dir.slice(BASE.length);
  for (var i = 0; i < ROUTES.length; i++) {
    var parts = ROUTES[i][0].exec(rest);
    if (parts) return { dir: dir, allow: ROUTES[i][1], paginated: ROUTES[i][2], ${parts.matchExtra}pathPage: Boolean(parts[1]) };
  }
  return null;
}

function answer(status, detail, allow) {
  var headers = { 'content-type': { value: ${JSON.stringify(JSON_TYPE)} }, 'vary': { value: ${JSON.stringify(VARY)} }, 'access-control-allow-origin': { value: ${JSON.stringify(ALLOW_ORIGIN['Access-Control-Allow-Origin'])} } };
  if (allow) headers['allow'] = { value: allow };
${parts.answer}
}
`;
}

/** A shell script that uploads the tree with the metadata S3 serves it with. */
export function renderS3Upload(site: Site): string {
  const prefix = basePath(site);
  return `#!/bin/sh
# ${generatedBy(site, 'S3')}
# Uploads the snapshot to an S3 bucket, every file as application/json, under
# the keys of its URL paths (${prefix}/api/...). Needs the AWS CLI, and lists
# every key of the bucket on every run. \`npm run deploy\` of weblate-snapshot
# does better: it uploads only what changed, without listing (docs/hosting.md).
# Usage, from anywhere: sh hosts/s3/upload.sh BUCKET
set -eu
bucket=\${1:?usage: sh hosts/s3/upload.sh BUCKET}
prefix=${shellQuote(prefix)}
tree=$(cd "$(dirname "$0")/../.." && pwd)
aws s3 sync "$tree/api" "s3://$bucket$prefix/api" --delete --content-type ${shellQuote(JSON_TYPE)}
aws s3 cp "$tree/${NOT_FOUND_FILE}" "s3://$bucket$prefix/${NOT_FOUND_FILE}" --content-type ${shellQuote(JSON_TYPE)}
`;
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
  const entries = Object.entries(headers).map(([name, value]) => `'${name.toLowerCase()}': { value: ${JSON.stringify(value)} }`);
  return `{ ${entries.join(', ')} }`;
}

/** The parts of the function that differ between the flavours. */
interface FunctionParts {
  /** A route as an entry of ROUTES. */
  route(route: Route, version: WeblateVersion): string;
  routeNote: string;
  declarations: string;
  /** The checks of mapRequest before a page is looked for. */
  checks: string;
  matchExtra: string;
  /** The end of answer(): the response. */
  answer: string;
}

/** 4.x: a 405 for any method but GET and HEAD, then unknown formats; DRF's `{"detail": …}`. */
const PARTS_4: FunctionParts = {
  route: (route, version) =>
    `  [${routeRegex(route.pattern, route.paginated, version)}, ${JSON.stringify(route.allow)}, ${String(route.paginated)}]`,
  routeNote: '',
  declarations: '',
  checks: `  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return answer(405, 'Method "' + request.method + '" not allowed.', found.allow);
  }
  var format = request.querystring.format;
  if (format && format.value !== 'json' && format.value !== 'api') return answer(404, ${JSON.stringify(NOT_FOUND)});`,
  matchExtra: '',
  answer: `  return {
    statusCode: status,
    statusDescription: status === 405 ? 'Method Not Allowed' : 'Not Found',
    headers: headers,
    body: JSON.stringify({ detail: detail }) + '\\n'
  };`,
};

/**
 * 2026.8: the format first, then permissions (a write is a 401; OPTIONS stays
 * a 405), then what Weblate refuses an anonymous reader (its 401 or 403), in
 * drf-standardized-errors' body. The function sees the path as sent, so a
 * component inside categories reads `docs%252Fguide`, and S3 decodes it once
 * to the key `docs%2Fguide`.
 */
const PARTS_CURRENT: FunctionParts = {
  route: (route, version) =>
    `  [${routeRegex(route.pattern, route.paginated, version)}, ${JSON.stringify(route.allow)}, ${String(route.paginated)}, ${String(refusalOf(route, version) ?? 0)}]`,
  routeNote: ', the status Weblate refuses it with or 0',
  declarations: `var CODES = { 401: 'not_authenticated', 403: 'permission_denied', 404: 'not_found', 405: 'method_not_allowed' };
var DETAILS = {
  401: ${JSON.stringify(ERRORS.notAuthenticated.detail)},
  403: ${JSON.stringify(ERRORS.permissionDenied.detail)}
};
var STATUS_TEXT = { 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed' };
`,
  checks: `  // Weblate negotiates the format before it checks permissions, and permissions before methods.
  var format = request.querystring.format;
  if (format && format.value !== 'json' && format.value !== 'api') return answer(404, ${JSON.stringify(NOT_FOUND)});
  if (request.method === 'OPTIONS') return answer(405, 'Method "OPTIONS" not allowed.', found.allow);
  if (request.method !== 'GET' && request.method !== 'HEAD') return answer(401, DETAILS[401], found.allow);
  if (found.refused) return answer(found.refused, DETAILS[found.refused], found.allow);`,
  matchExtra: 'refused: ROUTES[i][3], ',
  answer: `  if (status === 401) headers['www-authenticate'] = { value: 'Token' };
  var error = { code: CODES[status], detail: detail, attr: null };
  return {
    statusCode: status,
    statusDescription: STATUS_TEXT[status],
    headers: headers,
    body: JSON.stringify({ type: 'client_error', errors: [error] }) + '\\n'
  };`,
};

/**
 * `^/api/projects/([…]+)(/~page/N)?$` as a JS regular expression literal. The
 * function sees the path as sent: a component's path through categories reads
 * `%252F` between its slugs.
 */
function routeRegex(pattern: readonly string[], paginated: boolean, version: WeblateVersion): string {
  const path = ['/api', ...pattern.map((part) => (isParam(part) ? paramPattern(part, version, 'raw') : part))].join('\\/');
  const pages = paginated ? `(\\/${PAGE_SEGMENT}\\/[1-9][0-9]*)?` : '()';
  return `/^${path.replace(/^\//, '\\/')}${pages}$/`;
}
