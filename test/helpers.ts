/** Shared test helpers: temporary folders, content trees written from tables, in-memory builds. */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import {
  mkdtempSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { inject } from 'vitest';
import { build, type BuildReport } from '../src/build.ts';
import type { SettingsOverrides } from '../src/resolve/resolve.ts';
import type { Settings } from '../src/model/types.ts';
import { memoryTarget } from '../src/output/target.ts';

export const ROOT = new URL('..', import.meta.url).pathname;

/** Settings with the defaults a build resolves (flavour 4, no pages), and the given settings. */
export function testSettings(settings: Partial<Settings> & { baseUrl: string }): Settings {
  return {
    webUrl: settings.baseUrl,
    pageSize: 50,
    pagination: 'path',
    weblateVersion: '4',
    pages: false,
    pngWidgets: 'projects',
    editUrl: null,
    title: null,
    ...settings,
  };
}
export const FIXTURES = join(ROOT, 'test/fixtures');

/** Node arguments that run a TypeScript entry point from any working directory. */
export const TSX = ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href];

/**
 * The commands, which the package runs compiled, and the benchmark (compiled for the tests alone:
 * `npm run bench` runs it through tsx, which test/bench.test.ts keeps checking); the other
 * scripts (`generate-content`) run through tsx.
 */
const COMPILED_SCRIPTS = new Set([
  'bench',
  'build',
  'check',
  'serve',
  'sidecar',
  'pull',
  'deploy',
  'mirror',
  'types',
]);

/**
 * Node arguments that start `scripts/<script>.ts` as a real process, as the package runs it: a
 * command from the copy compiled once before the tests (test/support/compile.ts), the others
 * through tsx.
 */
export function scriptArgs(script: string): string[] {
  const compiled = COMPILED_SCRIPTS.has(script) ? inject('compiledRoot') : '';
  return compiled
    ? [join(compiled, `scripts/${script}.js`)]
    : [...TSX, join(ROOT, `scripts/${script}.ts`)];
}

/**
 * The URL by which a child process imports a module of the repository (`src/build.ts`): its copy
 * compiled before the tests, which plain node runs without tsx's start-up (a second or two of CPU
 * for each process).
 */
export function compiledModule(path: string): string {
  return pathToFileURL(join(inject('compiledRoot'), path.replace(/\.ts$/, '.js'))).href;
}

/**
 * A temporary folder removed after the test file (by test/support/temp-dirs.ts: an `afterAll`
 * registered here, from inside a test, would never run).
 */
export function tempDir(prefix = 'wsnap-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  madeFolders.add(dir);
  return dir;
}

/** Removes every folder tempDir() made so far. */
export function removeTempDirs(): void {
  for (const dir of madeFolders) rmSync(dir, { recursive: true, force: true });
  madeFolders.clear();
}

const madeFolders = new Set<string>();

/** Writes files (relative path → text) under `dir`, in the given order. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/**
 * Every file under `dir`, relative path → text, in sorted order; `without` names files left out
 * (a pull's record or resume file says when it ran, which differs between runs).
 */
export function readTree(
  dir: string,
  { without = [] }: { without?: string[] } = {},
): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (current: string) => {
    for (const name of readdirSync(current).sort()) {
      const path = join(current, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.set(relative(dir, path), readFileSync(path, 'utf8'));
    }
  };
  walk(dir);
  for (const path of without) files.delete(path);
  return files;
}

/**
 * The tree as `readTree` reads it, or an empty map when a running process removed a
 * file or folder between listing and reading it (the next attempt reads again).
 */
export function readTreeMidWrite(dir: string): Map<string, string> {
  try {
    return readTree(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw error;
  }
}

export interface MemoryBuild {
  report: BuildReport;
  files: ReadonlyMap<string, string>;
  /** The parsed body of an API path such as `/api/projects/`. */
  json(apiPath: string): any;
}

/** Builds a content folder into memory. */
export async function buildInMemory(
  contentDir: string,
  settings: SettingsOverrides = {},
): Promise<MemoryBuild> {
  const target = memoryTarget();
  const report = await build({ contentDir, settings }, { target });
  return {
    report,
    files: target.files,
    json(apiPath) {
      const text = target.files.get(`${apiPath.slice(1)}index.json`);
      if (text === undefined) throw new Error(`no file for ${apiPath}`);
      return JSON.parse(text);
    },
  };
}

export interface ListPage {
  count: number;
  next: string | null;
  previous: string | null;
  results: unknown[];
}

/** Whether a body is one page of a list: exactly Weblate's four keys, in order. */
export function isPage(body: unknown): body is ListPage {
  return (
    typeof body === 'object' &&
    body !== null &&
    !Array.isArray(body) &&
    Object.keys(body).join(',') === 'count,next,previous,results'
  );
}

/** Calls `visit` with every absolute URL in a body and the key it sits under. */
export function collectLinks(
  value: unknown,
  visit: (key: string, url: string) => void,
  key = '',
): void {
  if (typeof value === 'string') {
    if (/^https?:\/\//.test(value)) visit(key, value);
  } else if (Array.isArray(value)) {
    for (const item of value) collectLinks(item, visit, key);
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) collectLinks(v, visit, k);
  }
}
