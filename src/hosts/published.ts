/**
 * Which files of a built tree readers are served (the API, the page a host
 * shows for a miss) as opposed to configuration a host reads (serve.json,
 * hosts/, _redirects, …), and the Content-Type each is served with: one
 * table, by extension, for every host and for the deploy to object storage.
 */
import { JSON_TYPE } from '../api/answers.ts';
import { API_NOT_FOUND_FILE, NOT_FOUND_FILE, SERVE_CONFIG_FILE } from './common.ts';

/** Whether the file at `path` (relative to the tree's root, with `/`) is served to readers. */
export function isPublished(path: string): boolean {
  return !path.startsWith('hosts/') && !HOST_CONFIGURATION.has(path);
}

/**
 * The Content-Type of a published file, from its extension; bytes of no known
 * type for any other (a user's `CNAME`). The root's `404.html` is typed by its
 * first byte (`data`): the status site's page, or without the site the JSON
 * body of Weblate's 404, whatever its name says.
 */
export function contentTypeOf(path: string, data?: Uint8Array): string {
  if (path === API_NOT_FOUND_FILE) return JSON_TYPE;
  if (path === NOT_FOUND_FILE) return data?.[0] === LESS_THAN ? TYPES['.html']! : JSON_TYPE;
  const extension = /\.[^./]+$/.exec(path)?.[0]?.toLowerCase() ?? '';
  return TYPES[extension] ?? 'application/octet-stream';
}

/**
 * The Content-Security-Policy the status site's pages are served with: no
 * script, style or image but the site's own (the icon link is a `data:` URL),
 * no frame, form or base elsewhere. The pages need no more: no style attribute, no inline script.
 */
export const PAGE_POLICY =
  "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

// --- internal ---

/** The first byte of an HTML page (`<!DOCTYPE html>`); a JSON body starts with `{`. */
const LESS_THAN = 0x3c;

/** Files at the root that only hosts read. */
const HOST_CONFIGURATION: ReadonlySet<string> = new Set([
  SERVE_CONFIG_FILE,
  '.nojekyll',
  '_redirects',
  '_headers',
]);

const TYPES: Readonly<Record<string, string>> = {
  '.json': JSON_TYPE,
  // The status site: pages, its stylesheet, badges and charts (as Weblate sends them), CSV exports.
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  // Files a user adds beside the tree for hosts and crawlers (robots.txt, .well-known/…).
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.js': 'text/javascript; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/vnd.microsoft.icon',
  '.webmanifest': 'application/manifest+json',
};
