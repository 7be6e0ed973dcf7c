/**
 * `serve.json` for serve (serve-handler), read by `npx serve dist` and by the
 * preview. serve knows only `index.html` as a folder index, so one rewrite per
 * path depth sends `/api/a/b/` to `/api/a/b/index.json`; its parameters cannot
 * match a dot, because serve applies rewrites again to their result. Headers
 * are matched against the file served, every matching rule applies, and a
 * later rule wins a header an earlier one set: the first rule gives every API
 * file the API root's Allow, later ones correct it per resource kind, page
 * files last. The serve CLI accepts at most 50 header rules.
 */
import { deepestPath, isParam, pagePattern, paginatedRoutes } from '../api/match.ts';
import { ROUTES, routeOf } from '../api/routes.ts';
import type { Site } from '../model/types.ts';
import { NOT_FOUND_FILE } from './common.ts';
import { JSON_TYPE, VARY } from '../api/answers.ts';
import { basePath } from '../api/urls.ts';

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
    rewrites: serveRewrites(basePath(site)),
    headers: serveHeaders(),
  };
}

/** The text of serve.json. */
export function renderServeConfig(site: Site): string {
  return JSON.stringify(serveConfig(site), null, 2) + '\n';
}

// --- internal ---

function serveRewrites(base: string): ServeConfig['rewrites'] {
  const rewrites: ServeConfig['rewrites'] = [];
  for (let depth = 0; depth <= deepestPath(); depth++) {
    const names = Array.from({ length: depth }, (_, i) => `s${i + 1}`);
    rewrites.push({
      source: [`${base}/api`, ...names.map((name) => `:${name}([^/.]+)`)].join('/'),
      destination: ['/api', ...names.map((name) => `:${name}`), 'index.json'].join('/'),
    });
  }
  return rewrites;
}

function serveHeaders(): ServeHeaderRule[] {
  const fallback = routeOf('root').allow;
  const allowRule = (pattern: readonly string[], allow: string): ServeHeaderRule => ({
    source: fileGlob(pattern),
    headers: [{ key: 'Allow', value: allow }],
  });
  return [
    {
      source: 'api/**',
      headers: [
        { key: 'Content-Type', value: JSON_TYPE },
        { key: 'Vary', value: VARY },
        { key: 'Allow', value: fallback },
      ],
    },
    ...ROUTES.filter((route) => route.allow !== fallback).map((route) => allowRule(route.pattern, route.allow)),
    ...paginatedRoutes().map((route) => allowRule(pagePattern(route), route.allow)),
    {
      source: NOT_FOUND_FILE,
      headers: [
        { key: 'Content-Type', value: JSON_TYPE },
        { key: 'Vary', value: VARY },
      ],
    },
  ];
}

/** The glob of the files of a pattern: `api/`, the segments with `*` for each parameter, `/index.json`. */
function fileGlob(pattern: readonly string[]): string {
  return ['api', ...pattern.map((part) => (isParam(part) ? '*' : part)), 'index.json'].join('/');
}
