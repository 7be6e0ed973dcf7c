/**
 * Issue 24: `deploy --state … --dry-run` changes nothing, the local deploy
 * record included: the state's record is read to plan, and the record the
 * tree had before (or none) is what it has after.
 */
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDirectory } from '../../src/build.ts';
import { FIXTURES, tempDir } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';
import { TEST_AWS_ENV, useLocalS3 } from '../support/s3-proxy.ts';

const BUCKET = 'dry-run';
const servers = useLocalS3(BUCKET);

/** A build of the minimal fixture, one counter changed when `changed`. */
async function build(changed = false): Promise<string> {
  const content = join(tempDir(), 'content');
  cpSync(join(FIXTURES, 'minimal/content'), content, { recursive: true });
  const app = join(content, 'projects/hello/components/app.yaml');
  if (changed)
    writeFileSync(app, readFileSync(app, 'utf8').replace('translated: 4\n', 'translated: 3\n'));
  const out = join(tempDir(), 'dist');
  expect((await buildDirectory({ contentDir: content, outDir: out })).errors).toEqual([]);
  return out;
}

const deployCli = (out: string, ...more: string[]) =>
  runCli(
    'deploy',
    [
      ...['--out', out, '--to', `s3://${BUCKET}/site`, '--endpoint', servers.s3.url],
      ...['--state', 'default', ...more],
    ],
    { env: TEST_AWS_ENV },
  );

/** The deploy records in a tree's state folder, by name. */
function records(out: string): Record<string, string> {
  const dir = `${out}.state`;
  return Object.fromEntries(
    readdirSync(dir)
      .filter((name) => name.startsWith('deploy-'))
      .map((name) => [name, readFileSync(join(dir, name), 'latin1')]),
  );
}

describe('deploy --state --dry-run', () => {
  it('leaves the local record as it was, and adds none to a tree that had none', async () => {
    const minimal = await build();
    expect((await deployCli(minimal)).code).toBe(0);
    const before = records(minimal);
    expect(Object.keys(before)).toHaveLength(1);
    // Another tree deployed there since: the state's record is now that one.
    expect((await deployCli(await build(true))).code).toBe(0);

    const dry = await deployCli(minimal, '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^upload /m);
    expect(records(minimal)).toEqual(before);

    const fresh = await build();
    expect((await deployCli(fresh, '--dry-run')).code).toBe(0);
    expect(records(fresh)).toEqual({});
  });
});
