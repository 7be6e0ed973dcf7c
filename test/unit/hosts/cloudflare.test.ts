/**
 * The Cloudflare Pages files, read the way Pages documents it reads them.
 * `_redirects`: lines of 2 or 3 tokens; rules without `*` or `:name` before
 * the first one that has them are static (at most 2,000), the rest dynamic
 * (at most 100); a query in a source is dropped. A request takes the static
 * rule for its exact path, else the first dynamic rule that matches (`*`
 * greedy, `:name` one segment); a 200 rule swaps the path, once, and only
 * then is a file looked for (`index.html` for a path ending in `/`), else the
 * nearest `404.html`. Methods other than GET and HEAD get 405. `_headers`: at
 * most 100 rules, each matched against the requested path; every match
 * applies in order, detaching (`! Name`) first, and a header set again by a
 * later rule is joined with a comma.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  renderCloudflareHeaders,
  renderCloudflareRedirects,
} from '../../../src/hosts/cloudflare.ts';
import { hostProblem } from '../../../src/hosts/index.ts';
import { FIXTURES, testSettings } from '../../helpers.ts';
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
  pathOfFile,
  requestsFor,
  fixtureTree,
  type FixtureTree,
} from './tree.ts';

interface Redirect {
  from: string;
  to: string;
  status: number;
  dynamic: boolean;
}

function parseRedirects(text: string): Redirect[] {
  let dynamicSeen = false;
  return meaningfulLines(text).map((line) => {
    const tokens = line.split(/\s+/);
    expect(tokens.length, line).toBeGreaterThanOrEqual(2);
    expect(tokens.length, line).toBeLessThanOrEqual(3);
    expect(line.length).toBeLessThanOrEqual(1000);
    dynamicSeen ||= /[*]|:[A-Za-z]/.test(tokens[0]!);
    return {
      from: tokens[0]!,
      to: tokens[1]!,
      status: Number(tokens[2] ?? 302),
      dynamic: dynamicSeen,
    };
  });
}

function meaningfulLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

function ruleRegex(rule: string): RegExp {
  const escaped = rule
    .split('*')
    .map((part) => part.replace(/[-/\\^$*+?.()|[\]{}]/g, '\\$&'))
    .join('(?<splat>.*)');
  return new RegExp(`^${escaped.replace(/:([A-Za-z]\w*)/g, '(?<$1>[^/]+)')}$`);
}

function redirectTarget(rules: Redirect[], pathname: string): { path: string; status: number } {
  const rule =
    rules.find((r) => !r.dynamic && r.from === pathname) ??
    rules.find((r) => r.dynamic && ruleRegex(r.from).test(pathname));
  if (!rule) return { path: pathname, status: 200 };
  expect([200, 301]).toContain(rule.status);
  const groups = ruleRegex(rule.from).exec(pathname)?.groups ?? {};
  return {
    path: rule.to.replace(
      /:([A-Za-z]\w*)/g,
      (placeholder, name: string) => groups[name] ?? placeholder,
    ),
    status: rule.status,
  };
}

interface HeaderRule {
  regex: RegExp;
  set: [string, string][];
  unset: string[];
}

function parseHeaders(text: string): HeaderRule[] {
  const rules: HeaderRule[] = [];
  for (const line of meaningfulLines(text)) {
    expect(line.length).toBeLessThanOrEqual(2000);
    if (line.startsWith('/')) rules.push({ regex: ruleRegex(line), set: [], unset: [] });
    else if (line.startsWith('! ')) rules.at(-1)!.unset.push(line.slice(2).toLowerCase());
    else {
      const [name, ...value] = line.split(':');
      rules.at(-1)!.set.push([name!.trim().toLowerCase(), value.join(':').trim()]);
    }
  }
  return rules;
}

/** Every matching rule in order, detaching first; a placeholder or the splat in a value takes what it matched. */
function headersFor(rules: HeaderRule[], pathname: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const rule of rules.filter((r) => r.regex.test(pathname))) {
    const groups = rule.regex.exec(pathname)?.groups ?? {};
    for (const name of rule.unset) headers.delete(name);
    for (const [name, template] of rule.set) {
      const value = template.replace(
        /:([A-Za-z]\w*)/g,
        (placeholder, key: string) => groups[key] ?? placeholder,
      );
      headers.set(name, headers.has(name) ? `${headers.get(name)}, ${value}` : value);
    }
  }
  return headers;
}

interface Answer {
  status: number;
  body: string | undefined;
  headers: Map<string, string>;
}

/** What Pages reads: the files and the two rule files. */
interface PagesFiles extends Pick<FixtureTree, 'files'> {
  redirects: Redirect[];
  headerRules: HeaderRule[];
}

type PagesTree = FixtureTree & PagesFiles;

