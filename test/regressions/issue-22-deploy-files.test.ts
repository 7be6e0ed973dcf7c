/**
 * Issue 22, items 4 and 6 (deploy): a deploy publishes only the files the build recorded it
 * wrote, never through a symbolic link; what else it finds is named, not uploaded, and never a
 * crash (a user's CNAME). A file the manifest lists that is missing stops the deploy (and
 * --verify) before anything is published, and the next build writes it again.
 */
import { cpSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LocalS3 } from '../../bench/s3-server.ts';
import { buildDirectory } from '../../src/build.ts';
import { deploy, type DeployOptions, type DeployReport } from '../../src/deploy/deploy.ts';
import { s3Store } from '../../src/deploy/s3.ts';
import { FIXTURES, tempDir } from '../helpers.ts';
import type { Proxy } from '../support/proxy.ts';
import { listBucket, useLocalS3 } from '../support/s3-proxy.ts';

const BUCKET = 'files';
const servers = useLocalS3(BUCKET);
let s3: LocalS3;
let proxy: Proxy;

beforeAll(() => {
  ({ s3, proxy } = servers);
});

async function builtTree(): Promise<{ dir: string; content: string; out: string }> {
  const dir = tempDir();
  const content = join(dir, 'content');
  const out = join(dir, 'dist');
  cpSync(join(FIXTURES, 'minimal/content'), content, { recursive: true });
  expect((await buildDirectory({ contentDir: content, outDir: out })).errors).toEqual([]);
  return { dir, content, out };
}

async function run(
  out: string,
  prefix: string,
  options: Partial<DeployOptions> = {},
): Promise<{ report: DeployReport; notices: string[] }> {
  const notices: string[] = [];
  const report = await deploy(
    {
      outDir: out,
      target: { bucket: BUCKET, prefix, endpoint: proxy.url },
      cacheControl: null,
      concurrency: 4,
      retries: 0,
      onNotice: (text) => notices.push(text),
      ...options,
    },
    {
      store: () => s3Store({ bucket: BUCKET, endpoint: proxy.url, region: null }),
      sleep: async () => undefined,
      random: () => 0.5,
    },
  );
  return { report, notices };
}

describe('npm run deploy publishes only what the build wrote', () => {
  it('skips a link out of the tree and files the build did not write, naming each', async () => {
    const { dir, out } = await builtTree();
    writeFileSync(join(dir, 'passwd'), 'root:x:0:0\n');
    symlinkSync(join(dir, 'passwd'), join(out, 'leak.json'));
    symlinkSync(join(dir, 'passwd'), join(out, 'api/leak.json'));
    writeFileSync(join(out, 'secrets.json'), '{"key":"s3cr3t"}\n');
    writeFileSync(join(out, 'CNAME'), 'l10n.example.org\n');

    const { report, notices } = await run(out, 'leak');
    expect(report).toMatchObject({ ok: true });
    const keys = [...(await listBucket(s3.url, BUCKET, 'leak/')).keys()];
    expect(keys).toContain('leak/api/index.json');
    for (const name of ['leak.json', 'api/leak.json', 'secrets.json', 'CNAME'])
      expect(keys).not.toContain(`leak/${name}`);
    expect(notices).toEqual(
      expect.arrayContaining([
        'Skipped leak.json: a symbolic link the build did not write (not published).',
        'Skipped api/leak.json: a symbolic link the build did not write (not published).',
        'Skipped secrets.json: a file the build did not write (not published).',
        'Skipped CNAME: a file the build did not write (not published).',
      ]),
    );
  });

  it('stops before publishing anything when a file the manifest lists is missing, and the next build writes it again', async () => {
    const { content, out } = await builtTree();
    const statistics = 'api/translations/hello/app/cs/statistics/index.json';
    const bytes = readFileSync(join(out, statistics), 'utf8');
    rmSync(join(out, statistics));

    const { report } = await run(out, 'missing');
    expect(report.ok).toBe(false);
    expect(report.ok === false && report.message).toMatch(
      new RegExp(`${statistics} is in the tree's manifest, but the tree holds nothing there`),
    );
    expect(report.uploaded).toBe(0);
    expect((await listBucket(s3.url, BUCKET, 'missing/')).size).toBe(0);
    expect((await run(out, 'missing', { verify: true })).report.ok).toBe(false);

    expect((await buildDirectory({ contentDir: content, outDir: out })).errors).toEqual([]);
    expect(readFileSync(join(out, statistics), 'utf8')).toBe(bytes);
    expect((await run(out, 'missing')).report).toMatchObject({ ok: true });
    expect((await listBucket(s3.url, BUCKET, 'missing/')).has(`missing/${statistics}`)).toBe(true);
  });

  it('refuses a recorded file replaced by a link, publishing nothing', async () => {
    const { dir, out } = await builtTree();
    writeFileSync(join(dir, 'passwd'), 'root:x:0:0\n');
    rmSync(join(out, 'api/index.json'));
    symlinkSync(join(dir, 'passwd'), join(out, 'api/index.json'));
    const { report } = await run(out, 'replaced');
    expect(report.ok === false && report.message).toMatch(
      /api\/index\.json is in the tree's manifest, but the tree holds a symbolic link there/,
    );
    expect((await listBucket(s3.url, BUCKET, 'replaced/')).size).toBe(0);
  });

  it('refuses a tree built before its files were recorded, which the next build writes whole', async () => {
    const { content, out } = await builtTree();
    rmSync(join(`${out}.state`, 'files'));
    const { report } = await run(out, 'earlier');
    expect(report.ok === false && report.message).toMatch(/before its files were recorded/);
    const rebuilt = await buildDirectory({ contentDir: content, outDir: out });
    expect(rebuilt.mode).toBe('fresh');
    expect((await run(out, 'earlier')).report).toMatchObject({ ok: true });
  });

  it('has hosts/s3/upload.sh never follow a link', async () => {
    const { out } = await builtTree();
    const script = readFileSync(join(out, 'hosts/s3/upload.sh'), 'utf8');
    const calls = script.split('\n').filter((line) => /^\s*aws s3 (sync|cp) /.test(line));
    expect(calls.length).toBeGreaterThan(1);
    for (const line of calls) expect(line).toContain('--no-follow-symlinks');
  });
});
