/**
 * The frame every status page shares (head, breadcrumb, main landmark,
 * footer with the API link) and the pieces pages are made of: progress bars,
 * tables, numbers and times. Pure: values in, HTML text out; every text from
 * the content goes through escapeHtml.
 */
import { percent, type Counters } from '../model/statistics.ts';
import { formatTimestamp, type Timestamp } from '../model/timestamps.ts';

/** Text safe inside HTML and SVG content and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return /[&<>"']/.test(text) ? text.replace(/[&<>"']/g, (c) => ESCAPES[c]!) : text;
}

export interface Crumb {
  name: string;
  /** Root-relative URL; the last crumb (the page itself) has none. */
  href?: string | undefined;
}

export interface PageFrame {
  /** The instance's name: the whole title of its home page, the end of every other page's. */
  site: string;
  /** The page's subject, first in the title. */
  title: string;
  /** Root-relative URL of the stylesheet. */
  stylesheet: string;
  crumbs: readonly Crumb[];
  /** Root-relative URL of the same object in the API, and what it is called there. */
  api: { href: string; label: string };
  /** The inside of <main>, after its heading. */
  body: string;
}

/** A whole page: doctype, head, header with the breadcrumb, main, footer. */
export function renderPage(frame: PageFrame): string {
  const crumbs = frame.crumbs
    .map((crumb) =>
      crumb.href === undefined
        ? `<li aria-current="page">${escapeHtml(crumb.name)}</li>`
        : `<li><a href="${crumb.href}">${escapeHtml(crumb.name)}</a></li>`,
    )
    .join('');
  const title = frame.title === frame.site ? frame.site : `${frame.title} · ${frame.site}`;
  return (
    // The interface is English, laid out left to right on every page, a right-to-left language's too.
    `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">\n<meta name="color-scheme" content="light dark">\n` +
    `<title>${escapeHtml(title)}</title>\n<link rel="stylesheet" href="${frame.stylesheet}">\n` +
    // No icon: without this line every browser asks for /favicon.ico and logs the 404.
    `<link rel="icon" href="data:,">\n</head>\n<body>\n` +
    `<a class="skip" href="#main">Skip to the content</a>\n` +
    `<header><nav aria-label="Breadcrumb"><ol>${crumbs}</ol></nav></header>\n` +
    `<main id="main">\n<h1>${escapeHtml(frame.title)}</h1>\n${frame.body}</main>\n` +
    `<footer><p>A read-only copy of the translation status, served as static files. ` +
    `<a href="${frame.api.href}">${escapeHtml(frame.api.label)} in the API</a></p></footer>\n</body>\n</html>\n`
  );
}

/** A summary of counters: the bar and the figures as a description list. */
export function summary(counters: Counters, review: boolean, lastAuthor?: string | null): string {
  const shares = sharesOf(counters, review);
  const rows: [string, string][] = [
    [
      'Translated',
      `${formatPercent(shares.translated)} (${formatNumber(counters.translated)} of ${strings(counters.total)})`,
    ],
    [
      'Translated words',
      `${formatPercent(shares.words)} (${formatNumber(counters.translated_words)} of ${formatNumber(counters.total_words)})`,
    ],
    ['Needing editing', `${strings(counters.fuzzy)} (${formatPercent(shares.fuzzy)})`],
    ['Failing checks', `${strings(counters.failing_checks)} (${formatPercent(shares.failing)})`],
    ['Approved', formatNumber(counters.approved)],
    ['Suggestions', formatNumber(counters.have_suggestion)],
    ['Comments', formatNumber(counters.have_comment)],
    ['Last change', formatTime(counters.last_change)],
  ];
  if (lastAuthor !== undefined)
    rows.push(['Last author', lastAuthor === null ? '—' : escapeHtml(lastAuthor)]);
  const list = rows.map(([term, value]) => `<div><dt>${term}</dt><dd>${value}</dd></div>`).join('');
  return `<section aria-labelledby="summary"><h2 id="summary">Status</h2>${progressBar(shares)}${LEGEND}<dl class="figures">${list}</dl></section>\n`;
}

/** Facts as a description list, in the figures' style: each a term and its HTML. */
export function factList(facts: readonly (readonly [string, string])[]): string {
  const list = facts
    .map(([term, value]) => `<div><dt>${term}</dt><dd>${value}</dd></div>`)
    .join('');
  return `<dl class="figures">${list}</dl>`;
}

/**
 * Text from the content as Weblate shows a project's instructions: plain text
 * in paragraphs, its http(s) URLs made links. Markup in it is shown as text,
 * never run.
 */
export function textWithLinks(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .trim()
    .split(/\n[ \t]*\n\s*/)
    .map((paragraph) => `<p>${withLinks(paragraph).replace(/\n/g, '<br>\n')}</p>`)
    .join('\n');
}

/** One row of a status table: the object's name and link, its counters, and what else the table shows. */
export interface StatusRow {
  name: string;
  href: string;
  counters: Counters;
  review: boolean;
  lastAuthor?: string | null | undefined;
}

/**
 * A table of objects with their progress, in the order given. The box that
 * scrolls it on a narrow screen is the region named by the heading (and
 * focusable, so a keyboard can scroll it), not the section around both.
 */
