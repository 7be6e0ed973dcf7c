/**
 * `npm run s3-local -- --dir DIR`: the S3-protocol server the tests use (s3rver, a dev
 * dependency, so a repository script and not a command of the package) on loopback, to try a
 * deploy without a cloud account. Prints the endpoint, bucket and keys to paste; Ctrl+C stops it.
 */
import { LOCAL_S3_KEYS, startLocalS3 } from '../bench/s3-server.ts';
import { mkdirSync } from 'node:fs';
import { defineCommand, runIfMain } from '../src/cli/command.ts';
import { parsePort, stopSignal } from '../src/cli/serving.ts';
import { UsageError } from '../src/errors.ts';

export const command = defineCommand({
  name: 's3-local',
  description:
    'Start a local S3-protocol server (s3rver) on 127.0.0.1 with its objects in a folder, ' +
    'and print the endpoint, bucket and keys a deploy to it needs. Ctrl+C stops it.',
  options: {
    dir: {
      type: 'string',
      valueName: 'DIR',
      description: 'folder that holds the buckets and their objects (created if missing)',
    },
    bucket: {
      type: 'string',
      valueName: 'NAME',
      description: 'bucket to create',
      default: 'snapshot',
    },
    port: {
      type: 'string',
      valueName: 'N',
      description: 'port to listen on; 0 picks a free one',
      default: '4568',
    },
  },
  epilog:
    'Example:\n  npm run s3-local -- --dir /tmp/s3\n' +
    '  # in another terminal, the lines it prints, then:\n' +
    '  npm run deploy -- --out dist --to s3://snapshot/demo',
  async run(args, io) {
    if (!args.dir) throw new UsageError('s3-local needs --dir DIR');
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(args.bucket))
      throw new UsageError(
        `--bucket expects an S3 bucket name: 3 to 63 lowercase letters, digits, dots and hyphens (got "${args.bucket}")`,
      );
    const port = parsePort(args.port);
    mkdirSync(args.dir, { recursive: true });
    const server = await startLocalS3(args.dir, [args.bucket], port).catch((error: Error) => {
      if (!error.message.includes('EADDRINUSE')) throw error;
      throw new UsageError(
        `--port ${port} is in use on 127.0.0.1; give another, or 0 for a free one`,
      );
    });
    // Listening for a stop before the lines that say it runs: a Ctrl+C right after them is never missed.
    const stopped = stopSignal(io);
    io.out(
      `S3-protocol server at ${server.url}, objects in ${args.dir}/ (Ctrl+C to stop). For a deploy:\n` +
        `  export AWS_ENDPOINT_URL_S3=${server.url}\n` +
        `  export AWS_ACCESS_KEY_ID=${LOCAL_S3_KEYS.AWS_ACCESS_KEY_ID} AWS_SECRET_ACCESS_KEY=${LOCAL_S3_KEYS.AWS_SECRET_ACCESS_KEY}\n` +
        `  npm run deploy -- --out dist --to s3://${args.bucket}/PREFIX\n`,
    );
    await stopped;
    await server.stop();
    return 0;
  },
});

await runIfMain(import.meta, command);
