/** What the preview and the sidecar answer for the status site's paths, decided from the method and the URL alone. */
import { describe, expect, it } from 'vitest';
import { resolveStatusSiteRequest } from '../../../src/http/status-site-targets.ts';
import { PAGE_POLICY } from '../../../src/hosts/published.ts';

// A page is served with the policy it is written to meet.
const HTML = { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': PAGE_POLICY };
const SVG = { 'Content-Type': 'image/svg+xml; charset=utf-8' };
const files = (...list: [string, Record<string, string>][]) => ({
  kind: 'files',
  files: list.map(([file, headers]) => ({ file, headers })),
});
const redirect = (location: string) => ({ kind: 'redirect', location });
const notFound = { kind: 'error', status: 404 };

describe('resolveStatusSiteRequest', () => {
  it.each([
    ['/', files(['index.html', HTML])],
    ['/index.html', files(['index.html', HTML])],
    ['/projects/demo/', files(['projects/demo/index.html', HTML])],
    ['/projects/demo/index.html', files(['projects/demo/index.html', HTML])],
    ['/projects/demo', redirect('/projects/demo/')],
    ['/projects/demo?x=1', redirect('/projects/demo/?x=1')],
    ['/languages/ca%40valencia/', files(['languages/ca@valencia/index.html', HTML])],
    ['/languages/cs/demo/', files(['languages/cs/demo/index.html', HTML])],
    ['/engage/demo/cs/', files(['engage/demo/cs/index.html', HTML])],
    [
      '/static/weblate-snapshot.css',
      files(['static/weblate-snapshot.css', { 'Content-Type': 'text/css; charset=utf-8' }]),
    ],
    ['/widgets/demo/-/svg-badge.svg', files(['widgets/demo/-/svg-badge.svg', SVG])],
    ['/widgets/demo/cs/svg-badge.svg', files(['widgets/demo/cs/svg-badge.svg', SVG])],
    [
      '/widgets/demo/cs/multi-auto.svg',
      files(['widgets/demo/cs/multi-auto.svg', SVG], ['widgets/demo/-/multi-auto.svg', SVG]),
    ],
    [
      '/widgets/demo/cs/ui/horizontal-red.svg',
      files(
        ['widgets/demo/cs/ui/horizontal-red.svg', SVG],
        ['widgets/demo/-/ui/horizontal-red.svg', SVG],
      ),
    ],
    [
      '/exports/stats/demo/',
      files(['exports/stats/demo/index.json', { 'Content-Type': 'application/json' }]),
    ],
    [
      '/exports/stats/demo/?format=xml',
      files(['exports/stats/demo/index.json', { 'Content-Type': 'application/json' }]),
    ],
    [
      '/exports/stats/demo/ui/?format=csv',
      files([
        'exports/stats/demo/ui/index.csv',
        {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': 'attachment; filename=stats-demo-ui.csv',
        },
      ]),
    ],
    [
      '/exports/stats/demo/index.csv',
      files([
        'exports/stats/demo/index.csv',
        {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': 'attachment; filename=stats-demo.csv',
        },
      ]),
    ],
    ['/exports/stats/demo?format=csv', redirect('/exports/stats/demo/?format=csv')],
  ])('4.x: GET %s → %j', (url, answer) => {
    expect(resolveStatusSiteRequest('GET', url, '', '4')).toEqual(answer);
  });

  it.each([
    [
      '/projects/demo/docs/guides/manual/cs/',
      files(['projects/demo/docs/guides/manual/cs/index.html', HTML]),
    ],
    ['/projects/demo/-/cs/', files(['projects/demo/-/cs/index.html', HTML])],
    ['/translate/demo/-/cs/', files(['translate/demo/-/cs/index.html', HTML])],
    ['/engage/demo/-/cs/', files(['engage/demo/-/cs/index.html', HTML])],
    [
      '/widget/demo/docs/manual/svg-badge.svg',
      files(['widget/demo/docs/manual/svg-badge.svg', SVG]),
    ],
    [
      '/widget/demo/-/cs/multi-auto.svg',
      files(['widget/demo/-/cs/multi-auto.svg', SVG], ['widget/demo/multi-auto.svg', SVG]),
    ],
    // A component inside a category, or a component and a language: the file at the path first, then the chart it would stand for.
    [
      '/widget/demo/docs/manual/multi-auto.svg',
      files(
        ['widget/demo/docs/manual/multi-auto.svg', SVG],
        ['widget/demo/docs/multi-auto.svg', SVG],
      ),
    ],
    ['/widgets/demo/-/svg-badge.svg', redirect('/widget/demo/svg-badge.svg')],
    ['/widgets/demo/cs/svg-badge.svg?x=1', redirect('/widget/demo/-/cs/svg-badge.svg?x=1')],
    ['/widgets/demo/-/ui/multi-auto.svg', redirect('/widget/demo/ui/multi-auto.svg')],
    ['/widgets/demo/cs/ui/horizontal-blue.svg', redirect('/widget/demo/ui/cs/horizontal-blue.svg')],
    ['/engage/demo/cs/', notFound],
  ])('2026.8: GET %s → %j', (url, answer) => {
    expect(resolveStatusSiteRequest('GET', url, '', '2026.8')).toEqual(answer);
  });

  it.each([
    '/projects/..%2F..%2Fetc/',
    '/projects/%2e%2e/',
    '/projects/demo%2Fui/',
    '/projects/a%00b/',
    '/projects//demo/',
    `/projects/${'a'.repeat(300)}/`,
    '/projects/%E0%A4%A/',
    '/projects/demo/ui/cs/extra/',
    '/static/weblate-snapshot.css/',
    '/widgets/demo/-/nope.svg',
    '/projects/demo/index.json',
  ])('refuses %s with a 404 before any file is looked for', (url) => {
    expect(resolveStatusSiteRequest('GET', url, '', '4')).toEqual(notFound);
  });

  it('leaves the API alone, answers other paths with its 404, and answers only GET and HEAD', () => {
    expect(resolveStatusSiteRequest('GET', '/api/projects/', '', '4')).toBeNull();
    expect(resolveStatusSiteRequest('GET', '/api', '', '4')).toBeNull();
    expect(resolveStatusSiteRequest('GET', '/serve.json', '', '4')).toEqual(notFound);
    expect(resolveStatusSiteRequest('POST', '/nope/', '', '4')).toEqual(notFound);
    expect(resolveStatusSiteRequest('GET', '//evil.example/projects/', '', '4')).toEqual(notFound);
    expect(resolveStatusSiteRequest('GET', '/elsewhere/', '/l10n', '4')).toEqual(notFound);
    expect(resolveStatusSiteRequest('HEAD', '/projects/demo/', '', '4')).toEqual(
      files(['projects/demo/index.html', HTML]),
    );
    expect(resolveStatusSiteRequest('POST', '/projects/demo/', '', '4')).toEqual({
      kind: 'error',
      status: 405,
    });
  });

  it('serves the site under the path of the base URL only', () => {
    expect(resolveStatusSiteRequest('GET', '/l10n/projects/demo/', '/l10n', '4')).toEqual(
      files(['projects/demo/index.html', HTML]),
    );
    expect(resolveStatusSiteRequest('GET', '/l10n', '/l10n', '4')).toEqual(redirect('/l10n/'));
    expect(resolveStatusSiteRequest('GET', '/l10n/', '/l10n', '4')).toEqual(
      files(['index.html', HTML]),
    );
    expect(
      resolveStatusSiteRequest('GET', '/l10n/widgets/demo/cs/multi-auto.svg', '/l10n', '2026.8'),
    ).toEqual(redirect('/l10n/widget/demo/-/cs/multi-auto.svg'));
    expect(resolveStatusSiteRequest('GET', '/projects/demo/', '/l10n', '4')).toEqual(notFound);
  });
});
