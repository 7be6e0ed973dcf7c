/**
 * Issue 14, item 6: the status site in a real browser. Two trees are built
 * with the build command for a loopback port, the 4.x fixture "minimal" and
 * the 2026.8 fixture "current" with `pages: true` (categories, Arabic), and
 * served by the preview as a process of its own. Debian's headless Chromium
 * opens each kind of page at 360 px in light and at 1280 px in dark (the widgets
 * page and the 404 page among them): no console
 * error, every request answered from the site, no horizontal overflow,
 * axe-core's default rules met at each width and in each scheme, the pages'
 * Content-Security-Policy sent and
 * no violation of it reported (issue 26), the breadcrumb running left to
 * right as the English interface does, on an Arabic page too; and every badge and chart, opened on its own,
 * keeps its text inside its box. With WSNAP_SCREENSHOTS=1, screenshots of each page and view go to
 * test-artifacts/browser/ (gitignored), named by flavour, page kind, width and scheme.
 *
 * Without /usr/bin/chromium the file is skipped, loudly; under CI, where
 * .ci/run installs it, that fails instead.
 */
import { appendFileSync, cpSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import fg from 'fast-glob';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, ROOT, scriptArgs, tempDir } from '../helpers.ts';
import { runScript } from '../support/run-script.ts';
import {
  breadcrumbLayout,
  chromiumInstalled,
  CHROMIUM,
  launchChromium,
  openTab,
  svgFramesProblems,
  visitPage,
  type Box,
  type ColorScheme,
  type Tab,
} from './browser-checks.ts';
import { freePort, get, startServer, type Started } from './servers.ts';

const SCREENSHOTS = join(ROOT, 'test-artifacts/browser');

interface PageKind {
  kind: string;
  path: string;
  /** The status the page answers with (200 unless said). */
  status?: number;
}

const FLAVOURS: { name: string; fixture: string; pagesOn: boolean; pages: PageKind[] }[] = [
  {
    name: '4.x',
    fixture: 'minimal',
    pagesOn: false,
    pages: [
      { kind: 'home', path: '/' },
      { kind: 'project', path: '/projects/hello/' },
      { kind: 'component', path: '/projects/hello/app/' },
      { kind: 'translation', path: '/projects/hello/app/cs/' },
      { kind: 'translate', path: '/translate/hello/app/cs/' },
      { kind: 'language', path: '/languages/cs/' },
      { kind: 'project-language', path: '/languages/cs/hello/' },
      { kind: 'engage', path: '/engage/hello/cs/' },
      { kind: 'widgets', path: '/widgets/hello/' },
      { kind: 'not-found', path: '/projects/nope/', status: 404 },
    ],
  },
  {
    name: '2026.8',
    fixture: 'current',
    pagesOn: true,
    pages: [
      { kind: 'home', path: '/' },
      { kind: 'project', path: '/projects/docs/' },
      { kind: 'category', path: '/projects/docs/guides/' },
      { kind: 'component', path: '/projects/docs/guides/api/internals/reference/' },
      { kind: 'translation', path: '/projects/docs/guides/manual/cs/' },
      { kind: 'translate', path: '/translate/docs/guides/manual/cs/' },
      { kind: 'language', path: '/languages/uk/' },
      { kind: 'project-language', path: '/projects/docs/-/de/' },
      { kind: 'engage', path: '/engage/docs/-/en/' },
      { kind: 'widgets', path: '/widgets/docs/' },
      { kind: 'rtl-project-language', path: '/projects/app/-/ar/' },
      { kind: 'rtl-translate', path: '/translate/app/android/ar/' },
      { kind: 'not-found', path: '/projects/docs/nope/', status: 404 },
    ],
  },
];

/**
 * Two views, so that each width and each scheme is checked once: what axe checks of the layout,
 * and overflow, follow the width; colour contrast follows the scheme. The pages set colours only
 * by the scheme, never the layout, so the other two pairings (360 px dark, 1280 px light) found
 * nothing these two do not, at twice the cost of a page's visit.
 */
const VIEWS: { width: number; scheme: ColorScheme }[] = [
  { width: 360, scheme: 'light' },
  { width: 1280, scheme: 'dark' },
];

/**
 * Screenshots are for a person to look at, and nothing reads them in CI: they cost about a sixth
 * of the file's time, so they are taken only when asked for.
 */
const SCREENSHOTS_WANTED = process.env.WSNAP_SCREENSHOTS === '1';

if (!chromiumInstalled && !process.env.CI) {
  console.warn(
    `\n*** ${CHROMIUM} is missing: the browser tests are SKIPPED. Install it with apt-get install chromium. ***\n`,
  );
}

it.skipIf(!chromiumInstalled && !process.env.CI)(
  "finds Debian's Chromium (under CI, .ci/run installs the chromium package)",
  () => {
    expect(chromiumInstalled, CHROMIUM).toBe(true);
  },
);

