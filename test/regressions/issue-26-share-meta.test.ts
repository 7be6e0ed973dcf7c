/**
 * Issue 26, item 3: every page of the status site carries the Open Graph and Twitter card tags
 * chat apps read for a link preview: its title, its own URL, and on a project's pages (those of
 * its components, translations, languages and widgets too) the project's `open-graph.png`,
 * a file of the tree of 1200×630.
 */
import { appendFileSync, cpSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';
import { build } from '../../src/build.ts';
import { dirTarget } from '../../src/output/target.ts';
import { FIXTURES, tempDir } from '../helpers.ts';

function meta(html: string, key: string): string | undefined {
  return new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)">`).exec(html)?.[1];
}

describe.each([
  ['4', 'minimal', 'http://snapshot.test'],
  ['2026.8', 'current', 'https://weblate.example.org/mirror'],
] as const)('link previews (flavour %s)', (_flavour, fixture, baseUrl) => {
  it('are on every page, with its title and URL, and the project panel on a project’s pages', async () => {
    const content = join(tempDir(), 'content');
    cpSync(join(FIXTURES, fixture, 'content'), content, { recursive: true });
    // The site at its web URL, as when it is on by default.
    appendFileSync(join(content, 'site.yaml'), `pages: true\n`);
    const out = join(tempDir(), 'out');
    expect((await build({ contentDir: content }, { target: dirTarget(out) })).errors).toEqual([]);
    const site = readFileSync(join(content, 'site.yaml'), 'utf8');
    const webUrl = /^web_url: (.*)$/m.exec(site)?.[1] ?? baseUrl;

    const pages = fg.sync('**/index.html', { cwd: out, ignore: ['api/**', 'hosts/**'] });
    expect(pages.length).toBeGreaterThan(10);
    let withImage = 0;
    for (const page of pages) {
      const html = readFileSync(join(out, page), 'utf8');
      const path = `/${relative(out, join(out, page)).replace(/index\.html$/, '')}`;
      expect(meta(html, 'og:title'), page).toBe(/<title>([^<]*)<\/title>/.exec(html)![1]);
      expect(meta(html, 'og:url'), page).toBe(webUrl + path);
      const image = meta(html, 'og:image');
      expect(meta(html, 'twitter:card'), page).toBe(image ? 'summary_large_image' : 'summary');
      if (/^\/(projects|widgets|translate|engage)\//.test(path)) expect(image, page).toBeDefined();
      if (!image) continue;
      withImage++;
      expect(image.startsWith(`${baseUrl}/`), image).toBe(true);
      const png = readFileSync(join(out, image.slice(baseUrl.length)));
      expect([png.readUInt32BE(16), png.readUInt32BE(20)], image).toEqual([1200, 630]);
    }
    expect(withImage).toBeGreaterThan(5);
  });
});
