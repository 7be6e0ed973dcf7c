/**
 * Every /api/... path, every web path, and every absolute URL is built here
 * and nowhere else. Paths end with `/`, as all of Weblate's do.
 */
import type { Category, Component, Settings } from '../model/types.ts';

/** The path segment that starts a page of a list: `/api/projects/~page/2/`. No slug or code contains `~`. */
export const PAGE_SEGMENT = '~page';

export const apiPath = {
  root: () => '/api/',
  /** A top-level list named in the API root: `projects`, `users`, `component-lists`, ... */
  list: (name: string) => `/api/${name}/`,

  projects: () => '/api/projects/',
  project: (p: string) => `/api/projects/${p}/`,
  projectComponents: (p: string) => `/api/projects/${p}/components/`,
  projectLanguages: (p: string) => `/api/projects/${p}/languages/`,
  projectStatistics: (p: string) => `/api/projects/${p}/statistics/`,
  projectChanges: (p: string) => `/api/projects/${p}/changes/`,
  projectRepository: (p: string) => `/api/projects/${p}/repository/`,
  projectCategories: (p: string) => `/api/projects/${p}/categories/`,
  projectLabels: (p: string) => `/api/projects/${p}/labels/`,
  projectLock: (p: string) => `/api/projects/${p}/lock/`,
  projectAnnouncements: (p: string) => `/api/projects/${p}/announcements/`,
  projectReports: (p: string) => `/api/projects/${p}/reports/`,
  projectMachinerySettings: (p: string) => `/api/projects/${p}/machinery_settings/`,
  /** Project metrics (2026.8): outside the snapshot, like the raw files. */
  projectMetrics: (p: string) => `/api/projects/${p}/metrics/`,

  components: () => '/api/components/',
  component: (p: string, c: string) => `/api/components/${p}/${c}/`,
  componentTranslations: (p: string, c: string) => `/api/components/${p}/${c}/translations/`,
  componentStatistics: (p: string, c: string) => `/api/components/${p}/${c}/statistics/`,
  componentLock: (p: string, c: string) => `/api/components/${p}/${c}/lock/`,
  componentLinks: (p: string, c: string) => `/api/components/${p}/${c}/links/`,
  componentChanges: (p: string, c: string) => `/api/components/${p}/${c}/changes/`,
  componentRepository: (p: string, c: string) => `/api/components/${p}/${c}/repository/`,
  componentAnnouncements: (p: string, c: string) => `/api/components/${p}/${c}/announcements/`,
  componentReports: (p: string, c: string) => `/api/components/${p}/${c}/reports/`,

  translations: () => '/api/translations/',
  translation: (p: string, c: string, l: string) => `/api/translations/${p}/${c}/${l}/`,
  translationStatistics: (p: string, c: string, l: string) =>
    `/api/translations/${p}/${c}/${l}/statistics/`,
  translationChanges: (p: string, c: string, l: string) =>
    `/api/translations/${p}/${c}/${l}/changes/`,
  translationUnits: (p: string, c: string, l: string) => `/api/translations/${p}/${c}/${l}/units/`,
  translationRepository: (p: string, c: string, l: string) =>
    `/api/translations/${p}/${c}/${l}/repository/`,
  translationAnnouncements: (p: string, c: string, l: string) =>
    `/api/translations/${p}/${c}/${l}/announcements/`,
  /** The raw file download: outside the snapshot, the one link allowed not to resolve. */
  translationFile: (p: string, c: string, l: string) => `/api/translations/${p}/${c}/${l}/file/`,

  languages: () => '/api/languages/',
  language: (code: string) => `/api/languages/${code}/`,
  languageStatistics: (code: string) => `/api/languages/${code}/statistics/`,

  categories: () => '/api/categories/',
  category: (id: number) => `/api/categories/${id}/`,
  categoryStatistics: (id: number) => `/api/categories/${id}/statistics/`,
  categoryAnnouncements: (id: number) => `/api/categories/${id}/announcements/`,
  categoryReports: (id: number) => `/api/categories/${id}/reports/`,

  /** Page `page` (2 or more) of the list at `listPath`; page 1 is the list path itself. */
  page: (listPath: string, page: number) =>
    page <= 1 ? listPath : `${listPath}${PAGE_SEGMENT}/${page}/`,
};

