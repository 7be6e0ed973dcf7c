/**
 * Issue 25, item 2 on Netlify: from 5.10 the statistics and a project's languages answer
 * `?format=csv` and `?format=json-flat`. Netlify's `_redirects` can match a query parameter, so
 * each request goes to the file the build wrote beside the JSON (json-flat of an object is its
 * JSON; of a page of a component's statistics, that page's flat file), at the root and under a
 * base path, with `?page=N` too. Read with Netlify's documented rule order (test/support).
 */
import { describe, expect, it } from 'vitest';
import { formatFileName, EXTRA_FORMATS, answersFormats } from '../../src/api/formats.ts';
import { routeOf } from '../../src/api/routes.ts';
import { renderNetlifyRedirects } from '../../src/hosts/netlify.ts';
import { netlifyFileFor } from '../support/netlify-rules.ts';
import { CURRENT_FIXTURE, fixtureTree } from '../unit/hosts/tree.ts';

describe.each([
  ['at the root', 'https://l10n.netlify.app'],
  ['under /mirror', 'https://l10n.netlify.app/mirror'],
])('Netlify rules of a 5.10 tree %s', (_, baseUrl) => {
  const load = async () => {
    const tree = await fixtureTree(CURRENT_FIXTURE[1], { baseUrl, weblateVersion: '5.10' });
    const files = new Map(tree.files);
    files.set('_redirects', renderNetlifyRedirects(tree.settings));
    return { ...tree, files };
  };

  it('send ?format=csv and ?format=json-flat of every statistics resource to its file', async () => {
    const tree = await load();
    const failures: string[] = [];
    let checked = 0;
    for (const resource of tree.resources) {
      const route = routeOf(resource.kind);
      if (!answersFormats(route, '5.10')) continue;
      for (const format of EXTRA_FORMATS) {
        const expected = resource.file.replace(/index\.json$/, formatFileName(route, format));
        const queries =
          resource.page > 1
            ? [`format=${format}&page=${resource.page}`, `page=${resource.page}&format=${format}`]
            : [`format=${format}`];
        for (const query of queries) {
          const url = `${tree.base}${resource.listPath}?${query}`;
          const answer = netlifyFileFor(tree.files, url);
          if (answer.file !== expected) failures.push(`${url}: ${answer.file} (${expected})`);
          checked++;
        }
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(40);
    expect(tree.files.has('api/translations/app/android/cs/statistics/index.csv')).toBe(true);
  });

  it('still answer the JSON without a format, and the files by name', async () => {
    const tree = await load();
    const path = `${tree.base}/api/translations/app/android/cs/statistics/`;
    expect(netlifyFileFor(tree.files, path).file).toBe(
      'api/translations/app/android/cs/statistics/index.json',
    );
    expect(netlifyFileFor(tree.files, `${path}?format=json`).file).toBe(
      'api/translations/app/android/cs/statistics/index.json',
    );
    expect(
      netlifyFileFor(tree.files, `/api/components/app/android/statistics/index.csv`).file,
    ).toBe('api/components/app/android/statistics/index.csv');
  });
});

it('writes no format rule for a release without the formats', async () => {
  const tree = await fixtureTree(CURRENT_FIXTURE[1], { weblateVersion: '5.9' });
  expect(renderNetlifyRedirects(tree.settings)).not.toContain('format=');
});
