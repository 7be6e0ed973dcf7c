/**
 * Issue 26, item 4 (404 pages on every host): the tree's `404.html`, which hosts that look a 404
 * page up by name serve, held the API's JSON body even with the status site on, so a missing page
 * of the site got JSON on GitHub Pages, S3, Netlify and Cloudflare Pages. With the site on it is
 * now the site's HTML 404 page, and the API's JSON 404 lies beside the API as `api/404.html`,
 * which Cloudflare Pages serves under the API (the nearest `404.html`). Read from the built
 * files and the hosts' rule files; the servers are started in issue-26-not-found-servers.
 */
import { appendFileSync, cpSync } from 'node:fs';
import { join } from 'node:path';
import { HtmlValidate } from 'html-validate';
import { describe, expect, it } from 'vitest';
import { contentTypeOf } from '../../src/hosts/published.ts';
import { buildInMemory, FIXTURES, tempDir, type MemoryBuild } from '../helpers.ts';

const HTML = 'text/html; charset=utf-8';

/** A fixture built in memory, with the status site on when `pages`. */
async function built(fixture: string, pages = false): Promise<MemoryBuild> {
  const content = join(tempDir('wsnap-404-'), 'content');
  cpSync(join(FIXTURES, fixture, 'content'), content, { recursive: true });
  if (pages) appendFileSync(join(content, 'site.yaml'), 'pages: true\n');
  const tree = await buildInMemory(content);
  expect(tree.report.errors).toEqual([]);
  return tree;
}

/** The `404.html` Cloudflare Pages serves for a path: the nearest one up the folders (its documented Not Found behaviour). */
function nearestNotFound(files: ReadonlyMap<string, string>, path: string): string | undefined {
  const folders = path.split('/').slice(1, -1);
  for (let depth = folders.length; depth >= 0; depth--) {
    const page = files.get([...folders.slice(0, depth), '404.html'].join('/'));
    if (page !== undefined) return page;
  }
  return undefined;
}

describe("the tree's 404 pages with the status site on", () => {
  it.each([
    ['minimal', false, '', '{"detail":"Not found."}\n'],
    ['release-4.14', false, '/mirror', '{"detail":"Not found."}\n'],
    [
      'current',
      true,
      '/mirror',
      '{"type":"client_error","errors":[{"code":"not_found","detail":"Not found.","attr":null}]}\n',
    ],
  ])(
    'writes the site’s page as 404.html and the JSON 404 as api/404.html (%s)',
    async (fixture, pages, base, json) => {
      const tree = await built(fixture, pages);
      const page = tree.files.get('404.html')!;
      expect(page).toContain(`<link rel="stylesheet" href="${base}/static/weblate-snapshot.css">`);
      expect(page).toMatch(/<title>Page not found · [^<]+<\/title>/);
      // Absolute paths from the base URL's path: the same page answers at any depth.
      expect(page).toContain(`<a href="${base}/">Go to the home page</a>`);
      const report = await new HtmlValidate({
        extends: ['html-validate:recommended'],
      }).validateString(page);
      expect(report.results.flatMap((result) => result.messages.map((m) => m.message))).toEqual([]);
      expect(tree.files.get('api/404.html')).toBe(json);
      expect(contentTypeOf('404.html', Buffer.from(page))).toBe(HTML);
      expect(contentTypeOf('api/404.html')).toBe('application/json');
    },
  );

  it('keeps the JSON 404.html, and writes no api/404.html, without the status site', async () => {
    const tree = await built('features');
    expect(tree.files.get('404.html')).toBe('{"detail":"Not found."}\n');
    expect(tree.files.has('api/404.html')).toBe(false);
    expect(contentTypeOf('404.html', Buffer.from(tree.files.get('404.html')!))).toBe(
      'application/json',
    );
  });

  it('gives Cloudflare Pages the JSON 404 under the API and the HTML page elsewhere', async () => {
    const tree = await built('minimal');
    expect(nearestNotFound(tree.files, '/api/projects/nope/index.json')).toBe(
      '{"detail":"Not found."}\n',
    );
    expect(nearestNotFound(tree.files, '/projects/nope/index.html')).toContain(
      '<title>Page not found',
    );
    // The API's rule types every answer under it, its 404 page included.
    expect(tree.files.get('hosts/cloudflare/_headers')).toMatch(
      /^\/api\*\n {2}Content-Type: application\/json$/m,
    );
  });

  it('uploads 404.html as HTML with the AWS CLI script, the API (its 404 included) as JSON', async () => {
    const script = (await built('minimal')).files.get('hosts/s3/upload.sh')!;
    expect(script).toContain(
      `aws s3 cp "$tree/404.html" "s3://$bucket$prefix/404.html" --no-follow-symlinks --content-type '${HTML}'`,
    );
    expect(script).toContain(
      `aws s3 sync "$tree/api" "s3://$bucket$prefix/api" --delete --no-follow-symlinks --content-type 'application/json'`,
    );
  });
});
