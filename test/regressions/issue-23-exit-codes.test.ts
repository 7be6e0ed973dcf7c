/**
 * Issue 23: a scheduler tells "resume later" from "the content is broken". pull and deploy exit
 * 75 (EX_TEMPFAIL) when the server or the store cannot be reached, 1 for a usage error, and 2
 * only for bugs.
 */
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDirectory } from '../../src/build.ts';
import { EXIT_TEMPORARY } from '../../src/cli/command.ts';
import { FIXTURES, tempDir } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';
import { runScript } from '../support/run-script.ts';
import { TEST_AWS_ENV } from '../support/s3-proxy.ts';

const noStackTrace = /\n\s+at /;
/** A loopback port nothing listens on (discard). */
const DOWN = 'http://127.0.0.1:9';

describe('exit codes', () => {
  it('pull exits 75 when the server cannot be reached', async () => {
    const out = join(tempDir(), 'mirror');
    const result = await runCli('pull', ['--from', `${DOWN}/api/`, '--out', out, '--retries', '0']);
    expect(result.code).toBe(EXIT_TEMPORARY);
    expect(result.stderr).toContain(`${DOWN}/api/ failed once`);
    expect(result.stderr).not.toMatch(noStackTrace);
  });

  it('deploy exits 75 when the store cannot be reached', async () => {
    const dir = tempDir();
    cpSync(join(FIXTURES, 'minimal/content'), join(dir, 'content'), { recursive: true });
    const out = join(dir, 'dist');
    const built = await buildDirectory({ contentDir: join(dir, 'content'), outDir: out });
    expect(built.errors).toEqual([]);
    // A process of its own: the AWS SDK reads the keys from the process's environment.
    const result = await runScript(
      'deploy',
      ['--out', out, '--to', 's3://snap', '--endpoint', DOWN, '--retries', '0', '--allow-base-url'],
      { env: TEST_AWS_ENV },
    );
    expect(result.stderr).toContain('ECONNREFUSED');
    expect(result.code).toBe(EXIT_TEMPORARY);
    expect(result.stderr).not.toMatch(noStackTrace);
  });

  it('pull and deploy exit 1 for a usage error', async () => {
    expect((await runCli('pull', ['--from', 'ftp://x/'])).code).toBe(1);
    expect((await runCli('deploy', ['--to', 'ftp://x'])).code).toBe(1);
  });
});
