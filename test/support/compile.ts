/**
 * Vitest's global setup: the sources compiled once by tsc, as `npm pack` compiles them into lib/
 * (tsconfig.build.json), with the benchmark beside them (tsconfig.compiled.json), before any test
 * file starts. Tests that need a real process then start the compiled script with node (see
 * helpers.ts#scriptArgs), as the package runs, without tsx's second or two, and no two test
 * workers compile at the same time; a compiled bench starts its own steps compiled too
 * (bench/processes.ts). The compile is incremental: a run after a small edit rewrites only what
 * changed.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The compiled tree's folder (scripts/ and src/ as .js). */
    compiledRoot: string;
  }
}

const ROOT = new URL('../..', import.meta.url).pathname;
/**
 * A folder of its own for each checkout: git worktrees that share one node_modules (linked) would
 * otherwise compile their sources over each other's while their tests run.
 */
const OUT = join(
  ROOT,
  'node_modules/.cache/weblate-snapshot-tests',
  createHash('sha256').update(ROOT).digest('hex').slice(0, 12),
);

/**
 * The compile under way or done, shared by the projects of the run: vitest runs a global setup
 * once per project, and two compiles at once (each about 5 s of CPU with nothing to do) would
 * write the same files.
 */
const shared = globalThis as { wsnapCompile?: Promise<void>; wsnapRecompile?: Promise<void> };

export default async function compile(project: TestProject): Promise<void> {
  await (shared.wsnapCompile ??= compileSources());
  project.provide('compiledRoot', OUT);
  // In watch mode, a source edited since is compiled again before the tests run again.
  project.onTestsRerun(
    () => (shared.wsnapRecompile ??= compileSources().finally(() => delete shared.wsnapRecompile)),
  );
}

async function compileSources(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  // Without a package.json of its own, a .js file inside node_modules is taken for CommonJS.
  writeFileSync(join(OUT, 'package.json'), '{"type":"module","private":true}\n');
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
  const config = join(ROOT, 'test/support/tsconfig.compiled.json');
  const args = ['-p', config, '--outDir', OUT, '--declaration', 'false'];
  const incremental = ['--incremental', '--tsBuildInfoFile', join(OUT, 'tsbuildinfo')];
  // Type errors are `npm test`'s tsc's to report; the JavaScript is written all the same.
  await promisify(execFile)(process.execPath, [tsc, ...args, ...incremental], { cwd: ROOT }).catch(
    (error: { stdout?: string }) => {
      if (!existsSync(join(OUT, 'scripts/weblate-snapshot.js'))) throw error;
    },
  );
  // JavaScript already, which tsc does not copy: the bench's local S3 server, started beside it.
  copyFileSync(join(ROOT, 'bench/s3rver-child.mjs'), join(OUT, 'bench/s3rver-child.mjs'));
}
