/**
 * Issue 26, item 4 (the pages): Arabic and Hebrew pages mirrored the whole English interface
 * (`<html lang="en" dir="rtl">`), every badge's alt text was "Translation status badge", the bars'
 * colors had no legend, and the bars' widths were style attributes, which a strict
 * Content-Security-Policy blocks. Now the interface keeps its direction, a badge's alt text says
 * what the badge says, a summary's bar has a legend, and no page has a style attribute.
 */
import { appendFileSync, cpSync } from 'node:fs';
import { join } from 'node:path';
import { HtmlValidate } from 'html-validate';
import { describe, expect, it } from 'vitest';
import { buildInMemory, FIXTURES, tempDir, type MemoryBuild } from '../helpers.ts';

/** The pages of both flavours: fixture "minimal" (4.x) and "current" (2026.8, Arabic) with pages on. */
async function builds(): Promise<[string, MemoryBuild][]> {
  const current = join(tempDir(), 'content');
  cpSync(join(FIXTURES, 'current/content'), current, { recursive: true });
  appendFileSync(join(current, 'site.yaml'), 'pages: true\n');
  const found: [string, MemoryBuild][] = [];
  for (const [name, dir] of [
    ['4.x', join(FIXTURES, 'minimal/content')],
    ['2026.8', current],
  ] as const) {
    const built = await buildInMemory(dir);
    expect(built.report.errors).toEqual([]);
    found.push([name, built]);
  }
  return found;
}

function pagesOf(built: MemoryBuild): [string, string][] {
  return [...built.files].filter(([path]) => path.endsWith('index.html'));
}

describe('pages that read right', () => {
  it("keep the interface left to right on a right-to-left language's pages", async () => {
    const current = (await builds())[1]![1];
    const arabic = pagesOf(current).filter(([path]) => /(^|\/)ar\/index\.html$/.test(path));
    expect(arabic.length).toBeGreaterThan(4);
    for (const [path, html] of arabic) {
      expect(html, path).toContain('\n<html lang="en">\n');
      expect(html, path).not.toContain('dir="rtl"');
    }
  });

  it("give each badge the alt text of what it says, as the badge's own label", async () => {
    let badges = 0;
    for (const [name, built] of await builds()) {
      for (const [path, html] of pagesOf(built)) {
        for (const [, src, alt] of html.matchAll(
          /<img src="\/(?:mirror\/)?([^"]+)" alt="([^"]*)"/g,
        )) {
          expect(built.files.has(src!), `${name} ${path}: ${src}`).toBe(true);
          // The widgets page also shows charts and bitmaps, each named by its alt text.
          if (!src!.endsWith('svg-badge.svg')) {
            expect(alt, `${name} ${path}: ${src}`).not.toBe('');
            continue;
          }
          badges++;
          const svg = built.files.get(src!);
          expect(svg, `${name} ${path}: ${src}`).toBeDefined();
          expect(alt, `${name} ${path}`).toMatch(/^translated: \d+%$/);
          expect(svg, `${name} ${path}`).toContain(`aria-label="${alt}"`);
        }
      }
    }
    expect(badges).toBeGreaterThan(30);
  });

  it("put a legend of the bar's colors under every summary", async () => {
    let summaries = 0;
    for (const [name, built] of await builds()) {
      for (const [path, html] of pagesOf(built)) {
        if (!html.includes('<h2 id="summary">')) continue;
        summaries++;
        const summary =
          /<h2 id="summary">Status<\/h2><svg class="bar"[^]*?<\/svg>(<ul class="legend">[^]*?<\/ul>)/.exec(
            html,
          );
        expect(summary?.[1], `${name} ${path}`).toBe(
          '<ul class="legend"><li><span class="swatch good"></span>Translated</li>' +
            '<li><span class="swatch failing"></span>Translated, failing checks</li>' +
            '<li><span class="swatch fuzzy"></span>Needing editing</li>' +
            '<li><span class="swatch empty"></span>Not translated</li></ul>',
        );
      }
    }
    expect(summaries).toBeGreaterThan(50);
  });

  it('have no style attribute on any page of either flavour (html-validate no-inline-style)', async () => {
    const validator = new HtmlValidate({ rules: { 'no-inline-style': 'error' } });
    const messages: string[] = [];
    let count = 0;
    for (const [name, built] of await builds()) {
      for (const [path, html] of pagesOf(built)) {
        count++;
        const report = await validator.validateString(html, `${name}: ${path}`);
        for (const result of report.results)
          messages.push(...result.messages.map((m) => `${result.filePath}:${m.line} ${m.message}`));
      }
    }
    expect(count).toBeGreaterThan(50);
    expect(messages).toEqual([]);
  });
});
