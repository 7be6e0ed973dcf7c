/**
 * The flags of a command that publishes to a bucket (deploy, mirror): the store's endpoint and
 * region, read from the flags or the AWS environment the same way in both.
 */
import { DEFAULT_CACHE_CONTROL } from '../deploy/deploy.ts';
import type { ObjectStore } from '../deploy/store.ts';
import { parseEndpoint, type DeployTarget } from '../deploy/target.ts';
import { UsageError } from '../errors.ts';
import type { CommandIO, OptionDef } from './command.ts';

export const STORE_OPTIONS = {
  endpoint: {
    type: 'string',
    valueName: 'URL',
    description:
      'an S3-compatible store (MinIO, Ceph RGW, Cloudflare R2, Backblaze B2, …); default: $AWS_ENDPOINT_URL_S3, else $AWS_ENDPOINT_URL',
  },
  region: {
    type: 'string',
    valueName: 'NAME',
    description: 'the region (else AWS_REGION, the AWS config file, or us-east-1 with --endpoint)',
  },
  'cache-control': {
    type: 'string',
    valueName: 'TEXT',
    description: 'the Cache-Control header of every object; "" for none',
    default: DEFAULT_CACHE_CONTROL,
  },
} as const satisfies Record<string, OptionDef>;

/**
 * --endpoint, else the endpoint the AWS SDKs and CLI read from the environment, taken as if it
 * were the flag: the SDK alone would address the store virtual-host style, and the deploy record
 * would take it for AWS. Null for AWS itself.
 */
export function storeEndpoint(
  flag: string | undefined,
  env: CommandIO['env'],
): DeployTarget['endpoint'] {
  if (flag !== undefined) return checked(parseEndpoint(flag), '');
  const variable = ['AWS_ENDPOINT_URL_S3', 'AWS_ENDPOINT_URL'].find((name) => env[name]);
  if (variable === undefined) return null;
  return checked(parseEndpoint(env[variable]!), variable);
}

/**
 * The stores of one endpoint and region, by bucket, through the AWS SDK. The SDK is loaded
 * here, not at the top: the other commands of the command line do without it.
 */
export async function s3Stores(
  endpoint: DeployTarget['endpoint'],
  region: string | null,
): Promise<(bucket: string) => ObjectStore> {
  // The SDK warns on Node 20 in every process; the version is pinned (see package.json).
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const { s3Store } = await import('../deploy/s3.ts');
  return (bucket) => s3Store({ bucket, endpoint, region });
}

/** --region, else the region the AWS environment names; null leaves it to the SDK's config. */
export function storeRegion(flag: string | undefined, env: CommandIO['env']): string | null {
  return flag ?? (env.AWS_REGION || env.AWS_DEFAULT_REGION || null);
}

// --- internal ---

function checked<T>(
  parsed: { ok: true; value: T } | { ok: false; message: string },
  variable: string,
): T {
  if (parsed.ok) return parsed.value;
  throw new UsageError(
    variable ? `${variable}: ${parsed.message.replace(/^--endpoint /, '')}` : parsed.message,
  );
}
