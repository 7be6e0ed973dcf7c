/**
 * Issue 26, item 1: a project page showed figures and tables but not what the project is, every
 * page called the instance "Translation status", and in 2026.8 a project whose components all sit
 * in categories said "Components: None yet.". Now a project page says its website, instructions
 * (plain text with links, never markup from content), licenses, source language and counts; it
 * lists its categories and components together, as Weblate does; site.yaml's `title` names the
 * instance on every page.
 */
import { appendFileSync, cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildInMemory, FIXTURES, tempDir } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';

/** The 2026.8 fixture with pages on, every component of "docs" in a category, and instructions. */
function content(site = ''): string {
  const dir = join(tempDir(), 'content');
  cpSync(join(FIXTURES, 'current/content'), dir, { recursive: true });
  appendFileSync(join(dir, 'site.yaml'), `pages: true\n${site}`);
  const glossary = join(dir, 'projects/docs/components/glossary.yaml');
  writeFileSync(glossary, `category: guides\n${readFileSync(glossary, 'utf8')}`);
  appendFileSync(
    join(dir, 'projects/docs/project.yaml'),
    'instructions: "Read <b>the guide</b> first: https://docs.example.org/guide.\\n\\nThanks!"\n',
  );
  return dir;
}

describe('a project page says what the project is', () => {
  it('lists the categories as components when every component sits in one, not "None yet."', async () => {
    const built = await buildInMemory(content());
    expect(built.report.errors).toEqual([]);
    const page = built.files.get('projects/docs/index.html')!;
    const components = page.slice(page.indexOf('<h2 id="components">'));
    expect(components).not.toMatch(/^<h2 id="components">Components<\/h2><p>None yet/);
    expect(components).toContain('<a href="/mirror/projects/docs/guides/">Guides</a>');
  });

  it('shows the website, instructions with links and no markup, license, source language and counts', async () => {
    const built = await buildInMemory(content());
    const page = built.files.get('projects/docs/index.html')!;
    const about = page.slice(page.indexOf('<h2 id="about">'), page.indexOf('<h2 id="summary">'));
    expect(about).toContain(
      '<dt>Website</dt><dd><a href="https://docs.example.org" rel="nofollow ugc">https://docs.example.org</a></dd>',
    );
    expect(about).toContain(
      '<a href="https://spdx.org/licenses/GPL-3.0-or-later.html" rel="nofollow ugc">GPL-3.0-or-later</a>',
    );
    expect(about).toContain('<dt>Source language</dt><dd>English</dd>');
    expect(about).toContain('<dt>Components</dt><dd>3</dd>');
    expect(about).toMatch(/<dt>Languages<\/dt><dd>\d+<\/dd>/);
    expect(about).toContain(
      '<p>Read &lt;b&gt;the guide&lt;/b&gt; first: <a href="https://docs.example.org/guide" rel="nofollow ugc">https://docs.example.org/guide</a>.</p>\n<p>Thanks!</p>',
    );
    expect(page).not.toContain('<b>');
  });

  it("names the instance by site.yaml's title on every page and in its <title>", async () => {
    const built = await buildInMemory(content('title: "Example & Co translations"\n'));
    expect(built.report.errors).toEqual([]);
    const pages = [...built.files].filter(([path]) => path.endsWith('index.html'));
    expect(pages.length).toBeGreaterThan(20);
    for (const [path, html] of pages) {
      expect(html, path).toMatch(/<title>(.+ · )?Example &amp; Co translations<\/title>/);
      expect(html, path).toMatch(
        /<li( aria-current="page")?>(<a href="\/mirror\/">)?Example &amp; Co translations/,
      );
    }
    const home = built.files.get('index.html')!;
    expect(home).toContain('<title>Example &amp; Co translations</title>');
    expect(home).toContain('<h1>Example &amp; Co translations</h1>');
  });

  it('refuses an empty title, naming the file, line and what it expected', async () => {
    const dir = content('title: ""\n');
    const checked = await runCli('check', ['--content', dir]);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toMatch(/site\.yaml:\d+:\d+.*title.*expected a non-empty name/);
    expect(checked.stderr).not.toMatch(/^\s+at /m);
  });
});
