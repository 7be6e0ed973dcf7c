/**
 * Tests of npm run deploy talk to the local S3 server (bench/s3-server.ts)
 * through a logging proxy (proxy.ts) that can also answer some requests with
 * an S3 error (throttling, a 5xx) or a dropped connection. Also: reading a
 * bucket back through the SDK, straight from the server (not logged).
 */
import {
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { LOCAL_S3_KEYS, startLocalS3, type LocalS3 } from '../../bench/s3-server.ts';
import { tempDir } from '../helpers.ts';
import { startProxy, type Proxy } from './proxy.ts';

/** The AWS environment of a deploy under test: the local server's keys, and nothing that leaves loopback (no instance metadata service, no user's AWS files). */
export const TEST_AWS_ENV: Record<string, string> = {
  ...LOCAL_S3_KEYS,
  AWS_EC2_METADATA_DISABLED: 'true',
  AWS_CONFIG_FILE: '/nonexistent/aws-config',
  AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/aws-credentials',
  AWS_PROFILE: '',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};

/**
 * For a test file: the local S3 server with one bucket, started before its
 * tests and stopped after them, behind a proxy whose log and fault are reset
 * before each test.
 */
export function useLocalS3(bucket: string): { s3: LocalS3; proxy: Proxy } {
  const servers = {} as { s3: LocalS3; proxy: Proxy };
  beforeAll(async () => {
    servers.s3 = await startLocalS3(tempDir('wsnap-s3-'), [bucket]);
    servers.proxy = await startProxy(servers.s3.url);
  });
  afterAll(async () => {
    await servers.proxy?.close();
    await servers.s3?.stop();
  });
  beforeEach(() => {
    servers.proxy.log.length = 0;
    servers.proxy.fault = null;
  });
  return servers;
}

/** The keys of a bucket under a prefix with their ETags (the MD5 of the body, in hex), read straight from the server. */
export async function listBucket(
  upstream: string,
  bucket: string,
  prefix = '',
): Promise<Map<string, string>> {
  const client = testClient(upstream);
  try {
    const keys = new Map<string, string>();
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? [])
        keys.set(object.Key!, object.ETag!.replace(/"/g, ''));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return new Map([...keys].sort(([a], [b]) => (a < b ? -1 : 1)));
  } finally {
    client.destroy();
  }
}

/** Every object of a bucket (under a prefix), read straight from the server: key → body, Content-Type, Cache-Control. */
export async function readBucket(
  upstream: string,
  bucket: string,
  prefix = '',
): Promise<
  Map<string, { body: string; contentType: string | undefined; cacheControl: string | undefined }>
> {
  const keys = [...(await listBucket(upstream, bucket, prefix)).keys()];
  const client = testClient(upstream);
  try {
    const objects = new Map<
      string,
      { body: string; contentType: string | undefined; cacheControl: string | undefined }
    >();
    for (let i = 0; i < keys.length; i += 16) {
      await Promise.all(
        keys.slice(i, i + 16).map(async (key) => {
          const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
          objects.set(key, {
            body: await object.Body!.transformToString(),
            contentType: object.ContentType,
            cacheControl: object.CacheControl,
          });
        }),
      );
    }
    return new Map([...objects].sort(([a], [b]) => (a < b ? -1 : 1)));
  } finally {
    client.destroy();
  }
}

/** Puts an object straight into the server (what another tool, or a hand, put in the bucket). */
export async function putObject(
  upstream: string,
  bucket: string,
  key: string,
  body: string,
): Promise<void> {
  const client = testClient(upstream);
  try {
    await client.send(
      new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: 'text/plain' }),
    );
  } finally {
    client.destroy();
  }
}

// --- internal ---

function testClient(upstream: string): S3Client {
  return new S3Client({
    endpoint: upstream,
    forcePathStyle: true,
    region: 'us-east-1',
    credentials: {
      accessKeyId: LOCAL_S3_KEYS.AWS_ACCESS_KEY_ID,
      secretAccessKey: LOCAL_S3_KEYS.AWS_SECRET_ACCESS_KEY,
    },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}