describe.runIf(chromiumInstalled)('the status site in headless Chromium', () => {
  let browser: Browser;
  const tabs: { width: number; scheme: ColorScheme; tab: Tab }[] = [];

  beforeAll(async () => {
    if (SCREENSHOTS_WANTED) {
      rmSync(SCREENSHOTS, { recursive: true, force: true });
      mkdirSync(SCREENSHOTS, { recursive: true });
      console.log(`Screenshots of the browser tests: ${SCREENSHOTS}`);
    }
    browser = await launchChromium();
    for (const view of VIEWS)
      tabs.push({ ...view, tab: await openTab(browser, view.width, view.scheme) });
  });
  afterAll(async () => {
    await browser?.close();
  });

  describe.each(FLAVOURS)('$name (fixture $fixture)', ({ name, fixture, pagesOn, pages }) => {
    const work = tempDir('wsnap-browser-');
    const out = join(work, 'dist');
    let origin: string;
    let preview: Started | undefined;

    beforeAll(async () => {
      const port = await freePort();
      origin = `http://127.0.0.1:${port}`;
      const content = join(work, 'content');
      cpSync(join(FIXTURES, fixture, 'content'), content, { recursive: true });
      if (pagesOn) appendFileSync(join(content, 'site.yaml'), 'pages: true\n');
      const built = await runScript('build', [
        '--content',
        content,
        '--out',
        out,
        '--base-url',
        origin,
      ]);
      expect(built.code, built.stderr).toBe(0);
      preview = await startServer(
        process.execPath,
        [...scriptArgs('serve'), '--out', out, '--port', String(port)],
        `${origin}/api/`,
      );
    });
    afterAll(async () => {
      await preview?.stop();
    });

    it('is served by the preview (npm run serve), pages and images included', async () => {
      const home = await get(`${origin}/`);
      expect([home.status, home.headers.get('content-type')]).toEqual([
        200,
        expect.stringMatching(/^text\/html/),
      ]);
    });

    it.each(pages)(
      '$kind page ($path): no console error, failed request or CSP violation, no overflow, and axe passes, at 360 px light and 1280 px dark',
      async ({ kind, path, status }) => {
        // The views load the page side by side, each in its own tab.
        const found = await Promise.all(
          tabs.map(async ({ width, scheme, tab }) => {
            const problems = await visitPage(tab, origin + path, {
              status,
              screenshot: SCREENSHOTS_WANTED
                ? join(SCREENSHOTS, `${name}-${kind}-${width}-${scheme}.png`)
                : null,
            });
            problems.push(...directionProblems(await breadcrumbLayout(tab.page)));
            return problems.map((problem) => `${width} px, ${scheme}: ${problem}`);
          }),
        );
        expect(found.flat()).toEqual([]);
      },
    );

    it('keeps the text of every badge and chart inside its box, each opened on its own', async () => {
      const files = await fg(['widget/**/*.svg', 'widgets/**/*.svg'], { cwd: out });
      expect(files.length).toBeGreaterThan(20);
      files.sort();
      // A screenshot of the first image of each kind: badges, multi and horizontal chart, matrix.
      const kindOf = (file: string) =>
        /(svg-badge|language-badge|multi|horizontal|matrix)[^/]*$/.exec(file)![1]!;
      const shot = new Map<string, string>();
      for (const file of files) if (!shot.has(kindOf(file))) shot.set(kindOf(file), file);
      // The tabs share the images out between them, each tab loading its share at once.
      const screenshots = new Map(
        SCREENSHOTS_WANTED
          ? [...shot].map(([kind, file]) => [
              `${origin}/${file}`,
              join(SCREENSHOTS, `${name}-image-${kind}.png`),
            ])
          : [],
      );
      const found = await Promise.all(
        tabs.map(({ tab }, t) =>
          svgFramesProblems(
            tab,
            files.filter((_, i) => i % tabs.length === t).map((file) => `${origin}/${file}`),
            screenshots,
          ),
        ),
      );
      expect(found.flat()).toEqual([]);
    });
  });
});

// --- internal ---

/**
 * The page's direction as set and as laid out, left to right as its English
 * interface, and its breadcrumb running that way: the first item at the start
 * edge, each next one after the previous on its line, or at the start of a new line.
 */
function directionProblems(layout: {
  dir: string;
  direction: string;
  items: Box[];
  header: Box;
}): string[] {
  const problems: string[] = [];
  if (layout.dir !== '') problems.push(`dir="${layout.dir}" on <html>, expected none`);
  if (layout.direction !== 'ltr') problems.push(`laid out ${layout.direction}, expected ltr`);
  layout.items.forEach((box, i) => {
    const previous = layout.items[i - 1];
    const sameLine = previous !== undefined && Math.abs(previous.top - box.top) < 1;
    if (!sameLine && Math.abs(box.left - layout.header.left) > 1)
      problems.push(`breadcrumb item ${i + 1} is not at the left start of its line`);
    if (sameLine && box.left < previous.right - 0.5)
      problems.push(`breadcrumb item ${i + 1} does not follow item ${i} left to right`);
  });
  return problems;
}
