/**
 * What a request for the tree is answered with, decided from the URL alone:
 * the file of the tree to serve, or a JSON error. It does what a
 * well-configured host does and serve's rewrites cannot: a path with `@`
 * (which serve's rewrites percent-encode), `?page=N` (which serve ignores),
 * `?format=`, methods other than GET and HEAD, and paths that name no
 * resource. Whether the file exists is the caller's to check; `missing` is the
 * detail of the 404 when it does not. The preview and the sidecar both route
 * with it.
 */
import { matchApiSegments, PAGE_NUMBER, type RouteMatch } from '../api/match.ts';
import { refusalOf } from '../api/routes.ts';
import { apiPath, fileOfPath } from '../api/urls.ts';
import { ERRORS, JSON_TYPE, methodNotAllowed, refusalError } from '../api/answers.ts';
import {
  CSV_TYPE,
  FORMAT_FILES,
  formatFileName,
  isExtraFormat,
  takesFormats,
  type ExtraFormat,
} from '../api/formats.ts';
import { isCorsPath, isPreflight } from '../api/cors.ts';
import type { WeblateVersion } from '../model/defaults.ts';

/** An error of a read, by its status (whose code answers.ts#readError gives) and DRF's message. */
type ReadError = { kind: 'error'; status: 401 | 403 | 404 | 405; detail: string; allow?: string };

type PreviewAnswer = { kind: 'file'; file: string; missing: string } | ReadError;

/** What a GET of a resource is answered with: its file (and the 404's message when it is missing), or a 404. */
type FileAnswer =
  { kind: 'file'; file: string; missing: string } | { kind: 'error'; status: 404; detail: string };

/** A request-target that names a resource of the API: the route it matched and its query. */
export interface ApiTarget {
  match: RouteMatch;
  query: URLSearchParams;
}

/** Longer segments are refused before they reach the file system. */
const MAX_SEGMENT = 255;

/**
 * `method` and `url` as the request has them (`/api/projects/?page=2`);
 * `base` is the path of the site's base URL (`` or `/l10n`); `version` the
 * tree's flavour. A reader of the preview is anonymous: 4.x answers a method
 * other than GET and HEAD with 405; 2026.8 checks permissions first, so an
 * anonymous write is a 401 (OPTIONS, a safe method, stays a 405: the preview
 * has no metadata to answer), and a resource Weblate refuses an anonymous
 * reader is a 401 or 403.
 */
export function resolvePreviewRequest(
  method: string,
  url: string,
  base: string,
  version: WeblateVersion = '4',
): PreviewAnswer {
  const target = parseApiTarget(url, base, version);
  if (!target) return notFound(ERRORS.notFound.detail);
  const route = target.match.route;
  // 2026.8 negotiates the format before it checks permissions (and 4.x after the method, as before).
  if (version !== '4' && !knownFormat(target)) return notFound(ERRORS.notFound.detail);
  if (method !== 'GET' && method !== 'HEAD') {
    if (version !== '4' && method !== 'OPTIONS')
      return {
        kind: 'error',
        status: 401,
        detail: ERRORS.notAuthenticated.detail,
        allow: route.allow,
      };
    return { kind: 'error', status: 405, detail: methodNotAllowed(method), allow: route.allow };
  }
  const refusal = refusalOf(route, version);
  if (refusal)
    return {
      kind: 'error',
      status: refusal,
      detail: refusalError(refusal).detail,
      allow: route.allow,
    };
  return resolveFile(target);
}

/**
 * Whether a request is a browser's preflight under the API, which is
 * answered 200 with the CORS headers before its path, permissions or method
 * are looked at (django-cors-headers answers it in a middleware, ahead of
 * Weblate's views). `requestMethod` is the request's
 * Access-Control-Request-Method header.
 */
export function isApiPreflight(
  method: string,
  url: string,
  requestMethod: string | null | undefined,
  base: string,
): boolean {
  return isPreflight(method, requestMethod) && isCorsPath(pathOf(url), base);
}

/** Whether an answer to this request-target carries the API's CORS header (its path is `<base>/api` or below). */
export function isApiRequest(url: string, base: string): boolean {
  return isCorsPath(pathOf(url), base);
}

