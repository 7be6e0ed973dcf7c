/**
 * Fingerprints: 53-bit numbers that change whenever what they digest changes.
 * A file group's fingerprint digests every input of its bytes, so a rebuild
 * can skip a group whose fingerprint is unchanged without rendering it.
 * Not cryptographic; two lanes of 32-bit multiply-xor mixing.
 */

export class Hasher {
  private h1 = 0xdeadbeef;
  private h2 = 0x41c6ce57;

  /** Adds a string (its length too, so "ab","c" differs from "a","bc"). */
  text(value: string): this {
    let h1 = this.h1;
    let h2 = this.h2;
    for (let i = 0; i < value.length; i++) {
      const c = value.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
    this.h1 = h1;
    this.h2 = h2;
    return this.number(value.length);
  }

  /** Adds a number (integers and fingerprints exactly; any other number by its text). */
  number(value: number): this {
    if (Number.isSafeInteger(value)) {
      const low = value >>> 0;
      const high = Math.floor(value / 4294967296) >>> 0;
      this.h1 = Math.imul(this.h1 ^ low, 2246822507) ^ Math.imul(high, 3266489909);
      this.h2 = Math.imul(this.h2 ^ high, 3266489909) ^ Math.imul(low, 2246822507);
      return this;
    }
    return this.text(String(value));
  }

  /** Adds a boolean, null or undefined as a distinct small number. */
  flag(value: boolean | null | undefined): this {
    return this.number(value === true ? 1 : value === false ? 2 : value === null ? 3 : 4);
  }

  /**
   * Adds a JSON-like value (strings, numbers, booleans, null, arrays and plain
   * objects, keys in their order), each part tagged with its type and length.
   */
  value(value: unknown): this {
    if (typeof value === 'string') return this.number(1).text(value);
    if (typeof value === 'number') return this.number(2).number(value);
    if (value === null || value === undefined || typeof value === 'boolean')
      return this.flag(value);
    if (Array.isArray(value)) {
      this.number(3).number(value.length);
      for (const item of value) this.value(item);
      return this;
    }
    const keys = Object.keys(value);
    this.number(4).number(keys.length);
    for (const key of keys) this.text(key).value((value as Record<string, unknown>)[key]);
    return this;
  }

  /** The 53-bit result. */
  digest(): number {
    let h1 = this.h1;
    let h2 = this.h2;
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return 4294967296 * (2097151 & h2) + (h1 >>> 0);
  }
}

export function fingerprintText(value: string): number {
  return new Hasher().text(value).digest();
}
