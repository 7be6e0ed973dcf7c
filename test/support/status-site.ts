/**
 * A hand-made status site for the host tests: a page, badge, chart and
 * export at every kind of path of each flavour (the bytes name their own
 * file, so a wrong file shows), and the requests a client sends for them
 * with what a good host answers: the file with its Content-Type, a folder
 * without its slash either served or sent to the slash, a chart at a
 * language's prefix served as the chart it stands for, `?format=csv`, the
 * 4.x widget paths redirected in 2026.8, and misses. Each request is tagged
 * with what it asks of a host, so a test can leave out what a host is
 * documented not to do.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import type { WeblateVersion } from '../../src/model/defaults.ts';

/** What a request asks of a host beyond serving a file at its path. */
export type StatusSiteNeed =
  /** A folder asked for without its trailing slash (the file or a 301 to the slash form will do). */
  | 'no-slash'
  /** `?format=csv` mapped to the CSV file. */
  | 'csv-query'
  /** A chart at a language's prefix served as the chart it stands for, where no file could be taken for it. */
  | 'alias'
  /** The same, where the path has the shape of a file of its own (2026.8: a component and a language, or a component inside a category). */
  | 'alias-look-first'
  /** A 301 from a 4.x widget path (2026.8). */
  | 'redirect'
  /** A page or export folder at its path (an index file other than index.html, or index.html where the host has no folder index). */
  | 'folder'
  /** Content-Disposition of a CSV export. */
  | 'disposition'
  /** An HTML 404 for a miss under the status site's paths. */
  | 'html-404';

export type StatusSiteExpect =
  | { status: 200; file: string; type: string; disposition?: string }
  | { status: 301; location: string }
  | { status: 404 };

export interface StatusSiteCase {
  /** Path after the base path, with its query. */
  url: string;
  expect: StatusSiteExpect;
  needs: StatusSiteNeed[];
}

const HTML = 'text/html; charset=utf-8';
const SVG = 'image/svg+xml; charset=utf-8';
const CSS = 'text/css; charset=utf-8';
const PNG = 'image/png';
const CSV = 'text/csv; charset=utf-8';
const JSON_TYPE = 'application/json';

/** The files of the hand-made site of a flavour, relative to the tree's root. */
export function statusSiteFiles(version: WeblateVersion): Record<string, string> {
  const paths = version === '4' ? FILES_4 : FILES_CURRENT;
  return Object.fromEntries(paths.map((path) => [path, contentOf(path)]));
}

/** Writes the hand-made site into a built tree. */
export function writeStatusSite(out: string, version: WeblateVersion): void {
  for (const [path, data] of Object.entries(statusSiteFiles(version))) {
    mkdirSync(dirname(join(out, path)), { recursive: true });
    writeFileSync(join(out, path), data);
  }
}

/** The requests of a flavour and what a good host answers to each. */
export function statusSiteCases(version: WeblateVersion): StatusSiteCase[] {
  return version === '4' ? CASES_4 : CASES_CURRENT;
}

/** The cases a host can answer: those whose needs are all in `can`. */
export function casesFor(
  version: WeblateVersion,
  can: readonly StatusSiteNeed[],
): StatusSiteCase[] {
  return statusSiteCases(version).filter((entry) =>
    entry.needs.every((need) => can.includes(need)),
  );
}

/** An answer as a host gave it, for checkAnswer. */
export interface StatusSiteAnswer {
  status: number;
  body: string | undefined;
  headers: (name: string) => string | null | undefined;
}

/**
 * Checks one answer against its case: the file's bytes and type (and the
 * CSV's Content-Disposition when `disposition`), a 301 to the right place
 * (`base` before the path), or a 404 (in HTML when `html404`). A folder
 * asked for without its slash may be served or sent to the slash form.
 */
export interface CheckOptions {
  /** The path of the base URL: `` or `/mirror`. */
  base: string;
  /** Check the CSV's Content-Disposition. */
  disposition?: boolean;
  /** Check that a miss is HTML. */
  html404?: boolean;
  /** Check each file's Content-Type (default true). */
  types?: boolean;
  /** The bytes a file of the tree holds; the hand-made site's by default. */
  read?: (file: string) => string | undefined;
}

