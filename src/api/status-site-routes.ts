/**
 * The route table of the status site (written when `settings.pages` is on): every
 * kind of web path the tree holds a file for, at Weblate's web paths of each
 * flavour, and what a host does with it. Pages and stats exports are folders
 * (`index.html`; `index.json`, and `index.csv` for `?format=csv`), the
 * stylesheet, badges and charts are files, a chart asked for at a language's
 * prefix is the chart without it (Weblate ignores the language there), and
 * in 2026.8 the 4.x widget paths redirect to current Weblate's. Host
 * adapters, the preview and the sidecar all read this table, as they read
 * the API's route table (routes.ts); urls.ts builds the same paths.
 *
 * A pattern's segments follow the base path: literals, and parameters of
 * PARAM_SHAPES. In 2026.8 `:component` and `:category` may span several
 * segments (a path through categories, with real slashes on the web).
 */
import type { WeblateVersion } from '../model/defaults.ts';
import { CATEGORY_DEPTH } from '../resolve/categories.ts';
import { PARAM_CHARACTERS } from './match.ts';
import { BADGE_FILE, CHART_COLORS, CHART_KINDS, chartFile, PROJECT_WIDGET_FILES } from './urls.ts';

/** What a path of a route serves. */
type StatusSiteServes =
  /** A page: the folder's `index.html`. */
  | { kind: 'page' }
  /** A stats export: the folder's `index.json`, or `index.csv` for `?format=csv`. */
  | { kind: 'export' }
  /** The file the path names. */
  | { kind: 'file' }
  /**
   * The file of another route's pattern, the parameters carried over (status
   * 200, as Weblate serves the same chart there). `lookFirst`: the path may
   * also name a file of its own (a component inside categories has the
   * shape of a component and a language), so only a host that looks for
   * the file first may apply it.
   */
  | { kind: 'alias'; to: readonly string[]; lookFirst?: true }
  /** A 301 to another route's pattern, the parameters and the query carried over. */
  | { kind: 'redirect'; to: readonly string[] };

export interface StatusSiteRoute {
  kind: string;
  pattern: readonly string[];
  serves: StatusSiteServes;
  flavours: readonly WeblateVersion[];
}

/** The routes of the widgets below a project's folder, whose files only `png_widgets: all` writes. */
export const BELOW_PROJECT_WIDGETS: readonly string[] = [
  'component-widget',
  'language-widget',
  'translation-widget',
];

/** The file a page folder holds. */
export const PAGE_FILE = 'index.html';
/** The files a stats export folder holds: JSON, and CSV for `?format=csv`. */
export const EXPORT_FILES = { json: 'index.json', csv: 'index.csv' } as const;

/** A stats export's file for a request: CSV for the path form `…/index.csv` or `?format=csv` on the folder, else JSON (Weblate's fallback for any other format). */
export function exportFile(end: string, format: string | null): string {
  if (end === EXPORT_FILES.csv || end === EXPORT_FILES.json) return end;
  return format === 'csv' ? EXPORT_FILES.csv : EXPORT_FILES.json;
}

/** The name a CSV export is saved under: `stats-<project>.csv`, `stats-<project>-<component slug>.csv`. */
export function exportFileName(project: string, component: string | null): string {
  return component === null
    ? `stats-${project}.csv`
    : `stats-${project}-${component.split('/').at(-1)!}.csv`;
}

/**
 * The parameters a status site pattern may hold, each as a regular expression of
 * its value: `one` for one segment, `many` for one or more joined by `/`
 * (in 2026.8, a component's or a category's path), and the largest number of
 * segments it spans.
 */
function paramShape(param: string, version: WeblateVersion): { regex: string; segments: number } {
  const shape = PARAM_SHAPES[param];
  if (!shape) throw new Error(`Internal error: unknown site parameter ${param}`);
  const deep = version !== '4' && shape.deep !== undefined;
  const segments = deep ? shape.deep! : 1;
  return {
    regex: segments > 1 ? `${shape.one}(?:\\/${shape.one}){0,${segments - 1}}` : shape.one,
    segments,
  };
}

/** The routes of a flavour, in the table's order. */
export function statusSiteRoutesOf(version: WeblateVersion): readonly StatusSiteRoute[] {
  return SITE_ROUTES.filter((route) => route.flavours.includes(version));
}

export interface StatusSiteMatch {
  route: StatusSiteRoute;
  /** Each parameter's value, by name without the colon: `{ project: 'demo', component: 'docs/guide' }`. */
  params: Record<string, string>;
}

/**
 * Every route of a flavour that decoded path segments after the base path
 * fit (no trailing slash, no index file), in the table's order; none when a
 * segment has a character no slug or code has.
 */
