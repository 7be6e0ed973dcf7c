/**
 * `npm run deploy` as a user runs it: real processes against the local
 * S3-protocol server (through the logging proxy). Usage errors, a dry run
 * that sends nothing, a deploy and its summary, and wrong credentials: a
 * clear error, exit 1, nothing deleted, and the next deploy does the work.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Proxy } from '../support/proxy.ts';
import type { LocalS3 } from '../../bench/s3-server.ts';
import { buildDirectory } from '../../src/build.ts';
import { FIXTURES, tempDir } from '../helpers.ts';
import { runScript } from '../support/run-script.ts';
import { listBucket, TEST_AWS_ENV, useLocalS3 } from '../support/s3-proxy.ts';

const BUCKET = 'snap';
const noStackTrace = /\n\s+at /;
const servers = useLocalS3(BUCKET);
let s3: LocalS3;
let proxy: Proxy;

beforeAll(() => ({ s3, proxy } = servers));

const deployCli = (args: string[], env: Record<string, string> = {}) =>
  runScript('deploy', args, { env: { ...TEST_AWS_ENV, ...env } });

async function builtCopy() {
  const dir = tempDir();
  const content = join(dir, 'content');
  const out = join(dir, 'dist');
  cpSync(join(FIXTURES, 'minimal/content'), content, { recursive: true });
  expect((await buildDirectory({ contentDir: content, outDir: out })).errors).toEqual([]);
  return { content, out };
}

describe('npm run deploy', () => {
  it('prints its options with --help', async () => {
    const result = await deployCli(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: npm run deploy -- [options]');
    for (const flag of [
      '--out DIR',
      '--to s3://BUCKET[/PREFIX]',
      '--endpoint URL',
      '--region NAME',
      '--cache-control TEXT',
    ]) {
      expect(result.stdout).toContain(flag);
    }
    for (const flag of ['--concurrency N', '--retries N', '--verify', '--dry-run'])
      expect(result.stdout).toContain(flag);
  });

  it.each([
    [[], 'deploy needs --to s3://BUCKET[/PREFIX]'],
    [
      ['--to', 's3://snap/a/../b'],
      '--to expects a prefix of path segments without "//", "." or ".."',
    ],
    [
      ['--to', 's3://snap', '--endpoint', 'ftp://127.0.0.1:9'],
      '--endpoint expects an http(s) URL (got "ftp://127.0.0.1:9")',
    ],
  ])('refuses %j with exit 1 and one line', async (args, message) => {
    const result = await deployCli(args);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toMatch(noStackTrace);
  });

  it('with --dry-run, prints every key it would upload and sends nothing', async () => {
    const { out } = await builtCopy();
    const result = await deployCli([
      '--out',
      out,
      '--to',
      's3://snap/dry',
      '--endpoint',
      proxy.url,
      '--dry-run',
    ]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toContain('upload dry/api/index.json');
    expect(lines).toContain('upload dry/404.html');
    expect(lines.at(-1)).toMatch(
      /^Would upload \d+ files and delete 0 keys at s3:\/\/snap\/dry at http:\/\/127\.0\.0\.1:\d+ \(0 groups unchanged\)\.$/,
    );
    expect(proxy.log).toEqual([]);
  });

  it('deploys and says what it did; with wrong credentials it stops with a clear error, exit 1, and deletes nothing', async () => {
    const { content, out } = await builtCopy();
    const args = ['--out', out, '--to', 's3://snap/creds', '--endpoint', proxy.url];
    const first = await deployCli(args);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /^Deployed .+\/dist\/ to s3:\/\/snap\/creds at http:\/\/127\.0\.0\.1:\d+: \d+ files uploaded \([\d.]+ KiB\), 0 keys deleted, 0 groups unchanged\.\n$/,
    );
    const deployed = await listBucket(s3.url, BUCKET, 'creds/');

    // The Czech translation removed: its keys would go, once the changed files are up.
    const app = join(content, 'projects/hello/components/app.yaml');
    writeFileSync(
      app,
      readFileSync(app, 'utf8').replace(/translations:\n[\s\S]*$/, 'translations: {}\n'),
    );
    expect((await buildDirectory({ contentDir: content, outDir: out })).errors).toEqual([]);
    proxy.log.length = 0;
    const refused = await deployCli(args, { AWS_ACCESS_KEY_ID: 'AKIAWRONGKEY' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^PUT creds\/\S+ was answered HTTP 403 InvalidAccessKeyId: .+\. The store refused these credentials \(check AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY or AWS_PROFILE\)\.\nStopped with 0 of \d+ files uploaded, nothing deleted\. /,
    );
    expect(refused.stderr).not.toMatch(noStackTrace);
    expect(proxy.log.filter((r) => r.method !== 'PUT')).toEqual([]);
    expect(await listBucket(s3.url, BUCKET, 'creds/')).toEqual(deployed);

    const fixed = await deployCli(args);
    expect(fixed.code).toBe(0);
    expect(fixed.stdout).toMatch(
      /: [1-9]\d* files? uploaded \(.+\), [1-9]\d* keys? deleted, \d+ groups unchanged\.\n$/,
    );
    expect(
      [...(await listBucket(s3.url, BUCKET, 'creds/')).keys()].filter((key) =>
        key.includes('/cs/'),
      ),
    ).toEqual([]);
  });

  it('refuses a folder that holds no built tree', async () => {
    const result = await deployCli([
      '--out',
      join(tempDir(), 'dist'),
      '--to',
      's3://snap/none',
      '--endpoint',
      proxy.url,
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      / is not a tree built by npm run build \(expected its manifest in .+\.state\/\); build it first\.\n$/,
    );
    expect(proxy.log).toEqual([]);
  });
});
