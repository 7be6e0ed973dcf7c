/**
 * Issue 24 (runs a scheduler may stop): a deploy interrupted while its uploads wait to be tried
 * again kept waiting and retrying every upload in flight until each ran out of tries (minutes
 * with --retries 10), because the backoff did not see the interruption. The real command, on a
 * loopback port nothing listens on, is sent SIGINT at its first wait and must stop: it says it
 * was interrupted and that the same command resumes it.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { FIXTURES, ROOT, scriptArgs, tempDir } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';
import { freePort } from '../e2e/servers.ts';

it('stops at SIGINT while uploads wait to be tried again, and says how to resume', async () => {
  const dir = tempDir();
  const out = join(dir, 'dist');
  const built = await runCli('build', [
    '--content',
    join(FIXTURES, 'minimal/content'),
    '--out',
    out,
  ]);
  expect(built.code).toBe(0);
  // A port that was free a moment ago: every connection is refused, so every upload waits.
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      ...scriptArgs('deploy'),
      ...['--out', out, '--to', 's3://bucket/site', '--endpoint', `http://127.0.0.1:${port}`],
      ...['--retries', '10'],
    ],
    {
      cwd: ROOT,
      env: { ...process.env, AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test' },
    },
  );
  let stderr = '';
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  await new Promise<void>((waiting) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('Waiting ')) waiting();
    });
    void exited.then(() => waiting());
  });
  child.kill('SIGINT');
  const code = await exited;
  expect(code, stdout + stderr).toBe(1);
  expect(stderr).toMatch(/^Interrupted with /m);
}, 30_000);
