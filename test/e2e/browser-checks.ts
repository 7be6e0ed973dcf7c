/**
 * What the browser tests check in a page and in an image, with Debian's
 * Chromium driven by playwright-core (which never downloads a browser). Each
 * check returns its problems as lines of text, so a failing test lists them
 * all at once: console errors, requests that failed or left the site,
 * horizontal overflow, images that did not load, English text laid out
 * right to left, a missing or violated Content-Security-Policy, axe-core's
 * violations, and text of a badge or chart outside
 * its box. The functions given to
 * `page.evaluate` run inside Chromium: they reach the page through
 * `globalThis` (the project's TypeScript has no DOM types) and name no
 * helper outside themselves.
 */
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { chromium, type Browser, type Page, type Response } from 'playwright-core';
import { PAGE_POLICY } from '../../src/hosts/published.ts';

/** Debian's package (`apt-get install chromium`, as .ci/run does). */
export const CHROMIUM = '/usr/bin/chromium';
export const chromiumInstalled = existsSync(CHROMIUM);

const AXE_SCRIPT = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/**
 * Starts headless Chromium on a fresh profile (playwright-core makes a
 * temporary one for each launch and removes it on close). Background
 * networking, component updates and sync stay off: the test network is
 * closed, and nothing but the site under test may be asked for.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // No limit of its own: on a busy disk a launch can take long, and the test's timeout decides.
    timeout: 0,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export type ColorScheme = 'light' | 'dark';

/**
 * One tab of its own browsing context (a viewport width and a color scheme),
 * kept open from page to page: what goes wrong while it loads a page is
 * gathered into `problems`, which each visit starts afresh.
 */
export interface Tab {
  page: Page;
  /** The origin a visit may ask; anything else is a problem. */
  origin: string;
  problems: string[];
  /** The page being visited and the status it should answer (a 404 page's is no problem). */
  visiting?: { url: string; status: number };
}

export async function openTab(browser: Browser, width: number, scheme: ColorScheme): Promise<Tab> {
  const context = await browser.newContext({
    viewport: { width, height: 800 },
    colorScheme: scheme,
    reducedMotion: 'reduce',
  });
  // Loads, screenshots and checks wait as long as they need; the test's timeout is the bound.
  context.setDefaultTimeout(0);
  // Every violation of the page's Content-Security-Policy, as the document reports it.
  await context.addInitScript(() => {
    const g = globalThis as any;
    g.cspViolations = [];
    g.document.addEventListener('securitypolicyviolation', (event: any) =>
      g.cspViolations.push(`${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`),
    );
  });
  const tab: Tab = { page: await context.newPage(), origin: '', problems: [] };
  watchRequests(tab);
  return tab;
}

/**
 * Opens `url` in the tab and checks it as a reader's browser loads it: a 200
 * (or `status`) HTML answer, no console error or uncaught exception, every request to the
 * page's origin and answered below 400, the stylesheet and every image
 * loaded, nothing wider than the viewport, English text reading left to right,
 * served with the pages' Content-Security-Policy and no violation of it
 * reported, and axe-core's default rules met. When `screenshot` names a file, writes a
 * full-page screenshot there. The page stays open for more checks.
 */
export async function visitPage(
  tab: Tab,
  url: string,
  { status = 200, screenshot }: { status?: number; screenshot: string | null },
): Promise<string[]> {
  tab.origin = new URL(url).origin;
  tab.problems = [];
  tab.visiting = { url, status };
  const response = await tab.page.goto(url, { waitUntil: 'load' });
  const problems = tab.problems;
  if (response?.status() !== status) problems.push(`answered ${response?.status()} for the page`);
  if (!response?.headers()['content-type']?.startsWith('text/html')) {
    problems.push(`Content-Type ${response?.headers()['content-type']} for the page`);
  }
  if (response?.headers()['content-security-policy'] !== PAGE_POLICY)
    problems.push(`Content-Security-Policy ${response?.headers()['content-security-policy']}`);
  problems.push(...(await tab.page.evaluate(pageProblems)));
  const violations: string[] = await tab.page.evaluate(() => (globalThis as any).cspViolations);
  problems.push(...violations.map((violation) => `CSP violation: ${violation}`));
  problems.push(...(await axeViolations(tab.page)));
  if (screenshot) await tab.page.screenshot({ path: screenshot, fullPage: true });
  return problems;
}

/** Numbers the pages of frames, so that no two share an address. */
let framesPages = 0;

/**
 * Opens each SVG of the site on its own, as a document of its own in a frame of one page, and
 * checks that it answers 200 as image/svg+xml; that every text lies inside the image; in a badge,
 * also inside the colored box under it; and that each text held to a `textLength` is about as
 * long when Chromium sets it unforced in DejaVu Sans (so the width computed for the font is
 * right, not merely enforced). The tab loads them all at once, rather than a page each. Each
 * problem names the image's URL; `screenshots` gives, for some of them, a path to write an image
 * of it to.
 */
