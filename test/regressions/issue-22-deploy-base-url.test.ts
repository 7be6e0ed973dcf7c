/**
 * Issue 22, item 3: deploy uploaded a tree whose every link pointed at 127.0.0.1 (left by a
 * preview build) without a word. Now it refuses a tree whose base or web URL is loopback,
 * private-range or file:, or whose base URL differs from the one the target was last deployed
 * with, naming the setting and how it was set, unless given --allow-base-url.
 */
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LocalS3 } from '../../bench/s3-server.ts';
import { FIXTURES, tempDir } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';
import { runScript } from '../support/run-script.ts';
import { listBucket, TEST_AWS_ENV, useLocalS3 } from '../support/s3-proxy.ts';

const BUCKET = 'snap';
const servers = useLocalS3(BUCKET);
let s3: LocalS3;
beforeAll(() => ({ s3 } = servers));

/** A copy of the minimal fixture (base URL http://snapshot.test), built with `args`. */
async function built(args: string[], siteYaml?: string) {
  const dir = tempDir();
  const content = join(dir, 'content');
  const out = join(dir, 'dist');
  cpSync(join(FIXTURES, 'minimal/content'), content, { recursive: true });
  if (siteYaml) writeFileSync(join(content, 'site.yaml'), siteYaml);
  const result = await runCli('build', ['--content', content, '--out', out, ...args]);
  expect(result.code, result.stderr).toBe(0);
  return { content, out };
}

const deploy = (out: string, prefix: string, ...args: string[]) =>
  runScript(
    'deploy',
    ['--out', out, '--to', `s3://${BUCKET}/${prefix}`, '--endpoint', s3.url, ...args],
    { env: TEST_AWS_ENV },
  );

describe('deploy checks the URLs a tree links to', () => {
  it('refuses a tree built for a loopback preview, naming the flag, and sends nothing; --allow-base-url deploys it', async () => {
    const { out } = await built(['--base-url', 'http://127.0.0.1:8080']);
    const refused = await deploy(out, 'loopback');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `${out}/ was built with base URL http://127.0.0.1:8080 (given to its build as --base-url), a loopback address: ` +
        'its links would lead nowhere a reader can follow. Build it with the URL it is published at, or give --allow-base-url to deploy it as it is.',
    );
    expect(refused.stderr).toContain(
      `Settings in effect: base URL http://127.0.0.1:8080 (${out}/ was built with --base-url; site.yaml: http://snapshot.test)`,
    );
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect(await listBucket(s3.url, BUCKET, 'loopback/')).toEqual(new Map());
    const allowed = await deploy(out, 'loopback', '--allow-base-url');
    expect(allowed.code, allowed.stderr).toBe(0);
    expect((await listBucket(s3.url, BUCKET, 'loopback/')).size).toBeGreaterThan(0);
  });

  it("refuses a private-range base URL set in site.yaml, saying it came from site.yaml's base_url", async () => {
    const { out } = await built([], 'base_url: http://192.168.1.20/l10n\n');
    const refused = await deploy(out, 'private', '--dry-run');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `${out}/ was built with base URL http://192.168.1.20/l10n (site.yaml's base_url), a private-range address`,
    );
    expect(refused.stdout).toBe('');
  });

  it('refuses a base URL other than the one the target was last deployed with, until told', async () => {
    const { out, content } = await built([]);
    expect((await deploy(out, 'moved')).code).toBe(0);
    const rebuilt = await runScript('build', [
      '--content',
      content,
      '--out',
      out,
      '--base-url',
      'https://l10n.example.net',
    ]);
    expect(rebuilt.code).toBe(0);
    const before = await listBucket(s3.url, BUCKET, 'moved/');
    const refused = await deploy(out, 'moved');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `s3://${BUCKET}/moved at ${s3.url} was last deployed with base URL http://snapshot.test, but ${out}/ was built with ` +
        'https://l10n.example.net (given to its build as --base-url).',
    );
    expect(await listBucket(s3.url, BUCKET, 'moved/')).toEqual(before);
    expect((await deploy(out, 'moved', '--allow-base-url')).code).toBe(0);
    // The target now has the new base URL: the same tree goes again without the flag.
    const again = await deploy(out, 'moved');
    expect(again.code, again.stderr).toBe(0);
  });
});
