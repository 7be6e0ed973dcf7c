/**
 * The preview's links: a tree is built for the address it will be published
 * at, and the preview answers as if it lived at its own address instead,
 * rewriting the base URL (and, when the tree holds the status site, the web
 * URL) in the text it answers. The files stay as built, so a preview never
 * changes what gets published.
 */

export interface LinkRewrite {
  /** The URLs the tree's links start with (no trailing slash). */
  from: readonly string[];
  /** What they read as in the preview's answers: its origin and the base URL's path. */
  to: string;
  /** Every `from` at a URL boundary, longest first. */
  pattern: RegExp;
}

/** The rewrite that moves a tree's links to `origin`, or null when they already lead there. */
export function previewRewrite(
  site: { baseUrl: string; webUrl: string; pages: boolean },
  origin: string,
): LinkRewrite | null {
  const to = origin + new URL(site.baseUrl).pathname.replace(/\/+$/, '');
  // Without the status site the web links lead to a Weblate elsewhere, which the preview does not hold.
  const urls = site.pages ? [site.baseUrl, site.webUrl] : [site.baseUrl];
  const from = [...new Set(urls)].filter((url) => url !== to);
  if (from.length === 0) return null;
  const alternatives = [...from].sort((a, b) => b.length - a.length).map(escapeRegExp);
  // A URL ends where a path, query, fragment or the text around it starts: `https://a.org` is not a prefix of `https://a.org.evil` or `https://a.org:8443`.
  const pattern = new RegExp(`(?:${alternatives.join('|')})(?=[/?#"'<>\\s,;)\\]&\\\\]|$)`, 'g');
  return { from, to, pattern };
}

/** The text with every link of the tree moved to the preview's address. */
export function rewriteLinks(text: string, rewrite: LinkRewrite): string {
  return text.replace(rewrite.pattern, rewrite.to);
}

/** Whether an answer of this Content-Type is text that may hold links (JSON, HTML, SVG, CSV, plain text). */
export function mayHoldLinks(contentType: string | undefined): boolean {
  return contentType !== undefined && /json|html|svg|csv|text\/|xml/i.test(contentType);
}

// --- internal ---

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
