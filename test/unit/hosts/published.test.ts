import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentTypeOf, isPublished } from '../../../src/hosts/published.ts';
import { ROOT } from '../../helpers.ts';

describe('which files of a tree readers are served, and as what', () => {
  it.each(['features', 'minimal', 'query-pagination'])(
    'gives every published file of the golden tree %s a Content-Type',
    (name) => {
      const files = readFileSync(join(ROOT, 'test/golden', name, 'FILES.txt'), 'utf8')
        .trim()
        .split('\n');
      const published = files.filter(isPublished);
      expect(published.length).toBeGreaterThan(40);
      expect(
        published.filter((path) => contentTypeOf(path) === 'application/octet-stream'),
      ).toEqual([]);
      const configuration = (path: string) =>
        path.startsWith('hosts/') ||
        ['serve.json', '.nojekyll', '_redirects', '_headers'].includes(path);
      expect(files.filter((path) => !isPublished(path)).sort()).toEqual(
        files.filter(configuration).sort(),
      );
    },
  );

  it.each([
    ['api/projects/index.json', 'application/json'],
    ['404.html', 'application/json'],
    ['api/projects/~page/2/index.json', 'application/json'],
    ['index.html', 'text/html; charset=utf-8'],
    ['static/weblate-snapshot.css', 'text/css; charset=utf-8'],
    ['widgets/hello/-/svg-badge.svg', 'image/svg+xml; charset=utf-8'],
    ['exports/stats/hello/index.csv', 'text/csv; charset=utf-8'],
    ['notes.txt', 'text/plain; charset=utf-8'],
    ['CNAME', 'application/octet-stream'],
  ])('serves %s as %s', (path, type) => {
    expect(contentTypeOf(path)).toBe(type);
  });

  it.each([
    'serve.json',
    '.nojekyll',
    '_redirects',
    '_headers',
    'hosts/nginx/weblate-snapshot.conf',
    'hosts/s3/upload.sh',
    'hosts/s3/cors.json',
  ])('keeps the host configuration %s to the host', (path) =>
    expect(isPublished(path)).toBe(false),
  );
});
