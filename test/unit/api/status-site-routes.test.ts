/** The status site's route table, read against the paths urls.ts builds and the rules of Weblate's URLs. */
import { describe, expect, it } from 'vitest';
import {
  exportFile,
  exportFileName,
  fillPattern,
  matchStatusSiteSegments,
  statusSiteRoutesOf,
  type StatusSiteMatch,
} from '../../../src/api/status-site-routes.ts';
import {
  BADGE_FILE,
  chartFile,
  SITE_ROOT_NAMES,
  statusSitePath,
  webPath,
} from '../../../src/api/urls.ts';
import type { WeblateVersion } from '../../../src/model/defaults.ts';

const segmentsOf = (path: string) => path.split('/').filter(Boolean);
const kinds = (path: string, version: WeblateVersion) =>
  matchStatusSiteSegments(segmentsOf(path), version).map((match) => match.route.kind);
const first = (path: string, version: WeblateVersion): StatusSiteMatch =>
  matchStatusSiteSegments(segmentsOf(path), version)[0]!;

describe('the routes of the status site', () => {
  it.each([
    ['4', '/', 'home'],
    ['4', webPath.language('ca@valencia'), 'language'],
    ['4', '/languages/cs/demo/', 'language-project'],
    ['4', webPath.project('demo'), 'project'],
    ['4', webPath.component('demo', 'ui'), 'component'],
    ['4', webPath.translation('demo', 'ui', 'zh_Hans'), 'translation'],
    ['4', webPath.translate('demo', 'ui', 'cs'), 'translate'],
    ['4', webPath.share('demo', 'cs'), 'engage'],
    ['4', statusSitePath.stylesheet(), 'stylesheet'],
    ['4', `${statusSitePath.widgets('demo', null, null)}${BADGE_FILE}`, 'badge'],
    ['4', `${statusSitePath.widgets('demo', null, 'ui')}${BADGE_FILE}`, 'component-badge'],
    ['4', `${statusSitePath.widgets('demo', 'cs', null)}${BADGE_FILE}`, 'language-badge'],
    ['4', `${statusSitePath.widgets('demo', 'cs', 'ui')}${BADGE_FILE}`, 'translation-badge'],
    ['4', `${statusSitePath.widgets('demo', null, null)}${chartFile('multi', 'auto')}`, 'chart'],
    [
      '4',
      `${statusSitePath.widgets('demo', null, 'ui')}${chartFile('horizontal', 'blue')}`,
      'component-chart',
    ],
    [
      '4',
      `${statusSitePath.widgets('demo', 'cs', null)}${chartFile('multi', 'red')}`,
      'language-chart',
    ],
    [
      '4',
      `${statusSitePath.widgets('demo', 'cs', 'ui')}${chartFile('horizontal', 'green')}`,
      'translation-chart',
    ],
    ['4', statusSitePath.exports('demo', null), 'project-export'],
    ['4', statusSitePath.exports('demo', 'ui'), 'component-export'],
    ['2026.8', webPath.projectLanguage('demo', 'cs'), 'project-language'],
    ['2026.8', webPath.category('demo', 'docs/guides'), 'category'],
    ['2026.8', webPath.component('demo', 'docs/guides/api/manual'), 'component'],
    ['2026.8', webPath.translation('demo', 'docs/guides/api/manual', 'cs'), 'translation'],
    ['2026.8', webPath.projectLanguageTranslate('demo', 'cs'), 'project-language-translate'],
    ['2026.8', webPath.translate('demo', 'docs/manual', 'cs'), 'translate'],
    ['2026.8', webPath.share2026('demo', 'cs'), 'engage-language'],
    ['2026.8', `${statusSitePath.widget('demo', null, null)}${BADGE_FILE}`, 'badge'],
    [
      '2026.8',
      `${statusSitePath.widget('demo', null, 'docs/manual')}${BADGE_FILE}`,
      'component-badge',
    ],
    ['2026.8', `${statusSitePath.widget('demo', 'cs', null)}${BADGE_FILE}`, 'language-badge'],
    ['2026.8', `${statusSitePath.widget('demo', 'cs', 'ui')}${BADGE_FILE}`, 'translation-badge'],
    [
      '2026.8',
      `${statusSitePath.widget('demo', null, null)}${chartFile('multi', 'auto')}`,
      'chart',
    ],
    [
      '2026.8',
      `${statusSitePath.widget('demo', null, 'docs/manual')}${chartFile('multi', 'auto')}`,
      'component-chart',
    ],
    [
      '2026.8',
      `${statusSitePath.widget('demo', 'cs', null)}${chartFile('multi', 'auto')}`,
      'language-chart',
    ],
    ['2026.8', statusSitePath.exports('demo', 'docs/guides/manual'), 'component-export'],
    ['2026.8', `${statusSitePath.widgets('demo', null, null)}${BADGE_FILE}`, 'old-widget'],
    [
      '2026.8',
      `${statusSitePath.widgets('demo', 'cs', 'ui')}${chartFile('multi', 'auto')}`,
      'old-translation-widget',
    ],
  ] as const)('in flavour %s, %s is a %s', (version, path, kind) => {
    expect(kinds(path, version)).toContain(kind);
  });

  it('takes a component inside categories and a component with a language for one another, so both are tried (2026.8)', () => {
    expect(kinds('/widget/demo/docs/manual/multi-auto.svg', '2026.8')).toEqual([
      'component-chart',
      'translation-chart',
    ]);
    // `-` alone is never a slug: Weblate's paths use it for "no component".
    expect(kinds('/widget/demo/-/cs/multi-auto.svg', '2026.8')).toEqual(['language-chart']);
    expect(kinds('/projects/demo/docs/manual/cs', '2026.8')).toEqual([
      'category',
      'component',
      'translation',
    ]);
  });

  it('fills a chart alias and a redirect with the parameters of the path', () => {
    const alias = first('/widgets/demo/cs/ui/multi-red.svg', '4');
    expect(alias.route.serves).toMatchObject({ kind: 'alias' });
    expect(fillPattern((alias.route.serves as { to: readonly string[] }).to, alias.params)).toBe(
      '/widgets/demo/-/ui/multi-red.svg',
    );
    const cases: [string, string][] = [
      ['/widgets/demo/-/svg-badge.svg', '/widget/demo/svg-badge.svg'],
      ['/widgets/demo/cs/svg-badge.svg', '/widget/demo/-/cs/svg-badge.svg'],
      ['/widgets/demo/-/ui/multi-auto.svg', '/widget/demo/ui/multi-auto.svg'],
      ['/widgets/demo/cs/ui/horizontal-blue.svg', '/widget/demo/ui/cs/horizontal-blue.svg'],
    ];
    for (const [from, to] of cases) {
      const redirect = first(from, '2026.8');
      expect(redirect.route.serves.kind, from).toBe('redirect');
      expect(
        fillPattern((redirect.route.serves as { to: readonly string[] }).to, redirect.params),
        from,
      ).toBe(to);
    }
  });

  it.each([
    ['4', '/projects/demo/ui/cs/extra'],
    ['4', '/projects/de.mo'],
    ['4', '/widgets/demo/-/badge.svg'],
    ['4', '/widgets/demo/-/multi-purple.svg'],
    ['4', '/widget/demo/svg-badge.svg'],
    ['2026.8', '/engage/demo/cs'],
    ['2026.8', '/projects/demo/a/b/c/d/e/cs'],
    ['2026.8', '/widgets/demo/-/a/b/svg-badge.svg'],
    ['2026.8', '/exports/stats'],
  ] as const)('in flavour %s, finds no route for %s', (version, path) => {
    expect(kinds(path, version)).toEqual([]);
  });

  it('chooses the export file from the path form first, then ?format=csv, else JSON as Weblate falls back', () => {
    expect(exportFile('', null)).toBe('index.json');
    expect(exportFile('', 'csv')).toBe('index.csv');
    expect(exportFile('', 'xml')).toBe('index.json');
    expect(exportFile('index.csv', null)).toBe('index.csv');
    expect(exportFile('index.json', 'csv')).toBe('index.json');
    expect(exportFileName('demo', null)).toBe('stats-demo.csv');
    expect(exportFileName('demo', 'docs/guides/manual')).toBe('stats-demo-manual.csv');
  });

  it('starts every path with one of the names the site takes at the root of a tree', () => {
    const first = new Set(
      [...statusSiteRoutesOf('4'), ...statusSiteRoutesOf('2026.8')].flatMap((route) =>
        route.pattern.slice(0, 1),
      ),
    );
    expect(['index.html', ...first].sort()).toEqual([...SITE_ROOT_NAMES].sort());
  });
});
