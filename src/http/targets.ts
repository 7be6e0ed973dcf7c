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
import { apiPath, fileOfPath } from '../api/urls.ts';
import { INVALID_PAGE, methodNotAllowed, NOT_FOUND } from '../api/answers.ts';

type PreviewAnswer = { kind: 'file'; file: string; missing: string } | { kind: 'error'; status: 404 | 405; detail: string; allow?: string };

/** What a GET of a resource is answered with: its file, or a 404. */
type FileAnswer = { kind: 'file'; file: string; missing: string } | { kind: 'error'; status: 404; detail: string };

/** A request-target that names a resource of the API: the route it matched and its query. */
export interface ApiTarget {
  match: RouteMatch;
  query: URLSearchParams;
}

/** Longer segments are refused before they reach the file system. */
const MAX_SEGMENT = 255;

/**
 * `method` and `url` as the request has them (`/api/projects/?page=2`);
 * `base` is the path of the site's base URL (`` or `/l10n`).
 */
export function resolvePreviewRequest(method: string, url: string, base: string): PreviewAnswer {
  const target = parseApiTarget(url, base);
  if (!target) return notFound(NOT_FOUND);
  if (method !== 'GET' && method !== 'HEAD') {
    return { kind: 'error', status: 405, detail: methodNotAllowed(method), allow: target.match.route.allow };
  }
  return resolveFile(target);
}

/**
 * The resource a request-target (path and query, as sent) names, or null. The
 * path is split by hand, never by a URL parser, which would resolve `%2e%2e`
 * and `..` before they could be refused.
 */
export function parseApiTarget(url: string, base: string): ApiTarget | null {
  const queryAt = url.indexOf('?');
  const pathname = queryAt < 0 ? url : url.slice(0, queryAt);
  const segments = apiSegments(pathname, base);
  const match = segments && matchApiSegments(segments);
  return match ? { match, query: new URLSearchParams(queryAt < 0 ? '' : url.slice(queryAt + 1)) } : null;
}

/** The file of a GET: `?format=` checked, `?page=N` of a paginated list mapped to its page file. */
export function resolveFile({ match, query }: ApiTarget): FileAnswer {
  const format = query.get('format');
  if (format !== null && format !== 'json' && format !== 'api') return notFound(NOT_FOUND);
  const asked = match.route.paginated && match.page === null ? query.get('page') : null;
  if (asked !== null && !PAGE_NUMBER.test(asked)) return notFound(INVALID_PAGE);
  const page = match.page ?? (asked === null ? 1 : Number(asked));
  return { kind: 'file', file: fileOfPath(apiPath.page(match.path, page)), missing: page > 1 ? INVALID_PAGE : NOT_FOUND };
}

// --- internal ---

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

function decodeSegment(raw: string): string | null {
  let segment: string;
  try {
    segment = decodeURIComponent(raw);
  } catch {
    return null;
  }
  // Control characters are what this refuses.
  // eslint-disable-next-line no-control-regex
  const unsafe = segment === '' || segment === '.' || segment === '..' || /[/\\\0-\x1f\x7f]/.test(segment);
  return unsafe || Buffer.byteLength(segment) > MAX_SEGMENT ? null : segment;
}