function pages(tree: PagesFiles, method: string, url: string): Answer {
  const { pathname } = new URL(url, 'https://l10n.pages.dev');
  const headers = headersFor(tree.headerRules, pathname);
  const redirected = redirectTarget(tree.redirects, pathname);
  if (redirected.status === 301)
    return { status: 301, body: '', headers: new Map([...headers, ['location', redirected.path]]) };
  const target = decodeURIComponent(redirected.path);
  if (method !== 'GET' && method !== 'HEAD') return { status: 405, body: undefined, headers };
  const file = target.endsWith('/') ? `${target.slice(1)}index.html` : target.slice(1);
  if (tree.files.has(file)) return { status: 200, body: tree.files.get(file), headers };
  let dir = target;
  while (dir) {
    dir = dir.slice(0, dir.lastIndexOf('/'));
    const page = tree.files.get(`${dir.slice(1)}${dir ? '/' : ''}404.html`);
    if (page !== undefined) return { status: 404, body: page, headers };
  }
  return { status: 404, body: undefined, headers };
}

const fixtures = [
  ['features (API under /mirror)', join(FIXTURES, 'features/content'), {}],
  [
    'features at the root of its domain',
    join(FIXTURES, 'features/content'),
    { baseUrl: 'https://l10n.pages.dev' },
  ],
  ['minimal', join(FIXTURES, 'minimal/content'), {}],
  CURRENT_FIXTURE,
] as const;

describe.each(fixtures)('Cloudflare Pages files of %s', (_, contentDir, overrides) => {
  const load = async (): Promise<PagesTree> => {
    const tree = await fixtureTree(contentDir, overrides);
    const files = new Map(tree.files);
    files.set('_redirects', renderCloudflareRedirects(tree.settings));
    files.set('_headers', renderCloudflareHeaders(tree.settings));
    return {
      ...tree,
      files,
      redirects: parseRedirects(files.get('_redirects')!),
      headerRules: parseHeaders(files.get('_headers')!),
    };
  };

  it('stay within the limits and never put a query in a source', async () => {
    const tree = await load();
    const rules = parseRedirects(tree.files.get('_redirects')!);
    expect(rules.filter((rule) => !rule.dynamic).length).toBeLessThanOrEqual(2000);
    expect(rules.filter((rule) => rule.dynamic).length).toBeLessThanOrEqual(100);
    expect(rules.filter((rule) => rule.from.includes('?') || rule.from.includes('='))).toEqual([]);
    expect(new Set(rules.map((rule) => rule.from)).size).toBe(rules.length);
    expect(parseHeaders(tree.files.get('_headers')!).length).toBeLessThanOrEqual(100);
  });

  it('serve every resource as its file with Content-Type, Vary, its own Allow and the CORS header', async () => {
    const tree = await load();
    let checked = 0;
    for (const resource of tree.resources) {
      const direct = pathOfFile(tree, resource.file);
      for (const [path, query] of [
        ...requestsFor(tree, resource),
        [direct, ''] as [string, string],
      ]) {
        const answer = pages(tree, 'GET', `${path}${query ? `?${query}` : ''}`);
        expect(answer.status, path).toBe(200);
        expect(answer.body, path).toBe(tree.files.get(resource.file));
        expect(Object.fromEntries(answer.headers), path).toEqual({
          'content-type': 'application/json',
          vary: 'Accept',
          allow: resource.allow,
          'access-control-allow-origin': '*',
        });
        checked++;
      }
    }
    expect(checked).toBe(4 * tree.resources.length);
  });

  it('answer unknown paths with the JSON 404 page and other methods with 405 and the Allow of the resource', async () => {
    const tree = await load();
    for (const url of [
      `${tree.base}/api/nope/`,
      `${tree.base}/api/projects/nope/`,
      `${tree.base}/api/components/~page/99/`,
    ]) {
      const answer = pages(tree, 'GET', url);
      expect(answer.status, url).toBe(404);
      expect(answer.body).toBe(notFoundBody(tree.settings));
      expect(answer.headers.get('content-type')).toBe('application/json');
      expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    }
    const post = pages(tree, 'POST', `${tree.base}/api/languages/`);
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS');
  });
});

it('serves the components inside categories at the encoded paths Weblate links to (2026.8)', async () => {
  const tree = await fixtureTree(CURRENT_FIXTURE[1]);
  const redirects = parseRedirects(renderCloudflareRedirects(tree.settings));
  const headerRules = parseHeaders(renderCloudflareHeaders(tree.settings));
  const site = { ...tree, redirects, headerRules };
  const encoded = encodedResources(tree);
  expect(encoded.length).toBeGreaterThan(20);
  for (const resource of encoded) {
    const answer = pages(site, 'GET', `${tree.base}${resource.path}`);
    expect(answer.status, resource.path).toBe(200);
    expect(answer.body).toBe(tree.files.get(resource.file));
    expect(answer.headers.get('allow'), resource.path).toBe(resource.allow);
  }
  // Pages answers no 401 or 403: what Weblate refuses an anonymous reader is a 404 there.
  expect(pages(site, 'GET', `${tree.base}/api/projects/docs/repository/`).status).toBe(404);
});

