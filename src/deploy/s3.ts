/**
 * The object store of a deploy (store.ts) over the AWS SDK for JavaScript
 * v3: AWS S3 or any S3-compatible store (`--endpoint`: MinIO, Ceph RGW,
 * Cloudflare R2, Backblaze B2, …). Credentials and region come from the
 * usual AWS environment variables and config files. The SDK makes one
 * attempt per call; failures come back as StoreErrors that say whether
 * trying again may help (deploy/retry.ts waits and retries). Only this
 * module loads the SDK.
 */
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { StoreError, type ObjectStore } from './store.ts';

interface S3Options {
  bucket: string;
  /** An S3-compatible endpoint (path-style addressing); null for AWS. */
  endpoint: string | null;
  /** Null: the SDK's own search (AWS_REGION, the config file); with an endpoint and no region anywhere, us-east-1. */
  region: string | null;
  /** Keys per page of a listing (the store's own limit, 1000 on S3, when absent). */
  listPageSize?: number;
}

/** The store of one bucket, through the SDK. */
export function s3Store(options: S3Options): ObjectStore {
  const config: S3ClientConfig = {
    maxAttempts: 1,
    // S3-compatible stores do not all take the SDK's newer default checksums; the bodies carry Content-MD5 instead.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: {
      connectionTimeout: 10_000,
      requestTimeout: 120_000,
      throwOnRequestTimeout: true,
    },
  };
  if (options.endpoint) Object.assign(config, { endpoint: options.endpoint, forcePathStyle: true });
  const region = options.region ?? (options.endpoint ? 'us-east-1' : null);
  if (region) config.region = region;
  const client = new S3Client(config);
  const { bucket } = options;
  const call = async <T>(what: string, send: () => Promise<T>): Promise<T> => {
    try {
      return await send();
    } catch (error) {
      throw storeError(what, error);
    }
  };
  const putCommand = (
    key: string,
    body: Buffer,
    metadata: Parameters<ObjectStore['put']>[2],
    condition: { IfNoneMatch?: string } = {},
  ) =>
    new PutObjectCommand({
      Bucket: bucket,
      Key: key,
      Body: body,
      ContentType: metadata.contentType,
      ContentMD5: metadata.md5,
      ...condition,
      ...(metadata.cacheControl === null ? {} : { CacheControl: metadata.cacheControl }),
    });
  return {
    async put(key, body, metadata) {
      const command = putCommand(key, body, metadata);
      await call(`PUT ${key}`, () => client.send(command));
    },
    async putIfAbsent(key, body, metadata) {
      const command = putCommand(key, body, metadata, { IfNoneMatch: '*' });
      try {
        await client.send(command);
        return true;
      } catch (error) {
        if (statusOf(error) === 412 || statusOf(error) === 409) return false;
        throw storeError(`PUT ${key}`, error);
      }
    },
    async get(key) {
      const command = new GetObjectCommand({ Bucket: bucket, Key: key });
      try {
        const answer = await client.send(command);
        return Buffer.from(await answer.Body!.transformToByteArray());
      } catch (error) {
        if (statusOf(error) === 404) return null;
        throw storeError(`GET ${key}`, error);
      }
    },
    async remove(keys) {
      const command = new DeleteObjectsCommand({
        Bucket: bucket,
        Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
      });
      const answer = await call(`DELETE of ${keys.length} keys`, () => client.send(command));
      return (answer.Errors ?? []).map((e) => ({
        key: e.Key ?? '?',
        reason: `${e.Code ?? 'Error'}: ${e.Message ?? ''}`.trim(),
      }));
    },
    async list(prefix, token) {
      const command = new ListObjectsV2Command({
        Bucket: bucket,
        Prefix: prefix,
        ...(token ? { ContinuationToken: token } : {}),
        ...(options.listPageSize ? { MaxKeys: options.listPageSize } : {}),
      });
      const answer = await call(`LIST ${prefix || '(the whole bucket)'}`, () =>
        client.send(command),
      );
      const objects = (answer.Contents ?? []).map((o) => ({
        key: o.Key ?? '',
        etag: (o.ETag ?? '').replace(/"/g, ''),
        size: o.Size ?? 0,
      }));
      return { objects, next: answer.IsTruncated ? (answer.NextContinuationToken ?? null) : null };
    },
    close: () => client.destroy(),
  };
}

// --- internal ---

/** Error codes S3 and compatible stores use to ask a caller to slow down. */
const THROTTLING = new Set([
  'SlowDown',
  'Throttling',
  'ThrottlingException',
  'RequestLimitExceeded',
  'TooManyRequestsException',
  'RequestThrottled',
  'BandwidthLimitExceeded',
]);

/** Codes of a refused identity: wrong key, wrong secret, no permission. */
const REFUSED = new Set([
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'AccessDenied',
  'InvalidToken',
  'ExpiredToken',
  'AllAccessDisabled',
]);

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

function storeError(what: string, error: unknown): StoreError {
  const e = error as {
    name?: string;
    message?: string;
    code?: string;
    $metadata?: { httpStatusCode?: number };
  };
  const name = e.name ?? 'Error';
  const status = e.$metadata?.httpStatusCode;
  const text = (e.message ?? '').replace(/\.+$/, '');
  const message = text && text !== name && text !== 'UnknownError' ? `: ${text}` : '';
  if (name === 'CredentialsProviderError') {
    return new StoreError(
      'No AWS credentials were found: expected AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, or a profile in ~/.aws/credentials.',
      'fatal',
    );
  }
  if (/region is missing/i.test(e.message ?? '')) {
    return new StoreError(
      'No AWS region is set: expected --region, AWS_REGION, or a region in ~/.aws/config.',
      'fatal',
    );
  }
  if (status === undefined) {
    const cause = e.code ?? (e as { cause?: { code?: string } }).cause?.code;
    return new StoreError(`${what} failed: ${cause ?? name}${message}`, 'retry');
  }
  const answered = `${what} was answered HTTP ${status} ${name}${message}`;
  if (THROTTLING.has(name) || status === 429 || status === 503)
    return new StoreError(answered, 'throttled');
  if (status >= 500) return new StoreError(answered, 'retry');
  if (REFUSED.has(name) || status === 401 || status === 403) {
    return new StoreError(
      `${answered}. The store refused these credentials (check AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY or AWS_PROFILE).`,
      'fatal',
    );
  }
  if (name === 'NoSuchBucket')
    return new StoreError(`${answered}. Expected an existing bucket.`, 'fatal');
  return new StoreError(answered, 'fatal');
}
