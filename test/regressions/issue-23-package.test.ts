/**
 * Issue 23, item 1: the package could not be installed (private, TypeScript compiled on first use
 * into node_modules/.cache, tsx a runtime dependency, a pack of 1,172 files with the tests). Now
 * `npm pack` makes a tarball of compiled JavaScript, installed here into an empty folder with
 * runtime dependencies only and no network (bench/package.ts). From there, on Node 20 and on
 * Node 24, the list of commands (which loads every command's module), a command's -h, a build and
 * the programmatic API; on Node 24, a pull from the installed sidecar, a deploy to a local
 * S3-protocol server and a mirror refreshed by a signed webhook delivery as well (on Node 20,
 * every other test runs them from the same JavaScript).
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installOffline, packCopy, userEnv } from '../../bench/package.ts';
import { startLocalS3, type LocalS3 } from '../../bench/s3-server.ts';
import { freePort } from '../e2e/servers.ts';
import { ROOT, tempDir } from '../helpers.ts';
import { childOutput } from '../support/child-output.ts';
import { listBucket, TEST_AWS_ENV } from '../support/s3-proxy.ts';
import { signedDelivery, writeWebhookSecret } from '../support/webhook-delivery.ts';

const run = promisify(execFile);
const COMMANDS = ['build', 'check', 'serve', 'sidecar', 'pull', 'deploy', 'mirror', 'types'];
const NODES = [
  ['Node 20', process.execPath],
  ['Node 24', join(ROOT, 'node_modules/node24/bin/node')],
] as const;
const BUCKET = 'packaged';
const ENV = userEnv();

let work: string;
let tarball: string;
let app: string;
let s3: LocalS3;

beforeAll(async () => {
  work = tempDir('wsnap-package-');
  tarball = await packCopy(work);
  app = join(work, 'app');
  await installOffline(tarball, app);
  s3 = await startLocalS3(join(work, 's3'), [BUCKET]);
});
afterAll(async () => {
  await s3?.stop();
});

describe('the package (issue 23)', () => {
  it('holds compiled JavaScript, data, docs and licence, and no tests, bench or sources', async () => {
    const files = (await run('tar', ['tzf', tarball])).stdout.trim().split('\n').sort();
    const outside = files.filter(
      (file) =>
        !/^package\/(lib\/|data\/|docs\/|bin\/weblate-snapshot\.js$)/.test(file) &&
        ![
          'package/package.json',
          'package/README.md',
          'package/LICENSE',
          'package/CHANGELOG.md',
          'package/npm-shrinkwrap.json',
        ].includes(file),
    );
    expect(outside).toEqual([]);
    expect(files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([]);
    for (const file of [
      'lib/scripts/weblate-snapshot.js',
      // Loaded by its URL, not imported: tsc compiles it only when told to (tsconfig.build.json).
      'lib/src/content/check-thread.js',
      'lib/scripts/api.d.ts',
      'lib/types/api-4.d.ts',
      'lib/types/schemas/4/translation.schema.json',
      'data/languages/catalog.json',
      'data/languages/LICENSE',
      'data/fonts/dejavu-sans-widths.json',
      'LICENSE',
    ])
      expect(files).toContain(`package/${file}`);
  });

  it('installs runtime dependencies only: no tsx, TypeScript, serve or test tools', () => {
    const installed = readdirSync(join(app, 'node_modules'));
    expect(installed).toContain('weblate-snapshot');
    for (const name of ['tsx', 'typescript', 'esbuild', 'serve', 'vitest', 's3rver', 'node24'])
      expect(installed).not.toContain(name);
    expect(existsSync(join(app, 'node_modules/.cache'))).toBe(false);
  });

  it('gives a TypeScript project the API and the reader types', async () => {
    writeFileSync(
      join(app, 'consumer.mts'),
      [
        "import { build, CommandFailed, type Summary } from 'weblate-snapshot';",
        "import type { Translation } from 'weblate-snapshot/types/4';",
        "import type { Translation as Translation2026 } from 'weblate-snapshot/types/2026.8';",
        "import type { Language as Language510 } from 'weblate-snapshot/types/5.10';",
        "export const run = (): Promise<Summary> => build({ content: 'content', baseUrl: 'https://x.org' });",
        'export const failed = (error: unknown) => error instanceof CommandFailed && error.exitCode;',
        'export type Read = Translation | Translation2026;',
        'export const languageId = (language: Language510): number => language.id;',
      ].join('\n'),
    );
    const config = {
      compilerOptions: { module: 'nodenext', strict: true, noEmit: true, types: [] },
    };
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({ ...config, files: ['consumer.mts'] }),
    );
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const checked = await run(process.execPath, [tsc, '-p', app], { cwd: app }).catch(
      (error: { stdout: string }) => ({ stdout: error.stdout }),
    );
    expect(checked.stdout).toBe('');
  });

  describe.each(NODES)('on %s', (name, node) => {
    const tool = installedTool(node);

    it("lists every command, each module loaded, and prints a command's help", async () => {
      // The list describes each command from its own module: one start loads all eight. (A start
      // for each command's -h took half a second of CPU; each command's usage is checked by
      // issue-23-cli-flags.test.ts.)
      const { stdout } = await tool(['--help']);
      for (const command of COMMANDS) expect(stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
      expect((await tool(['deploy', '-h'])).stdout).toContain(
        'Usage: weblate-snapshot deploy [options]',
      );
      expect((await tool(['--version'])).stdout).toBe(`${packageVersion()}\n`);
    });

    it('builds the content with the data it ships', async () => {
      const built = await buildWith(tool, join(work, `built-${name.replace(' ', '')}`));
      expect(built).toMatchObject({ ok: true, translations: 19 });
    });

    it('runs the programmatic API', async () => {
      const script = [
        "import { check, CommandFailed } from 'weblate-snapshot';",
        `const summary = await check({ content: ${JSON.stringify(join(ROOT, 'content'))} });`,
        "const failed = await check({ content: '/nonexistent' }).catch((error) => error);",
        'console.log(JSON.stringify({ summary, refused: failed instanceof CommandFailed, code: failed.exitCode }));',
      ].join('\n');
      const { stdout } = await run(node, ['--input-type=module', '-e', script], {
        cwd: app,
        env: ENV,
      });
      expect(JSON.parse(stdout)).toMatchObject({
        summary: { command: 'check', ok: true, translations: 19 },
        refused: true,
        code: 1,
      });
    });
  });

  // The commands that reach a network run on the newest Node only: on Node 20, the oldest the
  // package supports, every other test runs them from the same compiled JavaScript.
  describe('on Node 24, with a network', () => {
    const node = NODES[1][1];
    const tool = installedTool(node);
    // One installed sidecar (read-only) for both the pull and the mirror: a start builds a tree.
    let sidecar: Awaited<ReturnType<typeof startInstalledSidecar>>;
    beforeAll(async () => {
      sidecar = await startInstalledSidecar(node, join(work, 'sidecar-24'));
    });
    afterAll(async () => {
      await sidecar?.stop();
    });

    it('builds, pulls from its own sidecar, and deploys to a local S3 store', async () => {
      const dir = join(work, 'node24');
      expect(await buildWith(tool, join(dir, 'dist'))).toMatchObject({
        ok: true,
        translations: 19,
      });

      const pulled = JSON.parse(
        (await tool(['pull', '--from', sidecar.api, '--out', join(dir, 'pulled'), '--json']))
          .stdout,
      ) as { ok: boolean; translations: number };
      expect(pulled).toMatchObject({ ok: true, translations: 19 });

      const prefix = 'node24';
      const to = `s3://${BUCKET}/${prefix}`;
      const deployed = JSON.parse(
        (
          await tool(
            ['deploy', '--out', join(dir, 'dist'), '--to', to, '--endpoint', s3.url, '--json'],
            TEST_AWS_ENV,
          )
        ).stdout,
      ) as { ok: boolean; uploaded: number };
      expect(deployed.ok).toBe(true);
      const keys = await listBucket(s3.url, BUCKET, `${prefix}/`);
      expect(keys.has(`${prefix}/api/projects/index.json`)).toBe(true);
    });

    it('mirrors its sidecar into the S3 store with one command, refreshed by a signed delivery', async () => {
      const dir = join(work, 'mirror24');
      const prefix = 'mirror24';
      const { key, file: secretFile } = writeWebhookSecret(work, `${prefix}.secret`);
      const mirrorArgs = [
        ...['mirror', '--from', sidecar.api, '--to', `s3://${BUCKET}/${prefix}`],
        ...['--endpoint', s3.url, '--work', join(dir, 'work'), '--allow-base-url'],
      ];
      const listening = startInstalledMirror(node, [
        ...mirrorArgs,
        ...['--listen', '0', '--webhook-secret-file', secretFile],
      ]);
      try {
        const { url, output } = await listening;
        const keys = await listBucket(s3.url, BUCKET, `${prefix}/`);
        expect(keys.has(`${prefix}/api/projects/docs/index.json`)).toBe(true);
        const body = JSON.stringify({ change_id: 1, project: 'docs', component: 'user-guide' });
        const forged = await postSigned(url, body, randomBytes(32));
        expect(forged).toBe(401);
        expect(output.text()).not.toContain('Refreshing of');
        expect(await postSigned(url, body, key)).toBe(202);
        await output.waitFor(
          /Refreshing of docs\/user-guide\.\npull: [^\n]*\n(.*\n)*?deploy: /,
          'the refresh',
        );
      } finally {
        await (await listening.catch(() => null))?.stop();
      }
    });
  });
});

// --- helpers ---

/** The installed package's command line, run by `node`; a non-zero exit throws. */
function installedTool(node: string) {
  return (args: string[], env: Record<string, string> = {}) =>
    run(node, [join(app, 'node_modules/weblate-snapshot/bin/weblate-snapshot.js'), ...args], {
      cwd: app,
      env: { ...ENV, ...env },
      maxBuffer: 1 << 26,
    });
}