export function checkAnswer(
  entry: StatusSiteCase,
  answer: StatusSiteAnswer,
  options: CheckOptions,
): void {
  const label = entry.url;
  const expected = entry.expect;
  if (entry.needs.includes('no-slash') && answer.status === 301) {
    const slashed = entry.url.replace(/(\?|$)/, '/$1');
    expect(answer.headers('location'), label).toBe(`${options.base}${slashed}`);
    return;
  }
  expect(answer.status, label).toBe(expected.status);
  if (expected.status === 200) {
    expect(answer.body, label).toBe((options.read ?? contentOf)(expected.file));
    if (options.types !== false) expect(answer.headers('content-type'), label).toBe(expected.type);
    if (options.disposition && expected.disposition)
      expect(answer.headers('content-disposition'), label).toBe(expected.disposition);
  } else if (expected.status === 301) {
    expect(answer.headers('location'), label).toBe(`${options.base}${expected.location}`);
  } else if (options.html404) {
    expect(answer.headers('content-type'), label).toBe(HTML);
  }
}

/** Asks a real server for every case and checks each answer. */
export async function checkServedStatusSite(
  origin: string,
  cases: readonly StatusSiteCase[],
  options: CheckOptions,
): Promise<number> {
  for (const entry of cases) {
    const response = await fetch(`${origin}${options.base}${entry.url}`, { redirect: 'manual' });
    const body = await response.text();
    checkAnswer(
      entry,
      { status: response.status, body, headers: (name) => response.headers.get(name) },
      options,
    );
  }
  return cases.length;
}

/**
 * The requests for a built tree's status site, read from its file list: each
 * page with and without its slash; the stylesheet, each badge and chart; each
 * chart at the prefix of each language that has a badge there; in 2026.8 the
 * 4.x paths of the project's badges and charts (301); each export's folder,
 * its files by name and `?format=csv` with the name Weblate gives it.
 */