export async function svgFramesProblems(
  tab: Tab,
  urls: readonly string[],
  screenshots: ReadonlyMap<string, string> = new Map(),
): Promise<string[]> {
  if (urls.length === 0) return [];
  tab.origin = new URL(urls[0]!).origin;
  tab.problems = [];
  tab.visiting = undefined;
  const responses = new Map<string, Response>();
  const answered = (response: Response) => {
    if (urls.includes(response.url())) responses.set(response.url(), response);
  };
  // The frames' page is the test's own, at the site's origin (a page of another origin may not
  // ask a loopback address), with no policy of the site's to refuse frames.
  const host = `${tab.origin}/.svg-frames-${++framesPages}.html`;
  await tab.page.route(host, (route) =>
    route.fulfill({
      contentType: 'text/html; charset=utf-8',
      body: urls
        .map((url) => `<iframe src="${url}" style="display:block;border:0;width:100%"></iframe>`)
        .join(''),
    }),
  );
  tab.page.on('response', answered);
  try {
    // Each frame loads before the page's load event.
    await tab.page.goto(host, { waitUntil: 'load' });
  } finally {
    tab.page.off('response', answered);
    await tab.page.unroute(host);
  }
  const problems = tab.problems.map((problem) => `while loading the images: ${problem}`);
  // The frames are checked side by side; the screenshots are taken after, one at a time.
  const checked = await Promise.all(
    urls.map(async (url) => {
      const frame = tab.page.frames().find((candidate) => candidate.url() === url);
      return {
        url,
        frame,
        box: await frame?.evaluate(textOutsideBox, url.endsWith('/svg-badge.svg')),
      };
    }),
  );
  for (const { url, frame, box } of checked) {
    const found: string[] = [];
    const response = responses.get(url);
    if (response?.status() !== 200) found.push(`answered ${response?.status()}`);
    // As Weblate sends them, and as the Content-Type table gives them (hosts/published.ts).
    if (response?.headers()['content-type'] !== 'image/svg+xml; charset=utf-8')
      found.push(`Content-Type ${response?.headers()['content-type']}`);
    if (!frame || !box) found.push('no frame of its own');
    else {
      found.push(...box.found);
      const screenshot = screenshots.get(url);
      if (screenshot) {
        const element = await frame.frameElement();
        await element.evaluate(
          (iframe: any, [width, height]: number[]) => {
            iframe.style.width = `${width}px`;
            iframe.style.height = `${height}px`;
          },
          [box.width, box.height],
        );
        await element.screenshot({ path: screenshot });
      }
    }
    problems.push(...found.map((problem) => `${url}: ${problem}`));
  }
  return problems;
}

/** The boxes of the breadcrumb's items as laid out (viewport pixels), and the direction of the page. */
export async function breadcrumbLayout(
  page: Page,
): Promise<{ dir: string; direction: string; items: Box[]; header: Box }> {
  return page.evaluate(() => {
    const doc = (globalThis as any).document;
    const boxOf = (element: any) => {
      const r = element.getBoundingClientRect();
      return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    };
    return {
      dir: doc.documentElement.getAttribute('dir') ?? '',
      direction: (globalThis as any).getComputedStyle(doc.body).direction,
      items: [...doc.querySelectorAll('header nav li')].map(boxOf),
      header: doc.querySelector('header nav ol')
        ? boxOf(doc.querySelector('header nav ol'))
        : { left: 0, right: 0, top: 0, bottom: 0 },
    };
  });
}

export interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

// --- internal ---