it('refuses a query-paginated site for Cloudflare Pages, which drops the query', () => {
  const settings = testSettings({
    baseUrl: 'https://l10n.pages.dev',
    pageSize: 1,
    pagination: 'query',
  });
  expect(hostProblem(settings, { host: 'cloudflare' })).toMatch(
    /^expected "path" with --host cloudflare: Cloudflare Pages cannot map \?page=N/,
  );
  expect(hostProblem(settings, { host: 'netlify' })).toBeNull();
  expect(hostProblem({ ...settings, pagination: 'path' }, { host: 'cloudflare' })).toBeNull();
});

describe.each([
  ['4', ''],
  ['4', '/mirror'],
  ['2026.8', ''],
  ['2026.8', '/mirror'],
] as const)(
  'Cloudflare Pages files of a status site (flavour %s, base path "%s")',
  (version, base) => {
    const settings = testSettings({
      baseUrl: `https://l10n.pages.dev${base}`,
      weblateVersion: version,
      pages: true,
    });
    const files = new Map([...Object.entries(statusSiteFiles(version)), ['404.html', 'not found']]);
    const tree: PagesFiles = {
      files,
      redirects: parseRedirects(renderCloudflareRedirects(settings)),
      headerRules: parseHeaders(renderCloudflareHeaders(settings)),
    };
    // Pages follows a rule whether or not a file is at the path, and drops the query of a rule.
    const can: StatusSiteNeed[] = ['no-slash', 'alias', 'redirect', 'folder', 'disposition'];
    const answerOf = (url: string) => {
      const answer = pages(tree, 'GET', url);
      return {
        status: answer.status,
        body: answer.body,
        headers: (name: string) => answer.headers.get(name),
      };
    };

    it('answers every request it can as Weblate does, within its limits', () => {
      const cases = casesFor(version, can);
      for (const entry of cases)
        checkAnswer(entry, answerOf(`${base}${entry.url}`), {
          base,
          types: false,
          disposition: true,
        });
      expect(cases.length).toBeGreaterThan(40);
      const redirects = parseRedirects(renderCloudflareRedirects(settings));
      expect(redirects.filter((rule) => rule.dynamic).length).toBeLessThanOrEqual(100);
      expect(parseHeaders(renderCloudflareHeaders(settings)).length).toBeLessThanOrEqual(100);
    });

    it('serves the charts of components inside categories as their own files, and gives SVG and CSV their types', () => {
      const own =
        version === '4'
          ? '/widgets/demo/-/ui/horizontal-blue.svg'
          : '/widget/demo/docs/guides/manual/horizontal-blue.svg';
      expect(answerOf(`${base}${own}`).body).toBe(statusSiteFiles(version)[own.slice(1)]);
      expect(answerOf(`${base}${own}`).headers('content-type')).toBe(
        'image/svg+xml; charset=utf-8',
      );
      expect(answerOf(`${base}/exports/stats/demo/index.csv`).headers('content-type')).toBe(
        'text/csv; charset=utf-8',
      );
    });

    it('gives the PNG widgets and the widgets page their own types in the SVG folders', () => {
      const png =
        version === '4' ? '/widgets/demo/-/88x31-grey.png' : '/widget/demo/88x31-grey.png';
      expect(answerOf(`${base}${png}`).headers('content-type')).toBe('image/png');
      // 4.x's widgets page sits in the folder of the SVG widgets.
      if (version === '4')
        expect(answerOf(`${base}/widgets/demo/`).headers('content-type')).toBe(
          'text/html; charset=utf-8',
        );
    });

    if (version === '2026.8') {
      it("cannot take a chart at a language's prefix that a component inside categories could share", () => {
        expect(answerOf(`${base}/widget/demo/ui/cs/multi-auto.svg`).status).toBe(404);
      });
    }
  },
);

describe.each([
  ['4', join(FIXTURES, 'minimal/content'), {}],
  ['2026.8', join(FIXTURES, 'current/content'), { pages: true }],
] as const)(
  'Cloudflare Pages files of the status site a build writes (flavour %s)',
  (version, contentDir, overrides) => {
    it('answer every request for its pages, badges, charts and exports that Pages can', async () => {
      const tree = await fixtureTree(contentDir, overrides);
      const site: PagesFiles = {
        files: tree.files,
        redirects: parseRedirects(renderCloudflareRedirects(tree.settings)),
        headerRules: parseHeaders(renderCloudflareHeaders(tree.settings)),
      };
      const can: StatusSiteNeed[] = ['no-slash', 'alias', 'redirect', 'folder', 'disposition'];
      const cases = builtStatusSiteCases(tree.files.keys(), version).filter((entry) =>
        entry.needs.every((need) => can.includes(need)),
      );
      for (const entry of cases) {
        const answer = pages(site, 'GET', `${tree.base}${entry.url}`);
        const headers = (name: string) => answer.headers.get(name);
        checkAnswer(
          entry,
          { status: answer.status, body: answer.body, headers },
          {
            base: tree.base,
            types: false,
            disposition: true,
            read: (file) => tree.files.get(file),
          },
        );
      }
      expect(cases.length).toBeGreaterThan(60);
    });
  },
);