export function builtStatusSiteCases(
  files: Iterable<string>,
  version: WeblateVersion,
): StatusSiteCase[] {
  const list = [...files].filter((file) => !/^(api|hosts)\//.test(file) && file.includes('/'));
  const has = new Set(list);
  const cases: StatusSiteCase[] = [...page('')];
  for (const file of list) {
    if (file.endsWith('/index.html')) cases.push(...page(file.slice(0, -'index.html'.length)));
    else if (file.endsWith('.css')) cases.push(fileCase(file, CSS));
    else if (file.endsWith('.svg'))
      cases.push(fileCase(file, SVG), ...chartCases(file, has, version));
    else if (file.endsWith('.png'))
      cases.push(fileCase(file, PNG), ...chartCases(file, has, version));
    else if (file.startsWith('exports/') && file.endsWith('/index.json')) {
      const folder = file.slice(0, -'index.json'.length);
      const [project, ...component] = folder.split('/').slice(2, -1);
      cases.push(
        ...exportOf(
          folder,
          `stats-${project!}${component.length > 0 ? `-${component.at(-1)!}` : ''}.csv`,
        ),
      );
    }
  }
  return cases;
}

// --- internal ---

/** A chart at each language's prefix (where the language has a badge), and in 2026.8 the project's widgets (its PNGs too) at their 4.x paths. */
function chartCases(
  file: string,
  has: ReadonlySet<string>,
  version: WeblateVersion,
): StatusSiteCase[] {
  const name = file.split('/').at(-1)!;
  const chart = /^(multi|horizontal)-/.test(name);
  const found: StatusSiteCase[] = [];
  if (version === '4') {
    const [, project, dash, ...component] = file.split('/').slice(0, -1);
    if (!chart || dash !== '-') return [];
    for (const badge of has) {
      const parts = badge.split('/');
      if (
        parts[0] !== 'widgets' ||
        parts[1] !== project ||
        parts[2] === '-' ||
        parts.at(-1) !== 'svg-badge.svg'
      )
        continue;
      if (parts.slice(3, -1).join('/') !== component.join('/')) continue;
      found.push(alias(`/${['widgets', project, parts[2], ...component, name].join('/')}`, file));
    }
    return found;
  }
  const [, project, ...rest] = file.split('/').slice(0, -1);
  if (rest.length === 0) {
    found.push(redirect(`/widgets/${project!}/-/${name}`, `/${file}`));
    for (const badge of has) {
      const language = new RegExp(`^widget/${project!}/-/([^/]+)/svg-badge\\.svg$`).exec(
        badge,
      )?.[1];
      if (language && chart) found.push(alias(`/widget/${project!}/-/${language}/${name}`, file));
    }
  } else if (rest[0] === '-') {
    found.push(redirect(`/widgets/${project!}/${rest[1]!}/${name}`, `/${file}`));
  } else if (chart) {
    const component = rest.join('/');
    for (const badge of has) {
      const language = new RegExp(`^widget/${project!}/${component}/([^/]+)/svg-badge\\.svg$`).exec(
        badge,
      )?.[1];
      // A component's own chart has a badge one folder up; a language of it has none of its own.
      if (language && !has.has(`widget/${project!}/${component}/${language}/multi-auto.svg`)) {
        found.push(
          alias(`/widget/${project!}/${component}/${language}/${name}`, file, ['alias-look-first']),
        );
      }
    }
  }
  return found;
}

/** The bytes of a hand-made file: its own path, in its format. */
function contentOf(path: string): string {
  if (path.endsWith('.html'))
    return `<!DOCTYPE html>\n<html lang="en"><title>${path}</title><p>${path}</p></html>\n`;
  if (path.endsWith('.svg'))
    return `<svg xmlns="http://www.w3.org/2000/svg"><title>${path}</title></svg>\n`;
  if (path.endsWith('.css')) return `/* ${path} */\nbody { margin: 0; }\n`;
  if (path.endsWith('.csv')) return `name,code,file\nCzech,cs,${path}\n`;
  return `[{"file": "${path}"}]\n`;
}

const FILES_4 = [
  'index.html',
  'languages/cs/index.html',
  'languages/ca@valencia/index.html',
  'languages/cs/demo/index.html',
  'projects/demo/index.html',
  'projects/demo/ui/index.html',
  'projects/demo/ui/cs/index.html',
  'translate/demo/ui/cs/index.html',
  'engage/demo/cs/index.html',
  'static/weblate-snapshot.css',
  'widgets/demo/-/svg-badge.svg',
  'widgets/demo/-/ui/svg-badge.svg',
  'widgets/demo/cs/svg-badge.svg',
  'widgets/demo/cs/ui/svg-badge.svg',
  'widgets/demo/-/multi-auto.svg',
  'widgets/demo/-/horizontal-red.svg',
  'widgets/demo/-/ui/multi-green.svg',
  'widgets/demo/-/ui/horizontal-blue.svg',
  'exports/stats/demo/index.json',
  'exports/stats/demo/index.csv',
  'exports/stats/demo/ui/index.json',
  'exports/stats/demo/ui/index.csv',
];

const FILES_CURRENT = [
  'index.html',
  'languages/cs/index.html',
  'projects/demo/index.html',
  'projects/demo/-/cs/index.html',
  'projects/demo/docs/index.html',
  'projects/demo/docs/guides/index.html',
  'projects/demo/ui/index.html',
  'projects/demo/ui/cs/index.html',
  'projects/demo/docs/guides/manual/index.html',
  'projects/demo/docs/guides/manual/cs/index.html',
  'translate/demo/ui/cs/index.html',
  'translate/demo/docs/guides/manual/cs/index.html',
  'translate/demo/-/cs/index.html',
  'engage/demo/-/cs/index.html',
  'static/weblate-snapshot.css',
  'widget/demo/svg-badge.svg',
  'widget/demo/ui/svg-badge.svg',
  'widget/demo/docs/guides/manual/svg-badge.svg',
  'widget/demo/-/cs/svg-badge.svg',
  'widget/demo/ui/cs/svg-badge.svg',
  'widget/demo/docs/guides/manual/cs/svg-badge.svg',
  'widget/demo/multi-auto.svg',
  'widget/demo/horizontal-red.svg',
  'widget/demo/ui/multi-auto.svg',
  'widget/demo/docs/guides/manual/horizontal-blue.svg',
  'exports/stats/demo/index.json',
  'exports/stats/demo/index.csv',
  'exports/stats/demo/docs/guides/manual/index.json',
  'exports/stats/demo/docs/guides/manual/index.csv',
];

const fileCase = (path: string, type: string, needs: StatusSiteNeed[] = []): StatusSiteCase => ({
  url: `/${path}`,
  expect: { status: 200, file: path, type },
  needs,
});

/** A page, with and without its slash. */
const page = (folder: string): StatusSiteCase[] => [
  {
    url: `/${folder}`,
    expect: { status: 200, file: `${folder}index.html`, type: HTML },
    needs: [],
  },
  {
    url: `/${folder.replace(/\/$/, '')}`,
    expect: { status: 200, file: `${folder}index.html`, type: HTML },
    needs: ['no-slash'],
  },
];

/** An export: JSON at the folder, with and without the slash; CSV by path and by ?format=csv. */
const exportOf = (folder: string, name: string): StatusSiteCase[] => {
  const csv = {
    status: 200,
    file: `${folder}index.csv`,
    type: CSV,
    disposition: `attachment; filename=${name}`,
  } as const;
  const json = { status: 200, file: `${folder}index.json`, type: JSON_TYPE } as const;
  return [
    { url: `/${folder}`, expect: json, needs: ['folder'] },
    { url: `/${folder.replace(/\/$/, '')}`, expect: json, needs: ['folder', 'no-slash'] },
    { url: `/${folder}index.json`, expect: json, needs: [] },
    { url: `/${folder}index.csv`, expect: csv, needs: [] },
    { url: `/${folder}index.csv`, expect: csv, needs: ['disposition'] },
    { url: `/${folder}?format=csv`, expect: csv, needs: ['folder', 'csv-query'] },
    { url: `/${folder}?format=xml`, expect: json, needs: ['folder'] },
  ];
};

const alias = (url: string, path: string, needs: StatusSiteNeed[] = ['alias']): StatusSiteCase => ({
  url,
  expect: { status: 200, file: path, type: SVG },
  needs,
});

const redirect = (url: string, location: string): StatusSiteCase => ({
  url,
  expect: { status: 301, location },
  needs: ['redirect'],
});

const miss = (url: string): StatusSiteCase => ({ url, expect: { status: 404 }, needs: [] });

const CASES_4: StatusSiteCase[] = [
  ...page(''),
  ...page('languages/cs/'),
  ...page('languages/ca@valencia/'),
  ...page('languages/cs/demo/'),
  ...page('projects/demo/'),
  ...page('projects/demo/ui/'),
  ...page('projects/demo/ui/cs/'),
  ...page('translate/demo/ui/cs/'),
  ...page('engage/demo/cs/'),
  fileCase('static/weblate-snapshot.css', CSS),
  ...FILES_4.filter((path) => path.endsWith('.svg')).map((path) => fileCase(path, SVG)),
  alias('/widgets/demo/cs/multi-auto.svg', 'widgets/demo/-/multi-auto.svg'),
  alias('/widgets/demo/de/horizontal-red.svg', 'widgets/demo/-/horizontal-red.svg'),
  alias('/widgets/demo/cs/ui/multi-green.svg', 'widgets/demo/-/ui/multi-green.svg'),
  alias(
    '/widgets/demo/ca@valencia/ui/horizontal-blue.svg',
    'widgets/demo/-/ui/horizontal-blue.svg',
  ),
  ...exportOf('exports/stats/demo/', 'stats-demo.csv'),
  ...exportOf('exports/stats/demo/ui/', 'stats-demo-ui.csv'),
  miss('/projects/nope/'),
  miss('/widgets/demo/de/svg-badge.svg'),
  miss('/exports/stats/nope/index.csv'),
];

const CASES_CURRENT: StatusSiteCase[] = [
  ...page(''),
  ...page('languages/cs/'),
  ...page('projects/demo/'),
  ...page('projects/demo/-/cs/'),
  ...page('projects/demo/docs/'),
  ...page('projects/demo/docs/guides/'),
  ...page('projects/demo/ui/cs/'),
  ...page('projects/demo/docs/guides/manual/'),
  ...page('projects/demo/docs/guides/manual/cs/'),
  ...page('translate/demo/ui/cs/'),
  ...page('translate/demo/docs/guides/manual/cs/'),
  ...page('translate/demo/-/cs/'),
  ...page('engage/demo/-/cs/'),
  fileCase('static/weblate-snapshot.css', CSS),
  ...FILES_CURRENT.filter((path) => path.endsWith('.svg')).map((path) => fileCase(path, SVG)),
  alias('/widget/demo/-/cs/multi-auto.svg', 'widget/demo/multi-auto.svg'),
  alias('/widget/demo/-/de/horizontal-red.svg', 'widget/demo/horizontal-red.svg'),
  alias('/widget/demo/ui/cs/multi-auto.svg', 'widget/demo/ui/multi-auto.svg', ['alias-look-first']),
  alias(
    '/widget/demo/docs/guides/manual/cs/horizontal-blue.svg',
    'widget/demo/docs/guides/manual/horizontal-blue.svg',
    ['alias-look-first'],
  ),
  redirect('/widgets/demo/-/svg-badge.svg', '/widget/demo/svg-badge.svg'),
  redirect('/widgets/demo/cs/svg-badge.svg', '/widget/demo/-/cs/svg-badge.svg'),
  redirect('/widgets/demo/-/ui/multi-auto.svg', '/widget/demo/ui/multi-auto.svg'),
  redirect('/widgets/demo/cs/ui/horizontal-red.svg', '/widget/demo/ui/cs/horizontal-red.svg'),
  ...exportOf('exports/stats/demo/', 'stats-demo.csv'),
  ...exportOf('exports/stats/demo/docs/guides/manual/', 'stats-demo-manual.csv'),
  miss('/projects/nope/'),
  miss('/widget/demo/-/de/svg-badge.svg'),
  miss('/engage/demo/cs/'),
];
