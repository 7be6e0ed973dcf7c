/**
 * The route table read backwards: which resource kind a path names. Host
 * adapters write their patterns from the same helpers, and the preview (and
 * later the sidecar) routes requests with matchApiSegments(), so every place
 * that maps a URL to a file agrees with the files the build wrote.
 */
import type { WeblateVersion } from '../model/defaults.ts';
import { encodeSegment, PAGE_SEGMENT } from './urls.ts';
import { routesOf, type Route } from './routes.ts';

/**
 * The characters a slug or a language code may have, as a regular expression
 * class body. Never `/`, `.` or `~`, so a parameter can never be taken for a
 * file name (`index.json`) or a page segment (`~page`).
 */
export const PARAM_CHARACTERS = 'A-Za-z0-9_@-';

/**
 * The pattern of a parameter's value, as a regular expression fragment: a
 * slug or code of PARAM_CHARACTERS; in 2026.8 a component's may also be a
 * path through categories, its slugs joined with `%2F` as a host sees the
 * path once decoded (`decoded`: `docs%2Fguide`), or `%252F` as it was sent
 * (`raw`: `docs%252Fguide`).
 */
export function paramPattern(
  part: string,
  version: WeblateVersion,
  form: 'decoded' | 'raw' = 'decoded',
): string {
  const slug = `[${PARAM_CHARACTERS}]+`;
  if (part !== ':component' || version === '4') return slug;
  return `${slug}(?:${form === 'raw' ? '%252F' : '%2F'}${slug})*`;
}

/** A page number as it appears in a path or in `?page=`: 1, 2, ... without leading zeros. */
export const PAGE_NUMBER = /^[1-9][0-9]*$/;

export interface RouteMatch {
  route: Route;
  /** The API path of the resource (for a page: of its list), e.g. `/api/projects/demo/`. */
  path: string;
  /** The page named in the path (`…/~page/3/`), or null for the resource itself. */
  page: number | null;
}

/** Whether a pattern segment is a parameter (`:project`) rather than a literal. */
export function isParam(segment: string): boolean {
  return segment.startsWith(':');
}

/** The pattern of the page files of a paginated route: its own segments, `~page`, `:page`. */
export function pagePattern(route: Route): string[] {
  return [...route.pattern, PAGE_SEGMENT, ':page'];
}

/** The routes of a flavour whose lists are split into pages. */
export function paginatedRoutes(version: WeblateVersion): Route[] {
  return routesOf(version).filter((route) => route.paginated);
}

/** The largest number of segments after `/api/` of any file of a flavour's tree (the deepest page path). */
export function deepestPath(version: WeblateVersion): number {
  return Math.max(
    ...routesOf(version).map((route) => route.pattern.length + (route.paginated ? 2 : 0)),
  );
}

/**
 * The resource of a flavour named by the decoded segments of a path after
 * `/api/` (no empty segments, no trailing `index.json`): `['projects',
 * 'demo']`, or `['projects', '~page', '2']` for page 2 of the project list.
 * Null when no route has that shape or a parameter has a character no slug
 * or code has. The match's path is written as the tree's API paths are
 * (`docs%2Fguide` as `docs%252Fguide`).
 */
export function matchApiSegments(
  segments: readonly string[],
  version: WeblateVersion = '4',
): RouteMatch | null {
  const pageAt = segments.length - 2;
  const pageNumber = segments[pageAt + 1] ?? '';
  if (segments[pageAt] === PAGE_SEGMENT && PAGE_NUMBER.test(pageNumber) && pageNumber !== '1') {
    const list = matchResource(segments.slice(0, pageAt), version);
    return list && list.route.paginated ? { ...list, page: Number(pageNumber) } : null;
  }
  return matchResource(segments, version);
}

// --- internal ---

const SLUG_VALUE = new RegExp(`^${paramPattern(':project', '4')}$`);
const COMPONENT_PATH_VALUE = new RegExp(`^${paramPattern(':component', '2026.8')}$`);

/** The whole value a parameter may have in a flavour. */
function paramValue(part: string, version: WeblateVersion): RegExp {
  return part === ':component' && version !== '4' ? COMPONENT_PATH_VALUE : SLUG_VALUE;
}

function matchResource(segments: readonly string[], version: WeblateVersion): RouteMatch | null {
  // Weblate reads %2f as %2F (it unquotes the component's path).
  const given =
    version === '4' ? segments : segments.map((segment) => segment.replace(/%2f/g, '%2F'));
  const route = routesOf(version).find((candidate) => fits(candidate.pattern, given, version));
  if (!route) return null;
  const path = given.length === 0 ? '/api/' : `/api/${given.map(encodeSegment).join('/')}/`;
  return { route, path, page: null };
}

function fits(
  pattern: readonly string[],
  segments: readonly string[],
  version: WeblateVersion,
): boolean {
  return (
    pattern.length === segments.length &&
    pattern.every((part, i) =>
      isParam(part) ? paramValue(part, version).test(segments[i]!) : part === segments[i],
    )
  );
}
