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
