/**
 * The Open Graph and Twitter card tags chat apps and social sites read to
 * preview a link: the page's title and URL, and for a page of a project its
 * `open-graph.png`. They go into the head the frame (html.ts) writes, so
 * that every page has them whoever renders its body. Pure: HTML text in, its parts out.
 */
import { escapeHtml } from './html.ts';

/** What a page's preview shows: its absolute URL, and the absolute URL of its image (a project's panel), if any. */
interface SharePreview {
  url: string;
  image: string | null;
}

/**
 * The page with the preview tags at the end of its head; its title is the one `<title>` holds.
 * In three parts: joined, the page (some 10 KB) would be copied whole once more for each file.
 */
export function withShareMeta(html: string, preview: SharePreview): [string, string, string] {
  const end = html.indexOf('</head>');
  const title = titleOf(html, end);
  if (end < 0 || title === null) throw new Error('Internal error: a page without a head');
  const tags = [
    `<meta property="og:type" content="website">`,
    `<meta property="og:title" content="${title}">`,
    `<meta property="og:url" content="${escapeHtml(preview.url)}">`,
    ...(preview.image === null
      ? [`<meta name="twitter:card" content="summary">`]
      : [
          `<meta property="og:image" content="${escapeHtml(preview.image)}">`,
          `<meta property="og:image:width" content="1200">`,
          `<meta property="og:image:height" content="630">`,
          `<meta name="twitter:card" content="summary_large_image">`,
        ]),
  ];
  return [html.slice(0, end), `${tags.join('\n')}\n`, html.slice(end)];
}

/** The text of the head's `<title>`, found by position: no pattern is run for each page. */
function titleOf(html: string, headEnd: number): string | null {
  const start = html.indexOf('<title>');
  if (start < 0 || start > headEnd) return null;
  const end = html.indexOf('<', start + 7);
  return end >= 0 && html.startsWith('</title>', end) ? html.slice(start + 7, end) : null;
}
