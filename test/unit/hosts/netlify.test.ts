/**
 * The Netlify files, read the way Netlify documents it reads them: a file
 * that exists is served before any rule that is not forced ("shadowing");
 * otherwise the first redirect rule that matches wins, matching a path with
 * or without its trailing slash, `:name` one segment, `*` the rest, and each
 * `key=value` token a query parameter that must be present (`:name` binds
 * it); a 200 rule serves its target, or the 404 page when there is none.
 * `_headers` paths match with or without the trailing slash, `:name` one
 * segment, `*` anything. Rules see the path as sent; the file a path names is
 * looked up with the path decoded once (`docs%252Fguide` is the file
 * `docs%2Fguide`). Every resource of each fixture must come back as its
 * file, with JSON headers.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderNetlifyHeaders, renderNetlifyRedirects } from '../../../src/hosts/netlify.ts';
import { FIXTURES, testSettings } from '../../helpers.ts';
import { matchRule, parseRedirects } from '../../support/netlify-rules.ts';
import {
  builtStatusSiteCases,
  casesFor,
  checkAnswer,
  statusSiteFiles,
  type StatusSiteNeed,
} from '../../support/status-site.ts';
import {
  CURRENT_FIXTURE,
  encodedResources,
  notFoundBody,
  requestsFor,
  fixtureTree,
  type FixtureTree,
} from './tree.ts';

interface Answer {
  status: number;
  body: string | undefined;
  headers: Map<string, string>;
}

function netlify(tree: Pick<FixtureTree, 'files'>, url: string): Answer {
  const files = tree.files;
  const { pathname, searchParams } = new URL(url, 'https://site.netlify.app');
  const rules = parseRedirects(files.get('_redirects')!);
  const fileOf = (path: string) => decodeURIComponent(path).slice(1);
  const index = (file: string) =>
    file === '' ? 'index.html' : `${file.replace(/\/?$/, '/')}index.html`;
  const existing = (path: string) =>
    [fileOf(path), index(fileOf(path))].find((file) => files.has(file));
  const shadowed = existing(pathname);
  let body: string | undefined;
  if (shadowed && !rules.some((rule) => rule.force && matchRule(rule, pathname, searchParams)))
    body = files.get(shadowed);
  else {
    const rule = rules.find((candidate) => matchRule(candidate, pathname, searchParams) !== null);
    const target = rule ? matchRule(rule, pathname, searchParams)! : null;
    if (rule && target && rule.status >= 300 && rule.status < 400) {
      // A redirect keeps the query (Netlify passes it on unless the rule gives one).
      const headers = new Map([
        ['location', `${target}${searchParams.size > 0 ? `?${searchParams.toString()}` : ''}`],
      ]);
      return { status: rule.status, body: '', headers };
    }
    body = target && rule!.status === 200 ? files.get(fileOf(target)) : undefined;
  }
  return body === undefined
    ? {
        status: 404,
        body: files.get('404.html'),
        headers: headersFor(files.get('_headers')!, pathname),
      }
    : { status: 200, body, headers: headersFor(files.get('_headers')!, pathname) };
}

function headersFor(text: string, pathname: string): Map<string, string> {
  const headers = new Map<string, string>();
  let matching = false;
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    if (line.startsWith('/')) {
      const parts = line
        .trim()
        .split('/')
        .filter(Boolean)
        .map((part) => (part === '*' ? '?(.*)' : part.startsWith(':') ? '([^/]+)' : part));
      matching = new RegExp(`^/${parts.join('/')}/?$`, 'i').test(pathname);
      continue;
    }
    const [name, ...value] = line.split(':');
    if (!matching) continue;
    expect(headers.has(name!.trim()), `two rules set ${name} for ${pathname}`).toBe(false);
    headers.set(name!.trim(), value.join(':').trim());
  }
  return headers;
}

const fixtures = [
  ['features (pagination: path, API under /mirror)', join(FIXTURES, 'features/content'), {}],
  [
    'features at the root of its domain',
    join(FIXTURES, 'features/content'),
    { baseUrl: 'https://l10n.netlify.app' },
  ],
  [
    'query-pagination (?page=N)',
    join(FIXTURES, 'query-pagination/content'),
    { baseUrl: 'https://l10n.netlify.app' },
  ],
  CURRENT_FIXTURE,
  [`${CURRENT_FIXTURE[0]} with ?page=N`, CURRENT_FIXTURE[1], { pagination: 'query' }],
] as const;

describe.each(fixtures)('Netlify files of %s', (_, contentDir, overrides) => {
  const load = async () => {
    const tree = await fixtureTree(contentDir, overrides);
    // What a deploy with --host netlify puts at the root.
    const files = new Map(tree.files);
    files.set('_redirects', renderNetlifyRedirects(tree.settings));
    files.set('_headers', renderNetlifyHeaders(tree.settings));
    return { ...tree, files };
  };

  it('serve every resource as its file with JSON and CORS headers, with or without the slash, with ?format=api and ?page=N', async () => {
    const tree = await load();
    let checked = 0;
    for (const resource of tree.resources) {
      for (const [path, query] of requestsFor(tree, resource)) {
        const answer = netlify(tree, `${path}${query ? `?${query}` : ''}`);
        expect(answer.status, `${path}?${query}`).toBe(200);
        expect(answer.body, `${path}?${query}`).toBe(tree.files.get(resource.file));
        expect(answer.headers.get('Content-Type')).toBe('application/json');
        expect(answer.headers.get('Vary')).toBe('Accept');
        expect(answer.headers.get('Access-Control-Allow-Origin')).toBe('*');
        checked++;
      }
    }
    expect(checked).toBe(3 * tree.resources.length);
  });

  // Netlify has one 404 page for the paths its rewrites take: with the status site, its HTML page.
  it('answer the 404 page for unknown paths and pages past the end', async () => {
    const tree = await load();
    for (const url of [
      `${tree.base}/api/nope/`,
      `${tree.base}/api/projects/nope/`,
      `${tree.base}/api/projects/?page=99`,
    ]) {
      const answer = netlify(tree, url);
      expect(answer.status, url).toBe(404);
      if (tree.settings.pages) expect(answer.body).toContain('<title>Page not found');
      else expect(answer.body).toBe(notFoundBody(tree.settings));
      expect(answer.headers.get('Access-Control-Allow-Origin')).toBe('*');
    }
  });

  it('cannot tell ?page=1 from other pages, so it is a 404 (no link of the tree carries page=1)', async () => {
    const tree = await load();
    expect(netlify(tree, `${tree.base}/api/languages/?page=1`).status).toBe(404);
    expect([...tree.files.values()].some((text) => text.includes('page=1"'))).toBe(false);
  });

  it('never give a header rule to Allow, which Netlify ignores', async () => {
    const tree = await load();
    expect(tree.files.get('_headers')).not.toMatch(/^\s*Allow:/m);
  });
});

it('serves the components inside categories at the encoded paths Weblate links to (2026.8)', async () => {
  const tree = await fixtureTree(CURRENT_FIXTURE[1]);
  const files = new Map(tree.files);
  files.set('_redirects', renderNetlifyRedirects(tree.settings));
  files.set('_headers', renderNetlifyHeaders(tree.settings));
  const site = { ...tree, files };
  const encoded = encodedResources(tree);
  expect(encoded.length).toBeGreaterThan(20);
  for (const resource of encoded) {
    const answer = netlify(site, `${tree.base}${resource.path}`);
    expect(answer.status, resource.path).toBe(200);
    expect(answer.body).toBe(tree.files.get(resource.file));
  }
  expect(netlify(site, `${tree.base}/api/projects/docs/repository/`).status).toBe(404);
});

it('writes the page rules before the rules that would catch the same paths', () => {
  const text = renderNetlifyRedirects(
    testSettings({ baseUrl: 'https://x.netlify.app', pagination: 'query' }),
  );
  const rules = parseRedirects(text);
  const lastQueryRule = rules.findLastIndex((rule) => rule.query.length > 0);
  const firstPathRule = rules.findIndex((rule) => rule.query.length === 0);
  expect(lastQueryRule).toBeLessThan(firstPathRule);
  expect(rules.every((rule) => !rule.from.includes('*'))).toBe(true);
});

describe.each([
  ['4', ''],
  ['4', '/mirror'],
  ['2026.8', ''],
  ['2026.8', '/mirror'],
] as const)('Netlify files of a status site (flavour %s, base path "%s")', (version, base) => {
  const settings = testSettings({
    baseUrl: `https://l10n.netlify.app${base}`,
    weblateVersion: version,
    pages: true,
  });
  const files = new Map([
    ...Object.entries(statusSiteFiles(version)),
    ['_redirects', renderNetlifyRedirects(settings)],
    ['_headers', renderNetlifyHeaders(settings)],
    ['404.html', 'not found'],
  ]);
  // Netlify serves a file at the path before a rule, so at the root it can take every chart at a language's prefix.
  const can: StatusSiteNeed[] = [
    'no-slash',
    'csv-query',
    'alias',
    'redirect',
    'folder',
    ...(base === '' ? (['alias-look-first'] as const) : []),
  ];

  it('answers every request it can as Weblate does, from the route table', () => {
    const cases = casesFor(version, can);
    for (const entry of cases) {
      const answer = netlify({ files }, `${base}${entry.url}`);
      checkAnswer(
        entry,
        { status: answer.status, body: answer.body, headers: (name) => answer.headers.get(name) },
        { base, types: false },
      );
    }
    expect(cases.length).toBeGreaterThan(40);
  });

  it('sets no type in the widget folders, whose PNGs and pages Netlify types by extension', () => {
    const chart =
      version === '4' ? '/widgets/demo/cs/multi-auto.svg' : '/widget/demo/-/cs/multi-auto.svg';
    const png = version === '4' ? '/widgets/demo/-/88x31-grey.png' : '/widget/demo/88x31-grey.png';
    for (const path of [chart, png, '/widgets/demo/'])
      expect(netlify({ files }, `${base}${path}`).headers.get('Content-Type')).toBeUndefined();
  });
});

describe.each([
  ['4', join(FIXTURES, 'minimal/content')],
  ['2026.8', join(FIXTURES, 'current/content')],
] as const)(
  'Netlify files of the status site a build writes (flavour %s)',
  (version, contentDir) => {
    it('answer every request for its pages, badges, charts and exports that Netlify can', async () => {
      const tree = await fixtureTree(contentDir, {
        baseUrl: 'https://l10n.netlify.app',
        pages: true,
      });
      const files = new Map(tree.files);
      files.set('_redirects', renderNetlifyRedirects(tree.settings));
      files.set('_headers', renderNetlifyHeaders(tree.settings));
      const can: StatusSiteNeed[] = [
        'no-slash',
        'csv-query',
        'alias',
        'alias-look-first',
        'redirect',
        'folder',
      ];
      const cases = builtStatusSiteCases(tree.files.keys(), version).filter((entry) =>
        entry.needs.every((need) => can.includes(need)),
      );
      for (const entry of cases) {
        const answer = netlify({ files }, entry.url);
        const headers = (name: string) => answer.headers.get(name);
        checkAnswer(
          entry,
          { status: answer.status, body: answer.body, headers },
          { base: '', types: false, read: (file) => tree.files.get(file) },
        );
      }
      expect(cases.length).toBeGreaterThan(60);
    });
  },
);