/** `build --json` of the repository's content into `out`: its summary. */
async function buildWith(tool: ReturnType<typeof installedTool>, out: string) {
  const args = ['build', '--content', join(ROOT, 'content'), '--out', out, '--json'];
  return JSON.parse((await tool(args)).stdout) as { ok: boolean; translations: number };
}

function packageVersion(): string {
  return (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string })
    .version;
}

/** The installed sidecar, read-only, on a free port of loopback, its links at its own address. */
async function startInstalledSidecar(node: string, dir: string) {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const args = ['sidecar', '--content', join(ROOT, 'content'), '--out', join(dir, 'served')];
  const { stop } = await startInstalled(
    node,
    [...args, '--read-only', '--bind', '127.0.0.1', '--port', String(port), '--base-url', origin],
    { WEBLATE_SNAPSHOT_TOKENS: '' },
    [/ at http:\/\/127\.0\.0\.1:\d+\S*\/api\/ /],
  );
  return { api: `${origin}/api/`, stop };
}

/** `weblate-snapshot mirror --listen 0` of the installed package; resolves once its first refresh deployed. */
async function startInstalledMirror(node: string, args: string[]) {
  const started = await startInstalled(node, args, TEST_AWS_ENV, [
    /deliveries at (http:\/\/\S+\/)\n/,
    /^deploy: /m,
  ]);
  return { ...started, url: started.matches[0]![1]! };
}

/** A command of the installed package as a process, once its output has shown each of `ready` in turn. */
async function startInstalled(
  node: string,
  args: string[],
  env: Record<string, string>,
  ready: RegExp[],
) {
  const bin = join(app, 'node_modules/weblate-snapshot/bin/weblate-snapshot.js');
  const child = spawn(node, [bin, ...args], {
    cwd: app,
    env: { ...ENV, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = childOutput(child);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  const matches: RegExpExecArray[] = [];
  try {
    for (const pattern of ready) matches.push(await output.waitFor(pattern, String(pattern)));
  } catch (error) {
    await stop();
    throw new Error(`the installed ${args[0]} did not start:\n${output.text()}`, { cause: error });
  }
  return { output, stop, matches };
}

/** A delivery signed as Weblate's Webhooks add-on signs it; its answer's status. */
async function postSigned(url: string, body: string, key: Buffer): Promise<number> {
  const { headers } = signedDelivery(key, body);
  const response = await fetch(url, { method: 'POST', body, headers });
  await response.arrayBuffer();
  return response.status;
}