export function statusTable(
  id: string,
  caption: string,
  rows: readonly StatusRow[],
  withAuthor = false,
): string {
  if (rows.length === 0)
    return `<section aria-labelledby="${id}"><h2 id="${id}">${caption}</h2><p>None yet.</p></section>\n`;
  const head =
    '<tr><th scope="col">Name</th><th scope="col">Translated</th><th scope="col">Strings</th><th scope="col">Needing editing</th>' +
    `<th scope="col">Failing checks</th><th scope="col">Words</th><th scope="col">Last change</th>${withAuthor ? '<th scope="col">Last author</th>' : ''}</tr>`;
  const body = rows.map((row) => statusRow(row, withAuthor)).join('\n');
  return (
    `<section><h2 id="${id}">${caption}</h2>\n<section class="scroll" tabindex="0" aria-labelledby="${id}">` +
    `<table>\n<thead>${head}</thead>\n<tbody>\n${body}\n</tbody>\n</table></section></section>\n`
  );
}

// --- internal ---

/** The shares a page shows of a set of counters, computed as the API computes them. */
interface Shares {
  translated: number;
  fuzzy: number;
  failing: number;
  words: number;
}

function sharesOf(counters: Counters, review: boolean): Shares {
  return {
    translated: percent(counters.translated, counters.total, !review),
    fuzzy: percent(counters.fuzzy, counters.total, false),
    failing: percent(counters.failing_checks, counters.total, false),
    words: percent(counters.translated_words, counters.total_words, !review),
  };
}

/**
 * A stacked bar of translated strings (failing checks apart) and strings
 * needing editing, labelled for screen readers. An SVG drawn in a 100-wide
 * box: its parts' lengths are attributes, so no style attribute is needed and
 * a strict Content-Security-Policy holds; the stylesheet colors them.
 */
function progressBar(shares: Shares): string {
  const failing = Math.min(shares.failing, shares.translated);
  const good = round(shares.translated - failing);
  const label = `${formatPercent(shares.translated)} translated, ${formatPercent(shares.fuzzy)} needing editing, ${formatPercent(shares.failing)} failing checks`;
  const part = (name: string, x: number, width: number) =>
    `<rect class="${name}" x="${round(x)}" width="${width}" height="1"/>`;
  return (
    `<svg class="bar" role="img" aria-label="${label}" viewBox="0 0 100 1" preserveAspectRatio="none">` +
    part('good', 0, good) +
    part('failing', good, failing) +
    part('fuzzy', good + failing, shares.fuzzy) +
    `</svg>`
  );
}

/** What the bar's colors stand for, once under a summary's bar. */
const LEGEND =
  '<ul class="legend">' +
  '<li><span class="swatch good"></span>Translated</li>' +
  '<li><span class="swatch failing"></span>Translated, failing checks</li>' +
  '<li><span class="swatch fuzzy"></span>Needing editing</li>' +
  '<li><span class="swatch empty"></span>Not translated</li></ul>';

/** A number with thousands separated by commas, the same on every machine. */
export function formatNumber(value: number): string {
  // Most figures on a page are under a thousand: no separator, and no regular expression run.
  if (Number.isInteger(value) && value < 1000 && value > -1000) return String(value);
  if (!Number.isSafeInteger(value)) return String(value).replace(/\B(?=(\d{3})+$)/g, ',');
  // The other counts: commas put in by position (the pattern's lookahead rescanned every digit).
  const digits = String(Math.abs(value));
  const head = digits.length % 3 || 3;
  let text = (value < 0 ? '-' : '') + digits.slice(0, head);
  for (let i = head; i < digits.length; i += 3) text += ',' + digits.slice(i, i + 3);
  return text;
}

/** `1 string`, `1,200 strings`. */
function strings(count: number): string {
  return `${formatNumber(count)} ${count === 1 ? 'string' : 'strings'}`;
}

function formatPercent(value: number): string {
  // A share in tenths is written from its digits: a fraction's String() takes V8's slow path.
  const tenths = Math.round(value * 10);
  if (tenths / 10 !== value || tenths < 0 || tenths > 1000) return `${value}%`;
  const whole = Math.trunc(tenths / 10);
  return tenths % 10 === 0 ? `${whole}%` : `${whole}.${tenths % 10}%`;
}

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escaped text with its http(s) URLs as links; punctuation closing a sentence stays out of the link. */
function withLinks(text: string): string {
  let html = '';
  let done = 0;
  for (const match of text.matchAll(URL_IN_TEXT)) {
    const url = match[0].replace(/[.,;:!?)\]]+$/, '');
    html += escapeHtml(text.slice(done, match.index));
    html += `<a href="${escapeHtml(url)}" rel="nofollow ugc">${escapeHtml(url)}</a>`;
    done = match.index + url.length;
  }
  return html + escapeHtml(text.slice(done));
}

const URL_IN_TEXT = /https?:\/\/[^\s<>"']+/g;

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

/** A last change as the API writes it (`2024-05-02T10:20:05.499000Z`), shown to the minute, machine-readable in `datetime`. */
function formatTime(last: Timestamp | null): string {
  if (last === null) return '—';
  const timestamp = formatTimestamp(last);
  return `<time datetime="${timestamp}">${timestamp.slice(0, 10)} ${timestamp.slice(11, 16)} UTC</time>`;
}

function statusRow(row: StatusRow, withAuthor: boolean): string {
  const shares = sharesOf(row.counters, row.review);
  const { counters } = row;
  const author = withAuthor ? `<td>${row.lastAuthor ? escapeHtml(row.lastAuthor) : '—'}</td>` : '';
  return (
    `<tr><th scope="row"><a href="${row.href}">${escapeHtml(row.name)}</a></th>` +
    `<td class="share">${progressBar(shares)}<span>${formatPercent(shares.translated)}</span></td>` +
    `<td>${formatNumber(counters.translated)} / ${formatNumber(counters.total)}</td>` +
    `<td>${formatNumber(counters.fuzzy)}</td><td>${formatNumber(counters.failing_checks)}</td>` +
    `<td>${formatPercent(shares.words)}</td>` +
    `<td>${formatTime(counters.last_change)}</td>${author}</tr>`
  );
}