/**
 * Web (HTML) paths, for `web_url`, `share_url`, `translate_url` and
 * statistics `url`s. A component's `c` is its web path below the project
 * (componentWebPath: its categories' slugs, then its own, joined with `/`).
 */
export const webPath = {
  language: (code: string) => `/languages/${code}/`,
  project: (p: string) => `/projects/${p}/`,
  /** A category's page: its path below the project (`docs/guide`). */
  category: (p: string, path: string) => `/projects/${p}/${path}/`,
  component: (p: string, c: string) => `/projects/${p}/${c}/`,
  translation: (p: string, c: string, l: string) => `/projects/${p}/${c}/${l}/`,
  translate: (p: string, c: string, l: string) => `/translate/${p}/${c}/${l}/`,
  /** The share page of a project's language: Weblate 4.x's, and 5.0's and later's with `-`. */
  share: (p: string, l: string) => `/engage/${p}/${l}/`,
  share2026: (p: string, l: string) => `/engage/${p}/-/${l}/`,
  /** A language of a project (2026.8's ProjectLanguage), and its translate page. */
  projectLanguage: (p: string, l: string) => `/projects/${p}/-/${l}/`,
  projectLanguageTranslate: (p: string, l: string) => `/translate/${p}/-/${l}/`,
};

/**
 * The status site's files beside its pages (written when `settings.pages` is on):
 * Weblate's badges and charts, its stats exports, and the one stylesheet.
 * Paths of folders end with `/`; a component's `c` is its web path
 * (componentWebPath).
 */
export const statusSitePath = {
  stylesheet: () => '/static/weblate-snapshot.css',
  /**
   * The folder of an object's badge and charts as Weblate 4.x writes it:
   * `/widgets/<p>/-/`, `/widgets/<p>/-/<c>/`, `/widgets/<p>/<l>/`, `/widgets/<p>/<l>/<c>/`.
   */
  widgets: (p: string, l: string | null, c: string | null) =>
    `/widgets/${p}/${l ?? '-'}/${c === null ? '' : `${c}/`}`,
  /**
   * The same as current Weblate writes it (`widget-image`, 5.0 and later):
   * `/widget/<p>/`, `/widget/<p>/<c>/`, `/widget/<p>/-/<l>/`, `/widget/<p>/<c>/<l>/`.
   */
  widget: (p: string, l: string | null, c: string | null) =>
    `/widget/${p}/${c === null ? '' : `${c}/`}${l === null ? '' : c === null ? `-/${l}/` : `${l}/`}`,
  /** A project's or a component's stats export: `index.json` there, `index.csv` for `?format=csv`. */
  exports: (p: string, c: string | null) => `/exports/stats/${p}/${c === null ? '' : `${c}/`}`,
  /** A project's widgets page, where each widget is shown with the snippets that embed it (both flavours). */
  widgetsPage: (p: string) => `/widgets/${p}/`,
};

/** The names the status site takes at the root of a tree: its home page and the first segment of each of its paths. */
export const SITE_ROOT_NAMES = [
  'index.html',
  'static',
  'projects',
  'languages',
  'engage',
  'translate',
  'widgets',
  'widget',
  'exports',
] as const;

/** The badge's file name in a widget folder. */
export const BADGE_FILE = 'svg-badge.svg';
/** Weblate's bar charts of languages, and the colors each is drawn in. */
export const CHART_KINDS = ['multi', 'horizontal'] as const;
export const CHART_COLORS = ['auto', 'red', 'green', 'blue'] as const;
export type ChartKind = (typeof CHART_KINDS)[number];
export type ChartColor = (typeof CHART_COLORS)[number];

/** A chart's file name in a widget folder: `multi-auto.svg`. */
export function chartFile(kind: ChartKind, color: ChartColor): string {
  return `${kind}-${color}.svg`;
}

/** The colors of Weblate's bitmap widgets, its default first, and their sizes. */
export const BITMAP_COLORS = ['grey', 'white', 'black'] as const;
export const BITMAP_SIZES = ['287x66', '88x31'] as const;
export type BitmapColor = (typeof BITMAP_COLORS)[number];
export type BitmapSize = (typeof BITMAP_SIZES)[number];

/**
 * The widgets a project's widget folder holds besides the badge and the
 * charts: the badge as PNG, the bitmap widgets, the language badge, the
 * matrix in each chart color, and the Open Graph image.
 */
