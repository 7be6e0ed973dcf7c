/**
 * Content published to a local S3-protocol bucket, the set-up the store tests share: the local
 * server with one bucket behind its logging proxy (s3-proxy.ts) and the AWS environment a deploy
 * under test reads; fresh copies of a fixture's content; `deploy --content` to a prefix, run in
 * the test's own process; and the objects published under a prefix, read back without the state.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { expect } from 'vitest';
import type { LocalS3 } from '../../bench/s3-server.ts';
import { FIXTURES, tempDir } from '../helpers.ts';
import type { Proxy } from './proxy.ts';
import { runCli } from './run-cli.ts';
import type { ScriptResult } from './run-script.ts';
import { readBucket, TEST_AWS_ENV, useLocalS3 } from './s3-proxy.ts';

/** An object as the bucket holds it. */
export interface StoredObject {
  body: string;
  contentType: string | undefined;
  cacheControl: string | undefined;
}

export interface ContentBucket {
  /** The server and its proxy, started before the file's tests (the proxy's log reset before each). */
  servers: { s3: LocalS3; proxy: Proxy };
  /** A fresh copy of a fixture's content, or of a content folder, as a new checkout has it. */
  checkout: (from?: string) => string;
  /** `deploy --content CONTENT --to s3://BUCKET/PREFIX` through the proxy, with `more` flags. */
  publish: (prefix: string, content: string, ...more: string[]) => Promise<ScriptResult>;
  /** The objects under a prefix by their key below it, the state, its parts and lease left out. */
  objectsUnder: (prefix: string) => Promise<Record<string, StoredObject>>;
}

/** For a test file: a bucket to publish content to, and the ways the tests publish and read it. */
export function useContentBucket(bucket: string): ContentBucket {
  const servers = useLocalS3(bucket);
  return {
    servers,
    checkout: (from = 'features') => {
      const copy = join(tempDir(), 'content');
      cpSync(isAbsolute(from) ? from : join(FIXTURES, from, 'content'), copy, { recursive: true });
      return copy;
    },
    publish: (prefix, content, ...more) =>
      runCli(
        'deploy',
        [
          ...['--content', content, '--to', `s3://${bucket}/${prefix}`],
          ...['--endpoint', servers.proxy.url, ...more],
        ],
        { env: TEST_AWS_ENV },
      ),
    objectsUnder: async (prefix) => {
      const objects = await readBucket(servers.s3.url, bucket, `${prefix}/`);
      return Object.fromEntries(
        [...objects]
          .filter(([key]) => !key.includes('/.weblate-snapshot/'))
          .map(([key, object]) => [key.slice(prefix.length + 1), object]),
      );
    },
  };
}

/** Moves one counter of a component file (`translated: 4` to 3), which a test's fixture has. */
export function changeCounter(content: string, file: string): void {
  const path = join(content, file);
  const text = readFileSync(path, 'utf8');
  expect(text).toContain('translated: 4\n');
  writeFileSync(path, text.replace('translated: 4\n', 'translated: 3\n'));
}
