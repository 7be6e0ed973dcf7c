/**
 * Issue 23, item 4: trying a deploy locally meant reading the benchmark's sources to find how to
 * start the local S3 server and its keys, and AWS_ENDPOINT_URL_S3, the variable the AWS tools
 * read, did not make a deploy reach it. Now `npm run s3-local` starts it and prints the lines to
 * paste, and a deploy given those lines (no --endpoint) publishes the tree there.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, scriptArgs, tempDir } from '../helpers.ts';
import { childOutput } from '../support/child-output.ts';
import { runCli } from '../support/run-cli.ts';
import { runScript } from '../support/run-script.ts';
import { listBucket, TEST_AWS_ENV } from '../support/s3-proxy.ts';

describe('npm run s3-local (issue 23)', () => {
  it('starts the server, prints what a deploy needs, and a deploy with just those lines reaches it', async () => {
    const dir = tempDir();
    const child = spawn(
      process.execPath,
      [...scriptArgs('s3-local'), '--dir', join(dir, 's3'), '--port', '0', '--bucket', 'demo'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const output = childOutput(child);
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    try {
      const [, endpoint] = await output.waitFor(/export AWS_ENDPOINT_URL_S3=(\S+)\n/, 'endpoint');
      const [, id, secret] = await output.waitFor(
        /export AWS_ACCESS_KEY_ID=(\S+) AWS_SECRET_ACCESS_KEY=(\S+)\n/,
        'keys',
      );
      expect(output.text()).toContain('--to s3://demo/PREFIX');
      const out = join(dir, 'dist');
      expect((await runCli('build', ['--content', join(ROOT, 'content'), '--out', out])).code).toBe(
        0,
      );
      const pasted = {
        ...TEST_AWS_ENV,
        AWS_ENDPOINT_URL_S3: endpoint!,
        AWS_ACCESS_KEY_ID: id!,
        AWS_SECRET_ACCESS_KEY: secret!,
      };
      const deployed = await runScript('deploy', ['--out', out, '--to', 's3://demo/try'], {
        env: pasted,
      });
      expect(deployed.stderr).toBe('');
      expect(deployed.code).toBe(0);
      expect(deployed.stdout).toContain(`to s3://demo/try at ${endpoint}`);
      const keys = await listBucket(endpoint!, 'demo', 'try/');
      expect(keys.has('try/api/projects/index.json')).toBe(true);
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
  });

  it('names AWS_ENDPOINT_URL_S3 when it holds no URL, and --endpoint wins over it', async () => {
    const out = join(tempDir(), 'dist');
    const env = { ...TEST_AWS_ENV, AWS_ENDPOINT_URL_S3: 'not a url' };
    const refused = await runCli('deploy', ['--out', out, '--to', 's3://demo'], { env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^AWS_ENDPOINT_URL_S3: expects the URL of an S3-compatible/);
    const flag = await runCli(
      'deploy',
      ['--out', out, '--to', 's3://demo', '--endpoint', 'ftp://x'],
      { env },
    );
    expect(flag.stderr).toMatch(/^--endpoint expects an http\(s\) URL/);
  });
});
