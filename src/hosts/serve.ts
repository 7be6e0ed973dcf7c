/**
 * `serve.json` for serve (serve-handler), read by `npx serve dist` and by the
 * preview. serve knows only `index.html` as a folder index, so one rewrite per
 * path depth sends `/api/a/b/` to `/api/a/b/index.json`; its parameters cannot
 * match a dot, because serve applies rewrites again to their result. Headers
 * are matched against the file served, every matching rule applies, and a
 * later rule wins a header an earlier one set: the first rule gives every API
 * file the API root's Allow, later ones correct it per resource kind, page
 * files last. The serve CLI accepts at most 50 header rules, which the 2026.8
 * flavour's longer table would pass: there a page rule is written only where
 * the rules before it would give the page another Allow than its list's, and
 * routes Weblate refuses an anonymous reader (no files) get none. The first
 * rule and the 404 page's also carry the API's Access-Control-Allow-Origin;
 * serve answers OPTIONS with the file, so a preflight gets that header alone.
 */
import { deepestPath, isParam, pagePattern, paginatedRoutes } from '../api/match.ts';
import { refusalOf, routeOf, routesOf, type Route } from '../api/routes.ts';
import type { WeblateVersion } from '../model/defaults.ts';
import type { Site } from '../model/types.ts';
import { NOT_FOUND_FILE } from './common.ts';
import { JSON_TYPE, VARY } from '../api/answers.ts';
import { basePath } from '../api/urls.ts';
import { ALLOW_ORIGIN } from '../api/cors.ts';

export const SERVE_CONFIG_FILE = 'serve.json';

interface ServeHeaderRule {
  source: string;
  headers: { key: string; value: string }[];
}

export interface ServeConfig {
  directoryListing: boolean;
  cleanUrls: boolean;
  rewrites: { source: string; destination: string }[];
  headers: ServeHeaderRule[];
}

/** The serve-handler configuration of a site (without `public`, which the caller sets). */
export function serveConfig(site: Site): ServeConfig {
  return {
    directoryListing: false,
    cleanUrls: false,
    rewrites: serveRewrites(basePath(site), site.weblateVersion),
    headers: serveHeaders(site.weblateVersion),
  };
}

/** The text of serve.json. */
export function renderServeConfig(site: Site): string {
  return JSON.stringify(serveConfig(site), null, 2) + '\n';
}

// --- internal ---

function serveRewrites(base: string, version: WeblateVersion): ServeConfig['rewrites'] {
  const rewrites: ServeConfig['rewrites'] = [];
  for (let depth = 0; depth <= deepestPath(version); depth++) {
    const names = Array.from({ length: depth }, (_, i) => `s${i + 1}`);
    rewrites.push({
      source: [`${base}/api`, ...names.map((name) => `:${name}([^/.]+)`)].join('/'),
      destination: ['/api', ...names.map((name) => `:${name}`), 'index.json'].join('/'),
    });
  }
  return rewrites;
}

function serveHeaders(version: WeblateVersion): ServeHeaderRule[] {
  const fallback = routeOf('root').allow;
  const allowRule = (pattern: readonly string[], allow: string): ServeHeaderRule => ({
    source: fileGlob(pattern),
    headers: [{ key: 'Allow', value: allow }],
  });
  const served = (route: Route) => refusalOf(route, version) === undefined;
  const routeRules = routesOf(version)
    .filter((route) => served(route) && route.allow !== fallback)
    .map((route) => allowRule(route.pattern, route.allow));
  const pageRules = paginatedRoutes(version)
    .filter(served)
    .filter((route) => version === '4' || allowBefore(route, routeRules, fallback) !== route.allow)
    .map((route) => allowRule(pagePattern(route), route.allow));
  return [
    {
      source: 'api/**',
      headers: [
        { key: 'Content-Type', value: JSON_TYPE },
        { key: 'Vary', value: VARY },
        { key: 'Allow', value: fallback },
        ...headerList(ALLOW_ORIGIN),
      ],
    },
    ...routeRules,
    ...pageRules,
    {
      source: NOT_FOUND_FILE,
      headers: [{ key: 'Content-Type', value: JSON_TYPE }, { key: 'Vary', value: VARY }, ...headerList(ALLOW_ORIGIN)],
    },
  ];
}

/** The Allow a page file of the route's list gets from `rules` alone (the last that matches it wins). */
function allowBefore(route: Route, rules: readonly ServeHeaderRule[], fallback: string): string {
  const page = fileGlob(pagePattern(route)).replace(/\*/g, '2');
  const last = rules.findLast((rule) => globMatches(rule.source, page));
  return last ? last.headers[0]!.value : fallback;
}

function headerList(headers: Readonly<Record<string, string>>): { key: string; value: string }[] {
  return Object.entries(headers).map(([key, value]) => ({ key, value }));
}

/** Whether a glob of `*` (one segment) and literal segments matches a file path. */
function globMatches(glob: string, path: string): boolean {
  const parts = glob.split('/');
  const segments = path.split('/');
  return parts.length === segments.length && parts.every((part, i) => part === '*' || part === segments[i]);
}

/** The glob of the files of a pattern: `api/`, the segments with `*` for each parameter, `/index.json`. */
function fileGlob(pattern: readonly string[]): string {
  return ['api', ...pattern.map((part) => (isParam(part) ? '*' : part)), 'index.json'].join('/');
}
