/**
 * Texts copied out of what they came in: a parser's slices and concatenations
 * that would otherwise keep more memory alive than their characters take.
 */

/**
 * A copy of a text as one flat string of its own, in as little memory as the
 * text takes. A slice of a longer string (what a parser returns) keeps the
 * whole of it alive, and V8 holds a slice or a concatenation of 13 characters
 * or more as a view or a tree of parts: some 40 bytes more for each revision
 * and time of change of a million translations. A JSON round trip is exact
 * for every string and makes a flat one.
 */
export function ownCopy<T extends string | null | undefined>(text: T): T {
  return (typeof text === 'string' ? JSON.parse(JSON.stringify(text)) : text) as T;
}

/**
 * The texts of `joined` between separators, each a flat string of its own, as ownCopy() makes
 * them. When every text is ASCII (revisions, times of change) each is read from one byte copy of
 * the whole, which makes a new flat string without a JSON round trip per text.
 */
export function splitOwnCopies(joined: string, separator: string): string[] {
  const code = separator.charCodeAt(0);
  const ascii = Buffer.byteLength(joined, 'utf8') === joined.length;
  if (separator.length !== 1 || code > 0x7f || !ascii) return joined.split(separator).map(ownCopy);
  const bytes = Buffer.from(joined, 'latin1');
  const texts: string[] = [];
  let start = 0;
  for (let end = bytes.indexOf(code); end >= 0; end = bytes.indexOf(code, start)) {
    texts.push(bytes.toString('latin1', start, end));
    start = end + 1;
  }
  texts.push(bytes.toString('latin1', start));
  return texts;
}
