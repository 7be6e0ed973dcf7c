/**
 * Issue 26, item 2: Weblate's widgets page (`/widgets/<project>/`) is written in both flavours,
 * linked from the project page, and works without script: every widget of the project, each
 * component's and each language's badge, with the HTML, Markdown and reStructuredText snippets
 * in read-only boxes. Every URL a snippet or an image names is a file of the built tree.
 */
import { appendFileSync, cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../../src/build.ts';
import { dirTarget } from '../../src/output/target.ts';
import { FIXTURES, tempDir } from '../helpers.ts';

/** Builds a fixture with its status site on into a real folder; returns the folder and its web URL. */
async function builtSite(fixture: string): Promise<string> {
  const content = join(tempDir(), 'content');
  cpSync(join(FIXTURES, fixture, 'content'), content, { recursive: true });
  appendFileSync(join(content, 'site.yaml'), 'pages: true\n');
  const out = join(tempDir(), 'out');
  const report = await build({ contentDir: content }, { target: dirTarget(out) });
  expect(report.errors).toEqual([]);
  return out;
}

/** The text of every read-only box of a page, unescaped. */
function snippetsOf(html: string): string[] {
  return [...html.matchAll(/<textarea[^>]*readonly[^>]*>([^<]*)<\/textarea>/g)].map((m) =>
    m[1]!.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"'),
  );
}

/** The file a URL of the site names: the file itself, or a folder's index.html. */
function fileOf(out: string, path: string): string {
  return join(out, path.endsWith('/') ? `${path}index.html` : path);
}

describe.each([
  ['4', 'minimal', 'hello', 'http://snapshot.test', ''],
  ['2026.8', 'current', 'docs', 'https://weblate.example.org/mirror', '/mirror'],
] as const)('the widgets page (flavour %s)', (_flavour, fixture, project, baseUrl, basePath) => {
  it('is written at /widgets/<project>/, linked from the project page, with three snippets per widget that name files of the tree', async () => {
    const out = await builtSite(fixture);
    const page = readFileSync(join(out, 'widgets', project, 'index.html'), 'utf8');
    const projectPage = readFileSync(join(out, 'projects', project, 'index.html'), 'utf8');
    expect(projectPage).toContain(`href="${basePath}/widgets/${project}/"`);
    expect(page).not.toContain('<script');

    const snippets = snippetsOf(page);
    // The project's own 9 widgets (one color each; the others linked), a badge per component and per language, each three ways.
    expect(snippets.length % 3).toBe(0);
    expect(snippets.length).toBeGreaterThanOrEqual(3 * 9);
    const formats = snippets.map((s) =>
      s.startsWith('<a ')
        ? 'html'
        : s.startsWith('[![')
          ? 'markdown'
          : s.startsWith('.. image::')
            ? 'rst'
            : 'other',
    );
    expect(formats.filter((f) => f === 'other')).toEqual([]);
    expect(new Set(formats)).toEqual(new Set(['html', 'markdown', 'rst']));

    const urls = snippets.flatMap((s) => [...s.matchAll(/https?:\/\/[^\s"()]+/g)].map((m) => m[0]));
    expect(urls.length).toBeGreaterThan(0);
    const missing = urls.filter((url) => {
      expect(url.startsWith(`${baseUrl}/`), url).toBe(true);
      return !existsSync(fileOf(out, url.slice(baseUrl.length)));
    });
    expect(missing).toEqual([]);
    // Each widget in its first color in the snippets, the other colors linked beside it.
    const links = [...page.matchAll(/<a href="([^"]+)">/g)].map((m) => m[1]!);
    for (const name of ['status-badge.png', '287x66-grey.png', '88x31-grey.png', 'open-graph.png'])
      expect(
        urls.some((url) => url.endsWith(`/${name}`)),
        name,
      ).toBe(true);
    for (const name of ['287x66-white.png', '88x31-black.png', 'matrix-red.svg', 'multi-blue.svg'])
      expect(
        links.some((link) => link.endsWith(`/${name}`)),
        name,
      ).toBe(true);
    expect(
      links.filter(
        (link) =>
          link.startsWith(`${basePath}/widget`) &&
          !existsSync(fileOf(out, link.slice(basePath.length))),
      ),
    ).toEqual([]);

    const images = [...page.matchAll(/<img src="([^"]+)"/g)].map((m) => m[1]!);
    expect(images.length).toBe(snippets.length / 3);
    expect(images.filter((src) => !existsSync(fileOf(out, src.slice(basePath.length))))).toEqual(
      [],
    );
  });
});
