/**
 * The status site as a whole: every link of its pages and charts leads to a file of the tree,
 * every web link of the API leads to a page, pages of the embedded content stay under 30 KB,
 * and pages of right-to-left languages are laid out right to left.
 */
import { appendFileSync, cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildInMemory, FIXTURES, ROOT, tempDir } from './helpers.ts';

/** The content folder of a fixture with the status site on (and its base URL's path). */
function withPages(fixture: string): string {
  const content = join(tempDir(), 'content');
  cpSync(join(FIXTURES, fixture, 'content'), content, { recursive: true });
  appendFileSync(join(content, 'site.yaml'), 'pages: true\n');
  return content;
}

/** The file a link of the status site names: a folder's index (index.html, or index.json under api/ and exports/), or the file itself. */
function fileOfLink(path: string): string {
  const decoded = decodeURIComponent(path.replace(/[?#].*$/, '')).replace(/^\//, '');
  if (!decoded.endsWith('/') && decoded !== '') return decoded;
  return /^(api|exports)\//.test(decoded) ? `${decoded}index.json` : `${decoded}index.html`;
}

/** The minimal content served below a path (`/l10n`), web links included: charts' absolute links keep the path once. */
function underPath(): string {
  const content = join(tempDir(), 'content');
  cpSync(join(FIXTURES, 'minimal/content'), content, { recursive: true });
  writeFileSync(join(content, 'site.yaml'), 'base_url: http://snapshot.test/l10n\n');
  return content;
}

const cases = [
  ['minimal', 'minimal', 'http://snapshot.test', ''],
  [
    'minimal below a path (regression: chart links lost the path or part of theirs)',
    'under-path',
    'http://snapshot.test/l10n',
    '/l10n',
  ],
  [
    'current (2026.8, categories, right-to-left)',
    'current',
    'https://weblate.example.org/mirror',
    '/mirror',
  ],
] as const;

function contentOf(fixture: (typeof cases)[number][1]): string {
  if (fixture === 'minimal') return join(FIXTURES, fixture, 'content');
  return fixture === 'under-path' ? underPath() : withPages(fixture);
}

describe.each(cases)('the status site of fixture %s', (_, fixture, base, prefix) => {
  it('has every link of its pages and charts lead to a file of the tree', async () => {
    const built = await buildInMemory(contentOf(fixture));
    const broken: string[] = [];
    for (const [path, text] of built.files) {
      if (!/\.(html|svg)$/.test(path) || path.startsWith('hosts/')) continue;
      for (const [, link] of text.matchAll(/(?:href|src)="([^"]+)"/g)) {
        let target = link!.replaceAll('&amp;', '&');
        if (target.startsWith(base)) target = target.slice(base.length);
        else if (target.startsWith(prefix + '/')) target = target.slice(prefix.length);
        else if (/^(https?:|data:|#)/.test(target)) continue;
        if (!built.files.has(fileOfLink(target))) broken.push(`${path} → ${link}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('has a page at every web link of the API', async () => {
    const built = await buildInMemory(contentOf(fixture));
    const web = fixture === 'current' ? 'https://weblate.example.org' : base;
    const missing = new Set<string>();
    for (const [path, text] of built.files) {
      if (!path.startsWith('api/')) continue;
      for (const [, url] of text.matchAll(/"(?:web_url|share_url|translate_url|url)":"([^"]+)"/g)) {
        if (url!.includes('/api/') || !url!.startsWith(web)) continue;
        if (!built.files.has(fileOfLink(url!.slice(web.length)))) missing.add(url!);
      }
    }
    expect([...missing].sort()).toEqual([]);
  });
});

describe('the pages', () => {
  it('stay under 30 KB each for the embedded content', async () => {
    const built = await buildInMemory(join(ROOT, 'content'));
    const pages = [...built.files].filter(([path]) => path.endsWith('.html'));
    expect(pages.length).toBeGreaterThan(20);
    const sizes = pages.map(([path, text]) => [path, Buffer.byteLength(text)] as const);
    expect(sizes.filter(([, bytes]) => bytes >= 30 * 1024)).toEqual([]);
  });

  it("keep the English interface left to right, a right-to-left language's pages too", async () => {
    const built = await buildInMemory(withPages('current'));
    for (const path of ['projects/app/android/ar/index.html', 'languages/ar/index.html'])
      expect(built.files.get(path)).toContain('<html lang="en">\n');
    // A language's name is English: its row reads as the rest of the table.
    expect(built.files.get('projects/app/android/index.html')).toMatch(
      /<th scope="row"><a [^>]+>Arabic<\/a>/,
    );
  });

  it('fetch nothing from outside: no script, no external font, stylesheet or image', async () => {
    const built = await buildInMemory(join(FIXTURES, 'minimal/content'));
    for (const [path, text] of built.files) {
      // The 404 page included: with the status site it is one of its pages.
      if (!path.endsWith('.html')) continue;
      expect(text, path).not.toMatch(/<script|@import|url\(|<link[^>]+href="https?:|src="https?:/);
    }
  });
});