export function matchStatusSiteSegments(
  segments: readonly string[],
  version: WeblateVersion,
): StatusSiteMatch[] {
  const path = segments.map((segment) => `/${segment}`).join('');
  return statusSiteRoutesOf(version).flatMap((route) => {
    const found = new RegExp(
      `^${patternRegex(route.pattern, version, (param) => `(?<${param.slice(1)}>`)}$`,
    ).exec(path);
    return found ? [{ route, params: { ...found.groups } }] : [];
  });
}

/**
 * A pattern as a regular expression over the path after the base
 * (`/projects/demo`; `` for the home page): `/` between segments, each
 * parameter as `open(param)` + its value's expression + `)`, so a host can
 * name or number its groups as its syntax wants.
 */
export function patternRegex(
  pattern: readonly string[],
  version: WeblateVersion,
  open: (param: string) => string,
): string {
  return pattern
    .map(
      (part) =>
        `\\/${isStatusSiteParam(part) ? `${open(part)}${paramShape(part, version).regex})` : escape(part)}`,
    )
    .join('');
}

/** A pattern with its parameters filled in: the path after the base (`/widget/demo/svg-badge.svg`). */
export function fillPattern(
  pattern: readonly string[],
  params: Readonly<Record<string, string>>,
): string {
  return pattern
    .map((part) => `/${isStatusSiteParam(part) ? params[part.slice(1)]! : part}`)
    .join('');
}

export function isStatusSiteParam(part: string): boolean {
  return part.startsWith(':');
}

/**
 * The folders of a flavour (pages, or exports) by their leading literal
 * segments and how many segments may follow: what a host whose rules have
 * no expressions (one placeholder per segment, or a splat) can write, one
 * rule per depth. Wider than the routes (`/projects/a/b/c/` is a folder
 * whatever `a`, `b` and `c` are); a path no page has is a miss of the host.
 */
export function folderShapes(version: WeblateVersion, serves: 'page' | 'export'): FolderShape[] {
  const shapes = new Map<string, FolderShape>();
  for (const route of statusSiteRoutesOf(version).filter(
    (candidate) => candidate.serves.kind === serves,
  )) {
    const literals = route.pattern.findIndex(isStatusSiteParam);
    const prefix = literals < 0 ? route.pattern : route.pattern.slice(0, literals);
    const rest = route.pattern.slice(prefix.length);
    const min = rest.length;
    const max = rest.reduce(
      (sum, part) => sum + (isStatusSiteParam(part) ? paramShape(part, version).segments : 1),
      0,
    );
    const key = prefix.join('/');
    const known = shapes.get(key);
    shapes.set(key, {
      prefix,
      min: Math.min(min, known?.min ?? min),
      max: Math.max(max, known?.max ?? max),
    });
  }
  return [...shapes.values()];
}

export interface FolderShape {
  /** The literal segments every path of the folders starts with (none for the home page). */
  prefix: readonly string[];
  /** How many segments may follow them. */
  min: number;
  max: number;
}

/**
 * A route's pattern and target with each parameter that may span several
 * segments written out once per length (`:component` as `:component1`, then
 * `:component1/:component2`, …), for hosts whose placeholders take one
 * segment each. The same names stand in both.
 */
export function expandDepths(
  route: StatusSiteRoute,
  version: WeblateVersion,
): { pattern: readonly string[]; to: readonly string[] | null }[] {
  const to =
    route.serves.kind === 'alias' || route.serves.kind === 'redirect' ? route.serves.to : null;
  const deep = route.pattern.filter(
    (part) => isStatusSiteParam(part) && paramShape(part, version).segments > 1,
  );
  let variants = [{ pattern: route.pattern, to }];
  for (const param of deep) {
    const spans = Array.from({ length: paramShape(param, version).segments }, (_, i) => i + 1);
    variants = variants.flatMap((variant) =>
      spans.map((span) => {
        const parts = Array.from({ length: span }, (_, i) => `${param}${i + 1}`);
        const swap = (pattern: readonly string[]) =>
          pattern.flatMap((part) => (part === param ? parts : [part]));
        return { pattern: swap(variant.pattern), to: variant.to && swap(variant.to) };
      }),
    );
  }
  return variants;
}

// --- internal ---

/** A slug, but never `-` alone: Weblate's web paths use it for "no component" or "no language". */
const SLUG = `(?:[A-Za-z0-9_@][${PARAM_CHARACTERS}]*|-[${PARAM_CHARACTERS}]+)`;
/** A language code starts with a letter or digit, so `-` (Weblate's "none") is never one. */
const CODE = `[A-Za-z0-9][${PARAM_CHARACTERS}]*`;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const CHARTS = CHART_KINDS.flatMap((kind) =>
  CHART_COLORS.map((color) => escape(chartFile(kind, color))),
);

