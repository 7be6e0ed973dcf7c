/**
 * What a request for the status site is answered with, decided from the URL
 * alone by the status site's route table (api/status-site-routes.ts), as a host that looks
 * for a file first would answer it: the files to try in order (the first
 * that exists is served), a 301 (a page or export folder without its
 * trailing slash, as Django's APPEND_SLASH; a 4.x widget path in 2026.8), or
 * an error; then the answer itself, read from the tree. The preview and the
 * sidecar both route with it; the API's paths are not its own, and any other
 * path outside the status site's is a miss answered with the site's 404 page.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  exportFile,
  exportFileName,
  EXPORT_FILES,
  fillPattern,
  matchStatusSiteSegments,
  PAGE_FILE,
} from '../api/status-site-routes.ts';
import { SITE_ROOT_NAMES } from '../api/urls.ts';
import { isCorsPath } from '../api/cors.ts';
import type { StatusSiteMatch } from '../api/status-site-routes.ts';
import { contentTypeOf, PAGE_POLICY } from '../hosts/published.ts';
import { hasTrait, shapesOf, type Release } from '../model/releases.ts';
import type { Settings } from '../model/types.ts';
import { notFoundPage } from '../status-site/pages.ts';
import { decodeSegment } from './targets.ts';

/** A file of the tree to serve, relative to its root, with the headers it is served with. */
interface StatusSiteFile {
  file: string;
  headers: Record<string, string>;
}

type StatusSiteAnswer =
  | { kind: 'files'; files: StatusSiteFile[] }
  | { kind: 'redirect'; location: string }
  | { kind: 'error'; status: 404 | 405 };

/**
 * `method` and `url` as the request has them; `base` the path of the status site's
 * base URL (`` or `/l10n`), which is the status site's root too; `release` the tree's. Null
 * for the API's paths, which are answered as before; a 404 for any method on a path
 * that is neither the API's nor the site's, as Weblate answers a URL it has no
 * route for (a release without stats exports has none for them).
 */
export function resolveStatusSiteRequest(
  method: string,
  url: string,
  base: string,
  release: Release,
): StatusSiteAnswer | null {
  const queryAt = url.indexOf('?');
  const pathname = queryAt < 0 ? url : url.slice(0, queryAt);
  const query = queryAt < 0 ? '' : url.slice(queryAt);
  if (pathname === base && base !== '') return { kind: 'redirect', location: `${base}/${query}` };
  if (isCorsPath(pathname, base)) return null;
  if (!pathname.startsWith(`${base}/`)) return NOT_FOUND;
  const raw = pathname.slice(base.length + 1).split('/');
  if (raw.length > 1 || raw[0] !== '') {
    if (!(SITE_ROOT_NAMES as readonly string[]).includes(raw[0]!)) return NOT_FOUND;
  }
  if (method !== 'GET' && method !== 'HEAD') return { kind: 'error', status: 405 };
  const slash = raw.at(-1) === '';
  if (slash) raw.pop();
  const segments = raw.map(decodeSegment);
  if (!segments.every((segment): segment is string => segment !== null)) return NOT_FOUND;
  const end = !slash && INDEX_FILES.has(segments.at(-1) ?? '') ? segments.pop()! : '';
  const exports = !hasTrait(release, 'noStatsExports');
  const matches = matchStatusSiteSegments(segments, shapesOf(release)).filter(
    (match) => exports || match.route.serves.kind !== 'export',
  );
  if (matches[0]?.route.serves.kind === 'redirect') {
    const to = matches[0].route.serves.to;
    return slash || end
      ? NOT_FOUND
      : { kind: 'redirect', location: `${base}${fillPattern(to, matches[0].params)}${query}` };
  }
  const folder = matches.find(
    (match) => match.route.serves.kind === 'page' || match.route.serves.kind === 'export',
  );
  if (folder)
    return folderAnswer(
      folder,
      segments,
      { slash, end },
      new URLSearchParams(query),
      `${pathname}/${query}`,
    );
  if (slash || end) return NOT_FOUND;
  const files = [...new Set(matches.flatMap((match) => filesOf(match, segments)))];
  return files.length > 0
    ? { kind: 'files', files: files.map((file) => statusSiteFile(file)) }
    : NOT_FOUND;
}

