/**
 * Issue 23: the action's mirror step run as a runner runs it: action/run.sh with the inputs as
 * INPUT_* in the environment and `weblate-snapshot` on PATH, against the real sidecar and the
 * local S3 server on loopback. Its inputs reach the command: projects, endpoint, base URL,
 * the state a later run finds again in the bucket, and `state` for a key elsewhere.
 */
import { cpSync, chmodSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES, ROOT, tempDir } from '../helpers.ts';
import { runProgram } from '../support/run-script.ts';
import { listBucket, TEST_AWS_ENV, useLocalS3 } from '../support/s3-proxy.ts';
import { KEY, startUpstreamSidecar, type UpstreamSidecar } from '../sidecar/support.ts';

const BUCKET = 'action';
const servers = useLocalS3(BUCKET);
let sidecar: UpstreamSidecar | undefined;
afterEach(async () => {
  await sidecar?.stop();
  sidecar = undefined;
});

/** A folder with `weblate-snapshot` in it, as install.sh leaves the packed tool on PATH. */
function toolOnPath(): string {
  const bin = tempDir();
  const shim = join(bin, 'weblate-snapshot');
  writeFileSync(
    shim,
    `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'bin/weblate-snapshot.js')}" "$@"\n`,
  );
  chmodSync(shim, 0o755);
  return bin;
}

describe('the action run as a runner runs it', () => {
  it('mirrors the projects asked for into the bucket, and the next run only what changed', async () => {
    const dir = tempDir();
    const space = { dir, content: join(dir, 'content'), out: join(dir, 'served') };
    cpSync(join(FIXTURES, 'features/content'), space.content, { recursive: true });
    sidecar = await startUpstreamSidecar(space);
    const workspace = tempDir();
    const env = {
      ...TEST_AWS_ENV,
      PATH: `${toolOnPath()}:${process.env.PATH}`,
      INPUT_FROM: sidecar.api,
      INPUT_TO: `s3://${BUCKET}/site`,
      INPUT_BASE_URL: 'https://l10n.example.org',
      INPUT_ENDPOINT: servers.s3.url,
      INPUT_REGION: 'eu-central-1',
      INPUT_PROJECTS: 'beta',
      INPUT_TOKEN: KEY,
      INPUT_FULL: 'false',
      INPUT_WORK: '.weblate-mirror',
    };
    const run = () => runProgram('bash', [join(ROOT, 'action/run.sh')], { cwd: workspace, env });
    const first = await run();
    expect(first.stderr).not.toMatch(/error/i);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^pull: .*\ndeploy: /);
    // A bucket keeps the next run's state itself: the working folder the cache would keep is empty.
    expect(readdirSync(join(workspace, '.weblate-mirror'))).toEqual([]);
    const keys = [...(await listBucket(servers.s3.url, BUCKET, 'site/')).keys()];
    expect(keys).toContain('site/api/projects/beta/index.json');
    expect(keys).not.toContain('site/api/projects/alpha/index.json');
    const again = await run();
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/deploy: 0 files uploaded/);
    expect(keys).toContain('site/.weblate-snapshot/state');
    const state = { ...env, INPUT_STATE: `s3://${BUCKET}/states/site` };
    const elsewhere = await runProgram('bash', [join(ROOT, 'action/run.sh')], {
      cwd: workspace,
      env: state,
    });
    expect(elsewhere.code).toBe(0);
    const states = await listBucket(servers.s3.url, BUCKET, 'states/');
    // The state's root, and its parts under the root's own prefix.
    const [root, ...parts] = [...states.keys()].sort();
    expect(root).toBe('states/site');
    expect(parts.length).toBeGreaterThan(0);
    for (const part of parts) expect(part).toMatch(/^states\/site\.parts\/[0-9a-f]{64}$/);
  });

  it('refuses to run without its required inputs', async () => {
    const result = await runProgram('bash', [join(ROOT, 'action/run.sh')], {
      env: { INPUT_FROM: '', INPUT_TO: '' },
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('the input from is required');
  });
});