const PARAM_SHAPES: Readonly<Record<string, { one: string; deep?: number }>> = {
  ':project': { one: SLUG },
  ':language': { one: CODE },
  /** A component: its slug; in 2026.8 its path through categories (at most CATEGORY_DEPTH of them), then its slug. */
  ':component': { one: SLUG, deep: CATEGORY_DEPTH + 1 },
  ':category': { one: SLUG, deep: CATEGORY_DEPTH },
  /** One component slug, as the 4.x widget paths that 2026.8 redirects name it. */
  ':slug': { one: SLUG },
  ':chart': { one: `(?:${CHARTS.join('|')})` },
  /** A project's other widgets (PNG badges, the language badge, the matrix, Open Graph); with `png_widgets: all` the PNG badges of every folder. */
  ':image': { one: `(?:${PROJECT_WIDGET_FILES.map(escape).join('|')})` },
  /** The badge or a chart, as the redirects of 2026.8 carry them. */
  ':widget': { one: `(?:${[escape(BADGE_FILE), ...CHARTS].join('|')})` },
};

const BOTH: readonly WeblateVersion[] = ['4', '2026.8'];
const V4: readonly WeblateVersion[] = ['4'];
const CURRENT: readonly WeblateVersion[] = ['2026.8'];
const PAGE = { kind: 'page' } as const;
const FILE = { kind: 'file' } as const;