/** Records, into the tab's current list, what goes wrong with its requests and scripts. */
function watchRequests(tab: Tab): void {
  const { page } = tab;
  // The page's own expected status is no problem, nor the error Chromium logs for it.
  const expected = (url: string, status: number) =>
    tab.visiting?.url === url && tab.visiting.status === status;
  page.on('console', (message) => {
    const own = /status of (\d+)/.exec(message.text());
    if (own && expected(message.location().url, Number(own[1]))) return;
    if (message.type() === 'error')
      tab.problems.push(`console error: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => tab.problems.push(`uncaught exception: ${error.message}`));
  page.on('request', (request) => {
    if (new URL(request.url()).origin !== tab.origin)
      tab.problems.push(`request outside the site: ${request.url()}`);
  });
  page.on('requestfailed', (request) =>
    tab.problems.push(`request failed: ${request.url()} (${request.failure()?.errorText})`),
  );
  page.on('response', (response) => {
    if (response.status() >= 400 && !expected(response.url(), response.status()))
      tab.problems.push(`answered ${response.status()}: ${response.url()}`);
  });
}

/** Runs in the page: overflow, stylesheets, images. */
function pageProblems(): string[] {
  const doc = (globalThis as any).document;
  const problems: string[] = [];
  const root = doc.documentElement;
  if (root.scrollWidth > root.clientWidth) {
    const wide = [...doc.querySelectorAll('body *')]
      .filter((element: any) => element.getBoundingClientRect().right > root.clientWidth + 0.5)
      .slice(0, 3)
      .map((element: any) => `<${element.localName} class="${element.className}">`);
    problems.push(
      `overflows horizontally: scrollWidth ${root.scrollWidth} > clientWidth ${root.clientWidth} (${wide.join(', ')})`,
    );
  }
  for (const link of doc.querySelectorAll('link[rel=stylesheet]')) {
    if (!link.sheet || link.sheet.cssRules.length === 0)
      problems.push(`stylesheet not applied: ${link.href}`);
  }
  for (const image of doc.images) {
    if (!image.complete || image.naturalWidth === 0) problems.push(`image not shown: ${image.src}`);
  }
  // A text without right-to-left letters ends to the right of where it starts (when both ends share a line).
  const walker = doc.createTreeWalker(doc.body, 4 /* NodeFilter.SHOW_TEXT */);
  const range = doc.createRange();
  const charBox = (node: any, at: number) => {
    range.setStart(node, at);
    range.setEnd(node, at + 1);
    return range.getBoundingClientRect();
  };
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text: string = node.data;
    const first = text.search(/\S/);
    const last = text.trimEnd().length - 1;
    if (first < 0 || last <= first || /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/.test(text))
      continue;
    const [start, end] = [charBox(node, first), charBox(node, last)];
    if (Math.abs(start.top - end.top) < 1 && start.left > end.left)
      problems.push(`"${text.trim()}" reads right to left`);
  }
  return problems;
}

/**
 * axe-core run with its default rules; one line per violation and element. It is evaluated
 * through the debugging protocol, which the page's Content-Security-Policy does not govern: a
 * script tag would be refused (and reported) as the policy means, and the policy stays in force.
 */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(readFileSync(AXE_SCRIPT, 'utf8'));
  const violations = await page.evaluate(async () => {
    const result = await (globalThis as any).axe.run((globalThis as any).document);
    return result.violations.map((violation: any) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.map(
        (node: any) => `${node.target.join(' ')}: ${node.failureSummary.replace(/\s+/g, ' ')}`,
      ),
    }));
  });
  return violations.flatMap((v: { id: string; impact: string; help: string; nodes: string[] }) =>
    v.nodes.map((node) => `axe ${v.id} (${v.impact}): ${v.help} — ${node}`),
  );
}

/** Runs in an SVG document: each text's box (its getBBox through its transform) against the image and, in a badge, its rect. */
function textOutsideBox(badge: boolean): { found: string[]; width: number; height: number } {
  const svg = (globalThis as any).document.documentElement;
  const width = Number(svg.getAttribute('width'));
  const height = Number(svg.getAttribute('height'));
  const boxInImage = (element: any) => {
    const b = element.getBBox();
    const m = element.getCTM();
    const xs: number[] = [];
    const ys: number[] = [];
    for (const [x, y] of [
      [b.x, b.y],
      [b.x + b.width, b.y],
      [b.x, b.y + b.height],
      [b.x + b.width, b.y + b.height],
    ] as [number, number][]) {
      xs.push(m.a * x + m.c * y + m.e);
      ys.push(m.b * x + m.d * y + m.f);
    }
    return {
      left: Math.min(...xs),
      right: Math.max(...xs),
      top: Math.min(...ys),
      bottom: Math.max(...ys),
    };
  };
  const inside = (inner: Box, outer: Box) =>
    inner.left >= outer.left - 0.5 &&
    inner.right <= outer.right + 0.5 &&
    inner.top >= outer.top - 0.5 &&
    inner.bottom <= outer.bottom + 0.5;
  const show = (b: Box) =>
    `[${b.left.toFixed(1)}, ${b.right.toFixed(1)}] × [${b.top.toFixed(1)}, ${b.bottom.toFixed(1)}]`;
  const image = { left: 0, right: width, top: 0, bottom: height };
  const colored = badge
    ? [...svg.querySelectorAll('g[clip-path] > rect[fill]')]
        .filter((rect: any) => !rect.getAttribute('fill').startsWith('url('))
        .map(boxInImage)
    : [];
  const problems: string[] = [];
  for (const text of svg.querySelectorAll('text')) {
    const box = boxInImage(text);
    const name = `"${text.textContent}"`;
    if (!inside(box, image))
      problems.push(`${name} at ${show(box)} leaves the image ${show(image)}`);
    if (badge) {
      const middle = (box.left + box.right) / 2;
      const under = colored.find((rect: Box) => rect.left <= middle && middle <= rect.right);
      if (!under || !inside(box, under))
        problems.push(`${name} at ${show(box)} leaves its box ${under ? show(under) : '(none)'}`);
    }
    const declared = text.getAttribute('textLength');
    if (declared !== null) {
      const free = text.cloneNode(true);
      free.removeAttribute('textLength');
      free.removeAttribute('lengthAdjust');
      text.parentNode.append(free);
      const natural = free.getComputedTextLength();
      free.remove();
      if (Math.abs(natural - Number(declared)) > Math.max(1, Number(declared) * 0.03)) {
        problems.push(`${name} is ${natural.toFixed(1)} px wide set freely, held to ${declared}`);
      }
    }
  }
  return { found: problems, width, height };
}
