/**
 * `npm run bench` at a tiny scale, as a user runs it: the full build and the
 * floor of each round write the same files and bytes, every figure is printed
 * and saved, and nothing but the content and the results is left behind (a
 * leftover working folder of an earlier run included). Figures themselves are
 * never checked here: timing is the benchmark's job, not the tests'.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { startLocalS3 } from '../bench/s3-server.ts';
import { buildDirectory } from '../src/build.ts';
import { recordPath } from '../src/deploy/record.ts';
import { s3Store } from '../src/deploy/s3.ts';
import { isStateRoot } from '../src/deploy/state-parts.ts';
import { withStoreState } from '../src/deploy/store-state.ts';
import { describeTarget } from '../src/deploy/target.ts';
import { noFigures } from '../src/deploy/deploy.ts';
import { RELEASE_RANGE } from '../src/model/releases.ts';
import { FIXTURES, readTree, ROOT, tempDir, TSX } from './helpers.ts';
import { compiledTool } from './support/compiled-tool.ts';
import { runCli } from './support/run-cli.ts';
import { runScript } from './support/run-script.ts';
import { TEST_AWS_ENV } from './support/s3-proxy.ts';
import { readStateFiles } from './support/state-files.ts';

const run = promisify(execFile);

describe('npm run bench --build-only', () => {
  it('measures each round on the same tree, prints and saves the figures, and leaves only content and results', async () => {
    const dir = tempDir('wsnap-bench-');
    mkdirSync(join(dir, 'work/round-1/dist'), { recursive: true });
    writeFileSync(join(dir, 'work/round-1/dist/left-over.json'), '{}\n');
    const { stdout } = await run(
      process.execPath,
      [
        ...TSX,
        join(ROOT, 'scripts/bench.ts'),
        '--projects',
        '1',
        '--components',
        '4',
        '--languages',
        '3',
        '--rounds',
        '2',
        '--build-only',
        '--dir',
        dir,
      ],
      { cwd: ROOT },
    );

    expect(stdout).toMatch(
      /^Instance: 16 translations \(1 project × 4 components × 3 languages, plus source\), \d+ content files/m,
    );
    expect(stdout).toMatch(/^Full build \(round 1\): .+, [\d,]+ files, /m);
    expect(stdout).toMatch(/^Full build \(round 2\): .+, [\d,]+ files, /m);
    expect(
      stdout.match(
        /^ {2}raw-write floor \(same bytes, same paths\): .+; build\/floor \d+\.\d\d×$/gm,
      ),
    ).toHaveLength(2);
    const results = JSON.parse(readFileSync(join(dir, 'results-16.json'), 'utf8')) as {
      rounds: {
        build: { files: number; bytes: number };
        floor: { files: number; bytes: number };
      }[];
    };
    expect(results.rounds).toHaveLength(2);
    for (const { build, floor } of results.rounds) {
      expect(build.files).toBeGreaterThan(100);
      expect(floor).toMatchObject({ files: build.files, bytes: build.bytes });
    }
    expect(readdirSync(dir).sort()).toEqual(['content-1x4x3', 'results-16.json']);
  });
});

describe('npm run bench --weblate-version 2026.8', () => {
  it('builds a synthetic instance of the 2026.8 flavour, categories and all, and keeps its content and results apart', async () => {
    const dir = tempDir('wsnap-bench-');
    const args = [
      '--projects',
      '1',
      '--components',
      '4',
      '--languages',
      '3',
      '--build-only',
      '--weblate-version',
      '2026.8',
      // The compiled sources stand for the packed tool the benchmark times by default.
      '--tool',
      compiledTool(),
      '--dir',
      dir,
    ];
    const { code, stdout } = await runScript('bench', args);

    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^Instance: 16 translations in the 2026\.8 flavour \(1 project × 4 components × 3 languages/m,
    );
    expect(readdirSync(dir).sort()).toEqual(['content-1x4x3-2026.8', 'results-16-2026.8.json']);
    const content = join(dir, 'content-1x4x3-2026.8');
    expect(readFileSync(join(content, 'site.yaml'), 'utf8')).toContain(
      'weblate_version: "2026.8"\n',
    );
    expect(
      readFileSync(join(content, 'projects/project-00001/categories/guides.yaml'), 'utf8'),
    ).toBe('name: Guides\nparent: docs\n');
    expect(
      readFileSync(join(content, 'projects/project-00001/components/component-002.yaml'), 'utf8'),
    ).toContain('\ncategory: guides\n');
    const results = JSON.parse(readFileSync(join(dir, 'results-16-2026.8.json'), 'utf8')) as {
      rounds: { build: { files: number } }[];
    };
    expect(results.rounds[0]!.build.files).toBeGreaterThan(100);
  });

  it('refuses a release outside the table with a one-line usage error', async () => {
    const failed = await runCli('bench', ['--weblate-version', '5']);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(`--weblate-version expects ${RELEASE_RANGE} (got "5")`);
    expect(failed.stderr).not.toMatch(/\n\s+at /);
  });
});

describe("the bench's seeded mirror state", () => {
  it('is a root and parts, written by the tool, which a refresh reads back whole', async () => {
    const dir = tempDir('wsnap-bench-seed-');
    const [content, out] = [join(FIXTURES, 'minimal/content'), join(dir, 'dist')];
    expect((await buildDirectory({ contentDir: content, outDir: out })).errors).toEqual([]);
    const s3 = await startLocalS3(join(dir, 's3'), ['bench']);
    const store = () => s3Store({ bucket: 'bench', endpoint: s3.url, region: null });
    try {
      await benchStep(['seed-deploy', out, 'bench', 'mirror', s3.url]);
      await benchStep(['seed-state', out, content, 'bench', 'mirror', s3.url], TEST_AWS_ENV);
      const key = 'mirror/.weblate-snapshot/state';
      const client = store();
      expect(isStateRoot((await client.get(key))!)).toBe(true);
      const seeded = await readStateFiles(client, key).finally(() => client.close());
      expect([...seeded.files.keys()]).toContain('deploy-record');
      const carried = [...seeded.files.keys()].filter((name) => name.startsWith('carried/'));
      expect(carried.sort()).toEqual(
        [...readTree(content).keys()].map((p) => `carried/${p}`).sort(),
      );

      // A refresh on a runner that kept nothing: the state is trusted, the content comes back.
      const distrusts: (string | null)[] = [];
      const work = { out: join(dir, 'refresh/dist'), content: join(dir, 'refresh/content') };
      const target = { bucket: 'bench', prefix: 'mirror', endpoint: s3.url };
      const state = { bucket: 'bench', key };
      const deps = { store, stateStore: store, sleep: async () => {}, random: Math.random };
      const report = await withStoreState(
        { state, waitMs: 0, target, outDir: work.out, retries: 0, carried: work.content },
        { ...deps, now: Date.now },
        async ({ distrust }) => {
          distrusts.push(distrust);
          return { ...noFigures(), ok: true, message: '', stateUnchanged: true };
        },
      );
      expect(report.ok).toBe(true);
      expect(distrusts).toEqual([null]);
      expect(readTree(work.content)).toEqual(readTree(content));
      const record = readFileSync(recordPath(work.out, describeTarget(target)));
      expect(record).toEqual(seeded.files.get('deploy-record'));
    } finally {
      await s3.stop();
    }
  });
});

/**
 * A step of the bench's bench/child.ts in a process of its own, as the bench starts it, from the
 * copy compiled before the tests (as a compiled bench starts it: test/support/compile.ts).
 */
async function benchStep(args: string[], env: Record<string, string> = {}): Promise<void> {
  const step = join(inject('compiledRoot'), 'bench/child.js');
  await run(process.execPath, [step, ...args], { cwd: ROOT, env: { ...process.env, ...env } });
}