const SITE_ROUTES: readonly StatusSiteRoute[] = [
  // Pages: the instance, languages, projects and what is below them, the translate and share pages.
  { kind: 'home', pattern: [], serves: PAGE, flavours: BOTH },
  { kind: 'language', pattern: ['languages', ':language'], serves: PAGE, flavours: BOTH },
  {
    kind: 'language-project',
    pattern: ['languages', ':language', ':project'],
    serves: PAGE,
    flavours: V4,
  },
  { kind: 'project', pattern: ['projects', ':project'], serves: PAGE, flavours: BOTH },
  {
    kind: 'project-language',
    pattern: ['projects', ':project', '-', ':language'],
    serves: PAGE,
    flavours: CURRENT,
  },
  {
    kind: 'category',
    pattern: ['projects', ':project', ':category'],
    serves: PAGE,
    flavours: CURRENT,
  },
  {
    kind: 'component',
    pattern: ['projects', ':project', ':component'],
    serves: PAGE,
    flavours: BOTH,
  },
  {
    kind: 'translation',
    pattern: ['projects', ':project', ':component', ':language'],
    serves: PAGE,
    flavours: BOTH,
  },
  {
    kind: 'project-language-translate',
    pattern: ['translate', ':project', '-', ':language'],
    serves: PAGE,
    flavours: CURRENT,
  },
  {
    kind: 'translate',
    pattern: ['translate', ':project', ':component', ':language'],
    serves: PAGE,
    flavours: BOTH,
  },
  { kind: 'engage', pattern: ['engage', ':project', ':language'], serves: PAGE, flavours: V4 },
  {
    kind: 'engage-language',
    pattern: ['engage', ':project', '-', ':language'],
    serves: PAGE,
    flavours: CURRENT,
  },

  { kind: 'stylesheet', pattern: ['static', 'weblate-snapshot.css'], serves: FILE, flavours: BOTH },
  // A project's widgets page: every widget with the snippets that embed it.
  { kind: 'widgets', pattern: ['widgets', ':project'], serves: PAGE, flavours: BOTH },

  // Weblate 4.x's badges and charts. A chart at a language's prefix is the chart of the project or component.
  { kind: 'badge', pattern: ['widgets', ':project', '-', BADGE_FILE], serves: FILE, flavours: V4 },
  {
    kind: 'component-badge',
    pattern: ['widgets', ':project', '-', ':component', BADGE_FILE],
    serves: FILE,
    flavours: V4,
  },
  {
    kind: 'language-badge',
    pattern: ['widgets', ':project', ':language', BADGE_FILE],
    serves: FILE,
    flavours: V4,
  },
  {
    kind: 'translation-badge',
    pattern: ['widgets', ':project', ':language', ':component', BADGE_FILE],
    serves: FILE,
    flavours: V4,
  },
  { kind: 'chart', pattern: ['widgets', ':project', '-', ':chart'], serves: FILE, flavours: V4 },
  {
    kind: 'project-widget',
    pattern: ['widgets', ':project', '-', ':image'],
    serves: FILE,
    flavours: V4,
  },
  {
    kind: 'component-widget',
    pattern: ['widgets', ':project', '-', ':component', ':image'],
    serves: FILE,
    flavours: V4,
  },
  {
    kind: 'language-widget',
    pattern: ['widgets', ':project', ':language', ':image'],
    serves: FILE,
    flavours: V4,
  },
  {
    kind: 'translation-widget',
    pattern: ['widgets', ':project', ':language', ':component', ':image'],
    serves: FILE,
    flavours: V4,
  },
  {
    kind: 'component-chart',
    pattern: ['widgets', ':project', '-', ':component', ':chart'],
    serves: FILE,
    flavours: V4,
  },
  {
    kind: 'language-chart',
    pattern: ['widgets', ':project', ':language', ':chart'],
    serves: { kind: 'alias', to: ['widgets', ':project', '-', ':chart'] },
    flavours: V4,
  },
  {
    kind: 'translation-chart',
    pattern: ['widgets', ':project', ':language', ':component', ':chart'],
    serves: { kind: 'alias', to: ['widgets', ':project', '-', ':component', ':chart'] },
    flavours: V4,
  },

  // Current Weblate's (widget-image); the 4.x paths redirect here, as its WidgetRedirectView does. Where a
  // component's path could take `-` for a slug, the route with the literal `-` comes first.
  { kind: 'badge', pattern: ['widget', ':project', BADGE_FILE], serves: FILE, flavours: CURRENT },
  {
    kind: 'language-badge',
    pattern: ['widget', ':project', '-', ':language', BADGE_FILE],
    serves: FILE,
    flavours: CURRENT,
  },
  {
    kind: 'translation-badge',
    pattern: ['widget', ':project', ':component', ':language', BADGE_FILE],
    serves: FILE,
    flavours: CURRENT,
  },
  {
    kind: 'component-badge',
    pattern: ['widget', ':project', ':component', BADGE_FILE],
    serves: FILE,
    flavours: CURRENT,
  },
  { kind: 'chart', pattern: ['widget', ':project', ':chart'], serves: FILE, flavours: CURRENT },
  {
    kind: 'project-widget',
    pattern: ['widget', ':project', ':image'],
    serves: FILE,
    flavours: CURRENT,
  },
  {
    kind: 'language-widget',
    pattern: ['widget', ':project', '-', ':language', ':image'],
    serves: FILE,
    flavours: CURRENT,
  },
  {
    kind: 'translation-widget',
    pattern: ['widget', ':project', ':component', ':language', ':image'],
    serves: FILE,
    flavours: CURRENT,
  },
  {
    kind: 'component-widget',
    pattern: ['widget', ':project', ':component', ':image'],
    serves: FILE,
    flavours: CURRENT,
  },
  {
    kind: 'language-chart',
    pattern: ['widget', ':project', '-', ':language', ':chart'],
    serves: { kind: 'alias', to: ['widget', ':project', ':chart'] },
    flavours: CURRENT,
  },
  {
    kind: 'component-chart',
    pattern: ['widget', ':project', ':component', ':chart'],
    serves: FILE,
    flavours: CURRENT,
  },
  {
    kind: 'translation-chart',
    pattern: ['widget', ':project', ':component', ':language', ':chart'],
    serves: { kind: 'alias', to: ['widget', ':project', ':component', ':chart'], lookFirst: true },
    flavours: CURRENT,
  },
  {
    kind: 'old-widget',
    pattern: ['widgets', ':project', '-', ':widget'],
    serves: { kind: 'redirect', to: ['widget', ':project', ':widget'] },
    flavours: CURRENT,
  },
  {
    kind: 'old-project-widget',
    pattern: ['widgets', ':project', '-', ':image'],
    serves: { kind: 'redirect', to: ['widget', ':project', ':image'] },
    flavours: CURRENT,
  },
  {
    kind: 'old-component-widget',
    pattern: ['widgets', ':project', '-', ':slug', ':widget'],
    serves: { kind: 'redirect', to: ['widget', ':project', ':slug', ':widget'] },
    flavours: CURRENT,
  },
  {
    kind: 'old-language-widget',
    pattern: ['widgets', ':project', ':language', ':widget'],
    serves: { kind: 'redirect', to: ['widget', ':project', '-', ':language', ':widget'] },
    flavours: CURRENT,
  },
  {
    kind: 'old-translation-widget',
    pattern: ['widgets', ':project', ':language', ':slug', ':widget'],
    serves: { kind: 'redirect', to: ['widget', ':project', ':slug', ':language', ':widget'] },
    flavours: CURRENT,
  },

  // Stats exports of a project and of a component.
  {
    kind: 'project-export',
    pattern: ['exports', 'stats', ':project'],
    serves: { kind: 'export' },
    flavours: BOTH,
  },
  {
    kind: 'component-export',
    pattern: ['exports', 'stats', ':project', ':component'],
    serves: { kind: 'export' },
    flavours: BOTH,
  },
];
