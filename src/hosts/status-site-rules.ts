/**
 * The status site's rules as hosts whose rules have placeholders but no
 * expressions write them (Netlify, Cloudflare Pages): from the status site's route
 * table, each route with its parameters written out one segment each
 * (`:component1/:component2`), and a chart's name written out too, since a
 * placeholder would also take the badge's. Paths are after the base path.
 */
import { CHART_COLORS, CHART_KINDS, chartFile, PROJECT_WIDGET_FILES } from '../api/urls.ts';
import {
  expandDepths,
  folderShapes,
  statusSiteRoutesOf,
  type FolderShape,
  BELOW_PROJECT_WIDGETS,
} from '../api/status-site-routes.ts';
import type { WeblateVersion } from '../model/defaults.ts';

interface StatusSiteRule {
  /** The path asked for: `/widgets/:project/:language/multi-auto.svg`. */
  from: string;
  /** What it is served as, or redirected to: `/widgets/:project/-/multi-auto.svg`. */
  to: string;
}

/** The 301s of 2026.8's 4.x widget paths, `-` first. */
export function redirectRules(version: WeblateVersion): StatusSiteRule[] {
  return statusSiteRoutesOf(version).flatMap((route) =>
    route.serves.kind === 'redirect'
      ? [{ from: pathOf(route.pattern), to: pathOf(route.serves.to) }]
      : [],
  );
}

/**
 * Charts at a language's prefix as the charts they stand for. `lookFirst`:
 * whether the host serves a file at the path before any rule (only then may
 * it take the ones a component inside categories shares a path with).
 */
export function aliasRules(version: WeblateVersion, lookFirst: boolean): StatusSiteRule[] {
  return statusSiteRoutesOf(version).flatMap((route) => {
    if (route.serves.kind !== 'alias' || (route.serves.lookFirst && !lookFirst)) return [];
    return expandDepths(route, version).flatMap(({ pattern, to }) =>
      CHARTS.map((chart) => ({
        from: pathOf(withChart(pattern, chart)),
        to: pathOf(withChart(to!, chart)),
      })),
    );
  });
}

/**
 * What sits in the widget folders and is no SVG: each PNG widget's path, and
 * the pages under a widget folder (4.x's widgets page, `/widgets/:project`),
 * for hosts that type a whole folder as SVG and must type these again. Not
 * the PNGs below a project's folder (`png_widgets: all`): a rule each would
 * pass the hosts' limits, so those hosts type by extension then.
 */
export function notSvgInWidgetFolders(version: WeblateVersion): { png: string[]; pages: string[] } {
  const routes = statusSiteRoutesOf(version);
  const folders = new Set(fileFolders(version).filter((folder) => folder.startsWith('widget')));
  const pngs = PROJECT_WIDGET_FILES.filter((name) => name.endsWith('.png'));
  return {
    png: routes.flatMap((route) =>
      route.pattern.includes(':image') && !BELOW_PROJECT_WIDGETS.includes(route.kind)
        ? pngs.map((name) => pathOf(route.pattern.map((part) => (part === ':image' ? name : part))))
        : [],
    ),
    pages: routes.flatMap((route) =>
      route.serves.kind === 'page' && folders.has(route.pattern[0]!) ? [pathOf(route.pattern)] : [],
    ),
  };
}

/** The folders the status site's files (stylesheet, badges, charts) are in: `static`, `widgets`, … */
export function fileFolders(version: WeblateVersion): string[] {
  return [
    ...new Set(
      statusSiteRoutesOf(version).flatMap((route) =>
        route.serves.kind === 'file' ? route.pattern.slice(0, 1) : [],
      ),
    ),
  ];
}

/** The folders of pages or exports, one path per depth: `/projects/:s1`, `/projects/:s1/:s2`, … (`` for the home page). */
export function folderPaths(version: WeblateVersion, serves: 'page' | 'export'): string[] {
  return folderShapes(version, serves).flatMap((shape) =>
    depthsOf(shape).map((depth) => pathOf(folderPattern(shape, depth))),
  );
}

/**
 * The `_headers` paths of the status site's pages (the home page, and every
 * path under the folders pages are in), each under the base path and, when
 * there is one, at the file's own place in the tree too.
 */
export function pageHeaderPaths(base: string, version: WeblateVersion): string[] {
  const paths = ['/', ...folderPrefixes(version, 'page').map((prefix) => `${prefix}/*`)];
  return [...new Set([...paths.map((path) => `${base}${path}`), ...paths])];
}

/** The literal segments the folders of pages or exports start with: `/projects`, `/exports/stats`, … */
export function folderPrefixes(version: WeblateVersion, serves: 'page' | 'export'): string[] {
  return folderShapes(version, serves).flatMap((shape) =>
    shape.prefix.length > 0 ? [pathOf(shape.prefix)] : [],
  );
}

// --- internal ---

const CHARTS = CHART_KINDS.flatMap((kind) => CHART_COLORS.map((color) => chartFile(kind, color)));

function withChart(pattern: readonly string[], chart: string): string[] {
  return pattern.map((part) => (part === ':chart' ? chart : part));
}

function pathOf(pattern: readonly string[]): string {
  return pattern.map((part) => `/${part}`).join('');
}

function folderPattern(shape: FolderShape, depth: number): string[] {
  return [...shape.prefix, ...Array.from({ length: depth }, (_, i) => `:s${i + 1}`)];
}

function depthsOf(shape: FolderShape): number[] {
  return Array.from({ length: shape.max - shape.min + 1 }, (_, i) => shape.min + i);
}
