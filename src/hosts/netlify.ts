/**
 * Netlify: `_redirects` and `_headers`. The first matching redirect rule wins;
 * Netlify matches a path with or without its trailing slash, serves a file
 * that exists before any rule that is not forced, and can test query
 * parameters, so `?page=N` rules for the lists come before the rules that send
 * every path to its `index.json`. Those use one placeholder per segment and a
 * rule per depth: a splat would keep the trailing slash and give `//`. Netlify
 * ignores a custom Allow header, so `_headers` sets Content-Type, Vary and
 * the API's Access-Control-Allow-Origin only. Netlify answers OPTIONS itself:
 * no rule can answer a browser's preflight.
 */
import { deepestPath, paginatedRoutes } from '../api/match.ts';
import { refusalOf, type Route } from '../api/routes.ts';
import type { Site } from '../model/types.ts';
import { PAGE_SEGMENT, basePath } from '../api/urls.ts';
import { generatedBy } from './common.ts';
import { JSON_TYPE, VARY } from '../api/answers.ts';
import { ALLOW_ORIGIN } from '../api/cors.ts';

export function renderNetlifyRedirects(site: Site): string {
  const base = basePath(site);
  return [
    `# ${generatedBy(site, 'Netlify')}`,
    '# ?page=N of a list → its page file (first match wins, so these come first).',
    ...paginatedRoutes(site.weblateVersion)
      .filter((route) => refusalOf(route, site.weblateVersion) === undefined)
      .map((route) => pageRule(route, base)),
    '# Every other path → its index.json, one rule per depth.',
    ...depthRules(base, deepestPath(site.weblateVersion)),
    '',
  ].join('\n');
}

export function renderNetlifyHeaders(site: Site): string {
  const base = basePath(site);
  // Rules for the request path and, when the API sits under a path, for the file path too.
  const paths = [...new Set([`${base}/api/*`, '/api/*'])];
  return [
    `# ${generatedBy(site, 'Netlify')}`,
    ...paths.flatMap((path) => [path, `  Content-Type: ${JSON_TYPE}`, `  Vary: ${VARY}`, ...headerLines(ALLOW_ORIGIN)]),
    '',
  ].join('\n');
}

// --- internal ---

function headerLines(headers: Readonly<Record<string, string>>): string[] {
  return Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`);
}

/** Route patterns already read as Netlify placeholders (`:project`). */
function pageRule(route: Route, base: string): string {
  const from = [`${base}/api`, ...route.pattern].join('/');
  const to = ['/api', ...route.pattern, PAGE_SEGMENT, ':page', 'index.json'].join('/');
  return `${from} page=:page ${to} 200`;
}

function depthRules(base: string, deepest: number): string[] {
  const rules: string[] = [];
  for (let depth = 0; depth <= deepest; depth++) {
    const names = Array.from({ length: depth }, (_, i) => `:s${i + 1}`);
    rules.push(`${[`${base}/api`, ...names].join('/')} ${['/api', ...names, 'index.json'].join('/')} 200`);
  }
  return rules;
}
