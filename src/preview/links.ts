/**
 * The preview's links: a tree is built for the address it will be published
 * at, and the preview answers as if it lived at its own address instead,
 * rewriting the base URL in the text it answers. Web links that lead
 * elsewhere (another Weblate) lead there once published too, so they stay.
 * The files stay as built, so a preview never changes what gets published.
 */

export interface LinkRewrite {
  /** The base URL the tree's links start with (no trailing slash). */
  from: string;
  /** What it reads as in the preview's answers: its origin and the base URL's path. */
  to: string;
  /** `from` at a URL boundary. */
  pattern: RegExp;
}

/** The rewrite that moves a tree's links to `origin`, or null when they already lead there. */
export function previewRewrite(baseUrl: string, origin: string): LinkRewrite | null {
  const to = origin + new URL(baseUrl).pathname.replace(/\/+$/, '');
  if (baseUrl === to) return null;
  // A URL ends where a path, query, fragment or the text around it starts: `https://a.org` is not a prefix of `https://a.org.evil` or `https://a.org:8443`.
  const pattern = new RegExp(`${escapeRegExp(baseUrl)}(?=[/?#"'<>\\s,;)\\]&\\\\]|$)`, 'g');
  return { from: baseUrl, to, pattern };
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
