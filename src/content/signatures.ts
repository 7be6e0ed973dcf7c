/**
 * What vouches for a content file without reading it again: its size and
 * modification time as listed before it was read, and a hash of the text
 * that was checked. A later look that finds the same size and time trusts
 * the file; one that finds others reads it and compares the hash.
 */
import { createHash } from 'node:crypto';

export interface FileSignature {
  size: number;
  /** Modification time in milliseconds (with the file system's fraction). */
  mtimeMs: number;
  /** SHA-256 of the text, base64, cut to 22 characters (128 bits). */
  hash: string;
}

/** The same hash of bytes (an extra file, which need not be text). */
export function hashBytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('base64').slice(0, 22);
}

export function hashText(text: string): string {
  return createHash('sha256').update(text).digest('base64').slice(0, 22);
}
