/**
 * Cross-origin reads, as Weblate answers them: its settings turn on
 * django-cors-headers for every origin (`CORS_ALLOW_ALL_ORIGINS`) on paths
 * under `/api/` (`CORS_URLS_REGEX`), with the library's default methods,
 * headers and preflight lifetime. So an answer under the API carries
 * `Access-Control-Allow-Origin: *`, and a preflight (OPTIONS with
 * `Access-Control-Request-Method`) under the API is answered 200 with an
 * empty body before anything else is checked: no route, permission or
 * method decides it. The library sends the origin header only to a request
 * that carries `Origin`; the snapshot sends it always, since `*` is the
 * same for every origin (so no `Vary: Origin` is needed) and a static host
 * cannot look at request headers.
 */

/** The header of every answer under the API. */
export const ALLOW_ORIGIN = { 'Access-Control-Allow-Origin': '*' } as const;

/** django-cors-headers' default methods and request headers, in its order, and its default preflight lifetime (a day). */
const PREFLIGHT_METHODS = 'DELETE, GET, OPTIONS, PATCH, POST, PUT';
export const PREFLIGHT_HEADERS =
  'accept, authorization, content-type, user-agent, x-csrftoken, x-requested-with';
export const PREFLIGHT_MAX_AGE = 86400;

/** The headers of a preflight's answer (200, no body). */
export const PREFLIGHT_ANSWER_HEADERS = {
  ...ALLOW_ORIGIN,
  'Access-Control-Allow-Methods': PREFLIGHT_METHODS,
  'Access-Control-Allow-Headers': PREFLIGHT_HEADERS,
  'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE),
} as const;

/** Django's HttpResponse, which the preflight's empty answer is, says it is HTML. */
export const PREFLIGHT_CONTENT_TYPE = 'text/html; charset=utf-8';

/** Whether a request is a browser's preflight: OPTIONS naming the method it asks about. */
export function isPreflight(method: string, requestMethod: string | null | undefined): boolean {
  return method === 'OPTIONS' && requestMethod !== null && requestMethod !== undefined;
}

/** Whether a request path (as sent, before any query) is one the CORS answers apply to: `<base>/api` and below. */
export function isCorsPath(pathname: string, base: string): boolean {
  const api = `${base}/api`;
  return pathname === api || pathname.startsWith(`${api}/`);
}
