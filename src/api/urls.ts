/**
 * Every /api/... path, every web path, and every absolute URL is built here
 * and nowhere else. Paths end with `/`, as all of Weblate's do.
 */
import type { Site } from '../model/types.ts';

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

  components: () => '/api/components/',
  component: (p: string, c: string) => `/api/components/${p}/${c}/`,
  componentTranslations: (p: string, c: string) => `/api/components/${p}/${c}/translations/`,
  componentStatistics: (p: string, c: string) => `/api/components/${p}/${c}/statistics/`,
  componentLock: (p: string, c: string) => `/api/components/${p}/${c}/lock/`,
  componentLinks: (p: string, c: string) => `/api/components/${p}/${c}/links/`,
  componentChanges: (p: string, c: string) => `/api/components/${p}/${c}/changes/`,
  componentRepository: (p: string, c: string) => `/api/components/${p}/${c}/repository/`,

  translations: () => '/api/translations/',
  translation: (p: string, c: string, l: string) => `/api/translations/${p}/${c}/${l}/`,
  translationStatistics: (p: string, c: string, l: string) => `/api/translations/${p}/${c}/${l}/statistics/`,
  translationChanges: (p: string, c: string, l: string) => `/api/translations/${p}/${c}/${l}/changes/`,
  translationUnits: (p: string, c: string, l: string) => `/api/translations/${p}/${c}/${l}/units/`,
  translationRepository: (p: string, c: string, l: string) => `/api/translations/${p}/${c}/${l}/repository/`,
  /** The raw file download: outside the snapshot, the one link allowed not to resolve. */
  translationFile: (p: string, c: string, l: string) => `/api/translations/${p}/${c}/${l}/file/`,

  languages: () => '/api/languages/',
  language: (code: string) => `/api/languages/${code}/`,
  languageStatistics: (code: string) => `/api/languages/${code}/statistics/`,

  /** Page `page` (2 or more) of the list at `listPath`; page 1 is the list path itself. */
  page: (listPath: string, page: number) => (page <= 1 ? listPath : `${listPath}${PAGE_SEGMENT}/${page}/`),
};

/** Web (HTML) paths of Weblate 4.x, for `web_url`, `share_url`, `translate_url` and statistics `url`s. */
export const webPath = {
  language: (code: string) => `/languages/${code}/`,
  project: (p: string) => `/projects/${p}/`,
  component: (p: string, c: string) => `/projects/${p}/${c}/`,
  translation: (p: string, c: string, l: string) => `/projects/${p}/${c}/${l}/`,
  translate: (p: string, c: string, l: string) => `/translate/${p}/${c}/${l}/`,
  share: (p: string, l: string) => `/engage/${p}/${l}/`,
};

/**
 * The path of the base URL, without a trailing slash: `` for
 * `https://l10n.example.org`, `/l10n` for `https://example.github.io/l10n`.
 * The API is at `<basePath>/api/`; the files are at `api/` of the output.
 */
export function basePath(site: Site): string {
  return new URL(site.baseUrl).pathname.replace(/\/+$/, '');
}

/** Absolute API URL of an API path. */
export function apiUrl(site: Site, path: string): string {
  return site.baseUrl + path;
}

/** Absolute web URL of a web path. */
export function webUrl(site: Site, path: string): string {
  return site.webUrl + path;
}

/**
 * The absolute URL of page `page` of a list, as `next`/`previous` show it:
 * a path of its own (`pagination: path`) or `?page=N` (`pagination: query`).
 * Page 1 is the bare list URL, as DRF drops `page=1` from `previous`.
 */
export function pageUrl(site: Site, listPath: string, page: number): string {
  if (page <= 1) return apiUrl(site, listPath);
  return site.pagination === 'query' ? `${apiUrl(site, listPath)}?page=${page}` : apiUrl(site, apiPath.page(listPath, page));
}

/** The file of an API path inside the output folder: `/api/projects/` → `api/projects/index.json`. */
export function fileOfPath(path: string): string {
  return `${path.slice(1)}index.json`;
}