export const PNG_BADGE_FILE = 'status-badge.png';
export const LANGUAGE_BADGE_FILE = 'language-badge.svg';
export const OPEN_GRAPH_FILE = 'open-graph.png';

/** A bitmap widget's file name: `287x66-grey.png`. */
export function bitmapFile(size: BitmapSize, color: BitmapColor): string {
  return `${size}-${color}.png`;
}

/** A matrix's file name: `matrix-auto.svg`. */
export function matrixFile(color: ChartColor): string {
  return `matrix-${color}.svg`;
}

/** The file names of those widgets, in a fixed order. */
export const PROJECT_WIDGET_FILES: readonly string[] = [
  PNG_BADGE_FILE,
  ...BITMAP_SIZES.flatMap((size) => BITMAP_COLORS.map((color) => bitmapFile(size, color))),
  LANGUAGE_BADGE_FILE,
  ...CHART_COLORS.map(matrixFile),
  OPEN_GRAPH_FILE,
];

/**
 * The component's segment in API paths: its slug, or for a component inside
 * categories (2026.8) the categories' slugs and its own joined with `%2F`, and
 * that `%` escaped as Weblate's URLs write it: `docs%252Fguide`
 * (api/serializers.py get_reverse_kwargs, then Django's reverse).
 */
export function componentSegment(component: Component): string {
  const category = component.category;
  return category ? [...category.path, component.slug].join(ENCODED_SLASH_IN_URL) : component.slug;
}

/** The component's path below its project on the web: `docs/guide` inside category `docs`. */
export function componentWebPath(component: Component): string {
  const category = component.category;
  return category ? `${category.path.join('/')}/${component.slug}` : component.slug;
}

/** A category's path below its project: `docs/guide`. */
export function categoryWebPath(category: Category): string {
  return category.path.join('/');
}

/**
 * The path of the base URL, without a trailing slash: `` for
 * `https://l10n.example.org`, `/l10n` for `https://example.github.io/l10n`.
 * The API is at `<basePath>/api/`; the files are at `api/` of the output.
 */
export function basePath(settings: Settings): string {
  // Every link of every page asks: parsing the URL each time cost about 2% of a build's main thread.
  if (settings.baseUrl !== lastBase.url)
    lastBase = {
      url: settings.baseUrl,
      path: new URL(settings.baseUrl).pathname.replace(/\/+$/, ''),
    };
  return lastBase.path;
}

let lastBase: { url: string | null; path: string } = { url: null, path: '' };

/** Absolute API URL of an API path. */
export function apiUrl(settings: Settings, path: string): string {
  return settings.baseUrl + path;
}

/** Absolute web URL of a web path. */
export function webUrl(settings: Settings, path: string): string {
  return settings.webUrl + path;
}

/**
 * The absolute URL of page `page` of a list, as `next`/`previous` show it:
 * a path of its own (`pagination: path`) or `?page=N` (`pagination: query`).
 * Page 1 is the bare list URL, as DRF drops `page=1` from `previous`.
 */
export function pageUrl(settings: Settings, listPath: string, page: number): string {
  if (page <= 1) return apiUrl(settings, listPath);
  return settings.pagination === 'query'
    ? `${apiUrl(settings, listPath)}?page=${page}`
    : apiUrl(settings, apiPath.page(listPath, page));
}

/**
 * The file of an API path inside the output folder: `/api/projects/` →
 * `api/projects/index.json`. The path is decoded once, as a host decodes a
 * request's path before it looks the file up: `docs%252Fguide` is the folder
 * `docs%2Fguide`. (No slug, code or page segment holds another `%`.)
 */
export function fileOfPath(path: string): string {
  const file = `${path.slice(1)}index.json`;
  return file.includes('%') ? file.replaceAll('%25', '%') : file;
}

/** The folder of an API path inside the output folder: `/api/projects/demo/` → `api/projects/demo/` (decoded as fileOfPath does). */
export function folderOfPath(path: string): string {
  return fileOfPath(path).slice(0, -'index.json'.length);
}

/** A decoded path segment as it is written in an API path (the inverse of fileOfPath's decoding). */
export function encodeSegment(segment: string): string {
  return segment.includes('%') ? segment.replaceAll('%', '%25') : segment;
}

// --- internal ---

/** `%2F` as it appears inside an API URL: the `%` itself escaped. */
const ENCODED_SLASH_IN_URL = '%252F';