/**
 * The resource a request-target (path and query, as sent) names, or null. The
 * path is split by hand, never by a URL parser, which would resolve `%2e%2e`
 * and `..` before they could be refused.
 */
export function parseApiTarget(
  url: string,
  base: string,
  version: WeblateVersion = '4',
): ApiTarget | null {
  const queryAt = url.indexOf('?');
  const segments = apiSegments(pathOf(url), base);
  const match = segments && matchApiSegments(segments, version);
  return match
    ? { match, query: new URLSearchParams(queryAt < 0 ? '' : url.slice(queryAt + 1)) }
    : null;
}

/** The file of a GET: `?format=` checked, `?page=N` of a paginated list mapped to its page file. */
export function resolveFile(target: ApiTarget): FileAnswer {
  const { match, query } = target;
  if (!knownFormat(target)) return notFound(ERRORS.notFound.detail);
  const asked = match.route.paginated && match.page === null ? query.get('page') : null;
  if (asked !== null && !PAGE_NUMBER.test(asked)) return notFound(ERRORS.invalidPage.detail);
  const page = match.page ?? (asked === null ? 1 : Number(asked));
  const missing = page > 1 ? ERRORS.invalidPage : ERRORS.notFound;
  const file = fileOfPath(apiPath.page(match.path, page));
  const format = extraFormatOf(target);
  // A tree of a release without the formats has no such file: its 404 is the unknown format's.
  if (format)
    return {
      kind: 'file',
      file: file.slice(0, -'index.json'.length) + formatFileName(match.route, format),
      missing: ERRORS.notFound.detail,
    };
  return { kind: 'file', file, missing: missing.detail };
}

/** The content type of a file a GET answers with: CSV for a `?format=csv` file, else JSON. */
export function typeOfFile(file: string): string {
  return file.endsWith(FORMAT_FILES.csv) ? CSV_TYPE : JSON_TYPE;
}

/**
 * A path segment decoded once, or null when it cannot reach the file system:
 * empty, `.` or `..`, over 255 bytes, undecodable, or holding a slash, a
 * backslash, NUL or another control character once decoded.
 */
export function decodeSegment(raw: string): string | null {
  let segment: string;
  try {
    segment = decodeURIComponent(raw);
  } catch {
    return null;
  }
  // Control characters are what this refuses.
  const unsafe =
    segment === '' ||
    segment === '.' ||
    segment === '..' ||
    // eslint-disable-next-line no-control-regex
    /[/\\\0-\x1f\x7f]/.test(segment);
  return unsafe || Buffer.byteLength(segment) > MAX_SEGMENT ? null : segment;
}

// --- internal ---

/** The path of a request-target, without its query. */
function pathOf(url: string): string {
  const queryAt = url.indexOf('?');
  return queryAt < 0 ? url : url.slice(0, queryAt);
}

/** `?format=` absent, `json` or `api` (the renderers Weblate has for JSON), or a statistics format. */
function knownFormat(target: ApiTarget): boolean {
  const format = target.query.get('format');
  return format === null || format === 'json' || format === 'api' || !!extraFormatOf(target);
}

/** `csv` or `json-flat` asked of a route whose view has those renderers, else null. */
function extraFormatOf({ match, query }: ApiTarget): ExtraFormat | null {
  const format = query.get('format');
  return isExtraFormat(format) && takesFormats(match.route) ? format : null;
}

function notFound(detail: string): { kind: 'error'; status: 404; detail: string } {
  return { kind: 'error', status: 404, detail };
}

/**
 * The decoded segments after `<base>/api/`, without a trailing slash or
 * `index.json`; null for a path outside the API or with an empty, dot,
 * over-long or undecodable segment, or one that decodes to a slash or NUL.
 */
function apiSegments(pathname: string, base: string): string[] | null {
  const prefix = `${base}/api`;
  if (pathname !== prefix && !pathname.startsWith(`${prefix}/`)) return null;
  const raw = pathname.slice(prefix.length).split('/').slice(1);
  if (raw.at(-1) === '' || raw.at(-1) === 'index.json') raw.pop();
  const segments = raw.map(decodeSegment);
  return segments.every((segment): segment is string => segment !== null) ? segments : null;
}
