/**
 * Every relative link in README.md and docs/*.md names a file or folder of
 * the repository, and every `#fragment` into a Markdown file (the page itself
 * included) names one of its headings, slugged as GitHub slugs them. Links
 * with http(s) or mailto are not followed; links inside code are not links.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir, writeFiles } from './helpers.ts';

const pages = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

describe.each(pages)('%s', (page) => {
  it('has no broken relative link', () => {
    expect(brokenLinks(ROOT, page)).toEqual([]);
  });
});

it('the README links to every page of docs/', () => {
  const linked = linksOf(readFileSync(join(ROOT, 'README.md'), 'utf8')).map(
    (link) => link.split('#')[0],
  );
  for (const page of pages.filter((p) => p.startsWith('docs/'))) expect(linked).toContain(page);
});

// Issue 12: the README is the first screen, under 8 KB; the rest lives in docs/.
it('keeps the README under 8 KB', () => {
  expect(readFileSync(join(ROOT, 'README.md')).byteLength).toBeLessThan(8 * 1024);
});

it('slugs headings as GitHub does', () => {
  const slugs = headingSlugs(
    [
      '# Preview: `npm run serve`',
      '## `languages/<code>.yaml`',
      '## Results, 2026-11-22',
      '## Behind a reverse proxy, next to a CDN',
      '### What a write does',
      '### What a write does',
      '```',
      '# not a heading, inside code',
      '```',
      '## A [linked](other.md) *word* and snake_case',
    ].join('\n'),
  );
  expect([...slugs]).toEqual([
    'preview-npm-run-serve',
    'languagescodeyaml',
    'results-2026-11-22',
    'behind-a-reverse-proxy-next-to-a-cdn',
    'what-a-write-does',
    'what-a-write-does-1',
    'a-linked-word-and-snake_case',
  ]);
});

it('reports a missing file, a missing heading and a link out of the repository, and nothing else', () => {
  const root = tempDir();
  writeFiles(root, {
    'README.md': [
      '# Top',
      '[ok](docs/a.md) [ok](docs/a.md#first-part) [ok](#top) [ok](docs/) [web](https://example.org/x.md#y) [mail](mailto:a@example.org)',
      '`[in code](nowhere.md)`',
      '```',
      '[in a fence](nowhere.md)',
      '```',
      '[gone](docs/b.md) [no heading](docs/a.md#second-part) [outside](../elsewhere.md)',
      '',
      '[ref]: docs/c.md',
    ].join('\n'),
    'docs/a.md': '# A\n\n## First part\n\n[back](../README.md#top) [self](#nope)\n',
  });
  expect(brokenLinks(root, 'README.md')).toEqual([
    'README.md: docs/b.md (no such file)',
    'README.md: docs/a.md#second-part (no heading "second-part" in docs/a.md)',
    'README.md: ../elsewhere.md (outside the repository)',
    'README.md: docs/c.md (no such file)',
  ]);
  expect(brokenLinks(root, 'docs/a.md')).toEqual([
    'docs/a.md: #nope (no heading "nope" in docs/a.md)',
  ]);
});

// --- internal ---

/** The relative links of `page` (a path under `root`) that lead nowhere, each with the reason. */
function brokenLinks(root: string, page: string): string[] {
  const broken: string[] = [];
  for (const link of linksOf(readFileSync(join(root, page), 'utf8'))) {
    if (/^(https?|mailto):/i.test(link)) continue;
    const [path = '', fragment] = link.split('#', 2);
    const target =
      path === ''
        ? join(root, page)
        : resolve(path.startsWith('/') ? root : dirname(join(root, page)), decodeURI(path));
    const name = relative(root, target);
    if (name.startsWith('..')) broken.push(`${page}: ${link} (outside the repository)`);
    else if (!existsSync(target)) broken.push(`${page}: ${link} (no such file)`);
    else if (
      fragment !== undefined &&
      target.endsWith('.md') &&
      !headingSlugs(readFileSync(target, 'utf8')).has(decodeURIComponent(fragment))
    ) {
      broken.push(`${page}: ${link} (no heading "${fragment}" in ${name})`);
    }
  }
  return broken;
}

/** Link targets of inline links, images and reference definitions, outside code. */
function linksOf(markdown: string): string[] {
  const text = outsideFences(markdown).replace(/(`+)[\s\S]*?\1/g, '');
  const inline = [
    ...text.matchAll(
      /!?\[(?:[^[\]]|\[[^[\]]*\])*\]\(\s*(<[^>]*>|[^()\s]+)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g,
    ),
  ];
  const definitions = [...text.matchAll(/^ {0,3}\[[^\]]+\]:\s*(\S+)/gm)];
  return [...inline, ...definitions].map((match) => match[1]!.replace(/^<(.*)>$/, '$1'));
}

/** The anchors GitHub gives the headings of a page: text lowercased, punctuation dropped, spaces to -, repeats numbered. */
function headingSlugs(markdown: string): Set<string> {
  const slugs = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of outsideFences(markdown).matchAll(
    /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/gm,
  )) {
    const text = heading!.replace(
      /(`+)(.*?)\1|<[^>]*>|!?\[([^\]]*)\]\([^)]*\)/g,
      (_, ticks, code, label) => (ticks ? code : (label ?? '')),
    );
    const base = text
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    slugs.add(count === 0 ? base : `${base}-${count}`);
  }
  return slugs;
}

/** The page with the lines of fenced code blocks blanked. */
function outsideFences(markdown: string): string {
  let fence: string | null = null;
  return markdown
    .split('\n')
    .map((line) => {
      const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence === null && marker) {
        fence = marker;
        return '';
      }
      if (fence !== null) {
        if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = null;
        return '';
      }
      return line;
    })
    .join('\n');
}
