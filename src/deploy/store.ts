/**
 * What a deploy needs of an object store: put, delete and list keys of one
 * bucket (s3.ts over the AWS SDK), and the one kind of failure it reports.
 */

interface ObjectMetadata {
  contentType: string;
  /** Null for none. */
  cacheControl: string | null;
  /** The MD5 of the body, base64: the store checks the bytes it received against it. */
  md5: string;
}

interface ListedObject {
  key: string;
  /** The ETag without quotes: the MD5 in hex for an object uploaded in one part. */
  etag: string;
  size: number;
}

export interface ObjectStore {
  put(key: string, body: Buffer, metadata: ObjectMetadata): Promise<void>;
  /**
   * Puts only when no object has the key: false when one has. Stores that
   * ignore the condition (s3rver) put anyway, so a caller reads back what won.
   */
  putIfAbsent(key: string, body: Buffer, metadata: ObjectMetadata): Promise<boolean>;
  /** The body of one object, or null when there is none. */
  get(key: string): Promise<Buffer | null>;
  /** Deletes at most 1000 keys; the keys the store refused to delete, with why. */
  remove(keys: readonly string[]): Promise<{ key: string; reason: string }[]>;
  /** One page of the keys under `prefix`, and the token of the next (null after the last). */
  list(
    prefix: string,
    token: string | null,
  ): Promise<{ objects: ListedObject[]; next: string | null }>;
  close(): void;
}

/** A failed call: `retry` when trying again may help (network, 5xx), `throttled` when the store asks to slow down, `fatal` otherwise. */
export class StoreError extends Error {
  override name = 'StoreError';
  constructor(
    message: string,
    readonly kind: 'retry' | 'throttled' | 'fatal',
  ) {
    super(message);
  }
}
