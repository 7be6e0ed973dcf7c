/**
 * Ids that stay put: an object without an explicit id gets one derived from
 * its kind and slug path, so adding, removing or renaming other objects never
 * moves it. Derived ids are below 2^53 (exact in JavaScript and in every JSON
 * parser that reads 64-bit integers).
 */
import { hash } from 'node:crypto';

type IdKind = 'project' | 'category' | 'component' | 'translation' | 'plural' | 'language';

/** The derived id of `key` (`demo`, `demo/android`, `demo/android/cs`) for a kind. */
export function derivedId(kind: IdKind, key: string): number {
  const digest = hash('sha256', `${kind}:${key}`, 'buffer');
  // 53 bits: 5 bytes and 5 bits of the sixth.
  const high = digest.readUIntBE(0, 3) & 0x1fffff; // 21 bits
  const low = digest.readUInt32BE(3); // 32 bits
  return high * 2 ** 32 + low || 1;
}