/** An answer of the status site, ready to send: the body is left out for HEAD by the caller. */
export interface StatusSiteResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * The answer to a site request, the files read from the tree at `outDir` (the
 * first that exists is served); a miss gets the site's not-found page of `settings`.
 */
export async function readStatusSiteAnswer(
  outDir: string,
  answer: StatusSiteAnswer,
  settings: Settings,
): Promise<StatusSiteResponse> {
  if (answer.kind === 'redirect')
    return { status: 301, headers: { Location: answer.location, ...EMPTY }, body: Buffer.alloc(0) };
  if (answer.kind === 'files') {
    for (const { file, headers } of answer.files) {
      const body = await readFile(join(outDir, file)).catch(() => null);
      if (body)
        return {
          status: 200,
          headers: { ...headers, 'Content-Length': String(body.length) },
          body,
        };
    }
  }
  if (answer.kind === 'error' && answer.status === 405)
    return { status: 405, headers: { Allow: SITE_ALLOW, ...EMPTY }, body: Buffer.alloc(0) };
  const body = Buffer.from(notFoundPage(settings));
  return {
    status: 404,
    headers: {
      'Content-Type': HTML_TYPE,
      'Content-Security-Policy': PAGE_POLICY,
      'Content-Length': String(body.length),
    },
    body,
  };
}

// --- internal ---

/** The methods the status site answers. */
const SITE_ALLOW = 'GET, HEAD';

const HTML_TYPE = 'text/html; charset=utf-8';
/** Django's empty answers (a redirect, a 405) still say they are HTML. */
const EMPTY = { 'Content-Type': HTML_TYPE, 'Content-Length': '0' };

const NOT_FOUND = { kind: 'error', status: 404 } as const;

/** The index files a folder may be asked for by name. */
const INDEX_FILES: ReadonlySet<string> = new Set([PAGE_FILE, EXPORT_FILES.json, EXPORT_FILES.csv]);

/** A page or an export: with the slash (or its index file by name) the file, without it a 301 to the folder. */
function folderAnswer(
  match: StatusSiteMatch,
  segments: readonly string[],
  asked: { slash: boolean; end: string },
  query: URLSearchParams,
  withSlash: string,
): StatusSiteAnswer {
  if (!asked.slash && !asked.end) return { kind: 'redirect', location: withSlash };
  const folder = segments.map((segment) => `${segment}/`).join('');
  if (match.route.serves.kind === 'page') {
    return asked.end === '' || asked.end === PAGE_FILE
      ? { kind: 'files', files: [statusSiteFile(`${folder}${PAGE_FILE}`)] }
      : NOT_FOUND;
  }
  if (asked.end === PAGE_FILE) return NOT_FOUND;
  const file = exportFile(asked.end, query.get('format'));
  const served = statusSiteFile(`${folder}${file}`);
  if (file === EXPORT_FILES.csv) {
    served.headers['Content-Disposition'] =
      `attachment; filename=${exportFileName(match.params.project!, match.params.component ?? null)}`;
  }
  return { kind: 'files', files: [served] };
}

/** The files a file route's path may be: its own, then for a chart alias the chart it stands for. */
function filesOf(match: StatusSiteMatch, segments: readonly string[]): string[] {
  const own = segments.join('/');
  const serves = match.route.serves;
  if (serves.kind === 'file') return [own];
  if (serves.kind === 'alias') return [own, fillPattern(serves.to, match.params).slice(1)];
  return [];
}

/** A file with its type; a page with the policy it is written to meet, too. */
function statusSiteFile(file: string): StatusSiteFile {
  const headers: Record<string, string> = { 'Content-Type': contentTypeOf(file) };
  if (file.endsWith(`/${PAGE_FILE}`) || file === PAGE_FILE)
    headers['Content-Security-Policy'] = PAGE_POLICY;
  return { file, headers };
}
