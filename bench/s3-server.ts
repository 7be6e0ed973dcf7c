/**
 * A local S3-protocol server for the benchmark and the tests: s3rver in a
 * process of its own, on loopback. That process runs with
 * --openssl-legacy-provider: s3rver makes its listing continuation tokens
 * with DES, which OpenSSL 3 refuses otherwise (every listing of more than one
 * page would fail with a 500). It accepts the key pair S3RVER / S3RVER and
 * refuses other access key ids (it does not check secrets).
 */
import { spawn } from 'node:child_process';

export interface LocalS3 {
  /** `http://127.0.0.1:<port>` */
  url: string;
  stop(): Promise<void>;
}

/** The credentials the local server accepts. */
export const LOCAL_S3_KEYS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };

/** Starts the server with its objects in `dir` and the buckets named, on `port` (0: a free one); waits (bounded) until it listens. */
export async function startLocalS3(
  dir: string,
  buckets: readonly string[],
  port = 0,
): Promise<LocalS3> {
  const entry = new URL('./s3rver-child.mjs', import.meta.url).pathname;
  const child = spawn(
    process.execPath,
    ['--openssl-legacy-provider', entry, dir, String(port), ...buckets],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  for (let attempt = 0; attempt < 400; attempt++) {
    const port = /READY (\d+)/.exec(output)?.[1];
    if (port) {
      return {
        url: `http://127.0.0.1:${port}`,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
        },
      };
    }
    if (child.exitCode !== null) break;
    await new Promise((done) => setTimeout(done, 25));
  }
  child.kill('SIGKILL');
  await exited;
  throw new Error(`the local S3 server did not start:\n${output}`);
}
