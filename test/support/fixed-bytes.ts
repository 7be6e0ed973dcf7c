/**
 * Bytes and lines that look random but are the same on every run, so a test
 * whose result depends on where the state's content-defined cuts fall fails
 * every time or never (random bytes made such tests fail one run in twenty).
 */
import { createCipheriv, createHash } from 'node:crypto';

/** `size` bytes of an AES-256-CTR keystream keyed by `seed`. */
export function fixedRandomBytes(size: number, seed: string): Buffer {
  const key = createHash('sha256').update(seed).digest();
  return createCipheriv('aes-256-ctr', key, Buffer.alloc(16)).update(Buffer.alloc(size));
}

/** The MD5 of `seed` and `n`, in base64: a record line's random-looking checksum. */
export function fixedChecksum(seed: string, n: number): string {
  return createHash('md5').update(`${seed} ${n}`).digest('base64');
}
