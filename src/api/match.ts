/**
 * The route table read backwards: which resource kind a path names. Host
 * adapters write their patterns from the same helpers, and the preview (and
 * later the sidecar) routes requests with matchApiSegments(), so every place
 * that maps a URL to a file agrees with the files the build wrote.
 */
import { PAGE_SEGMENT } from './urls.ts';
import { ROUTES, type Route } from './routes.ts';

/**
 * The characters a slug or a language code may have, as a regular expression
 * class body. Never `/`, `.` or `~`, so a parameter can never be taken for a
 * file name (`index.json`) or a page segment (`~page`).
 */
export const PARAM_CHARACTERS = 'A-Za-z0-9_@-';

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

/** The routes whose lists are split into pages. */
export function paginatedRoutes(): Route[] {
  return ROUTES.filter((route) => route.paginated);
}

/** The largest number of segments after `/api/` of any file of the tree (the deepest page path). */
export function deepestPath(): number {
  return Math.max(...ROUTES.map((route) => route.pattern.length + (route.paginated ? 2 : 0)));
}

/**
 * The resource named by the segments of a path after `/api/` (no empty
 * segments, no trailing `index.json`): `['projects', 'demo']`, or
 * `['projects', '~page', '2']` for page 2 of the project list. Null when no
 * route has that shape or a parameter has a character no slug or code has.
 */
export function matchApiSegments(segments: readonly string[]): RouteMatch | null {
  const pageAt = segments.length - 2;
  const pageNumber = segments[pageAt + 1] ?? '';
  if (segments[pageAt] === PAGE_SEGMENT && PAGE_NUMBER.test(pageNumber) && pageNumber !== '1') {
    const list = matchResource(segments.slice(0, pageAt));
    return list && list.route.paginated ? { ...list, page: Number(pageNumber) } : null;
  }
  return matchResource(segments);
}

// --- internal ---

const PARAM_VALUE = new RegExp(`^[${PARAM_CHARACTERS}]+$`);

function matchResource(segments: readonly string[]): RouteMatch | null {
  const route = ROUTES.find((candidate) => fits(candidate.pattern, segments));
  if (!route) return null;
  const path = segments.length === 0 ? '/api/' : `/api/${segments.join('/')}/`;
  return { route, path, page: null };
}

function fits(pattern: readonly string[], segments: readonly string[]): boolean {
  return (
    pattern.length === segments.length &&
    pattern.every((part, i) => (isParam(part) ? PARAM_VALUE.test(segments[i]!) : part === segments[i]))
  );
}
