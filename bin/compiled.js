/**
 * Runs the package's TypeScript as plain JavaScript. The sources (src/,
 * scripts/, bench/) are compiled file by file into
 * node_modules/.cache/weblate-snapshot/, and a file is compiled again when
 * its text changes: each start hashes the sources (under 1 MB, a few
 * milliseconds) and compares them with the record of the last compile. A
 * command then starts without a TypeScript loader, about 0.2 s sooner: what
 * a scheduled `npm run build` with a few files to rewrite mostly spends.
 *
 * The compile is transpilation only (TypeScript's transpileModule, as tsx
 * does with esbuild; `npm test` type-checks). Where it cannot run (no
 * `typescript` package: an install without dev dependencies; a read-only
 * node_modules), the sources run through tsx, as they always could.
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname } from 'node:path';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';

const ROOT = new URL('../', import.meta.url);
const OUT = new URL('node_modules/.cache/weblate-snapshot/', ROOT);
const RECORD = new URL('record.json', OUT);
const PACKAGE_FILE = new URL('package.json', OUT);
const SOURCE_FOLDERS = ['src/', 'scripts/', 'bench/'];

/** Imports a module of the package by its source path (`scripts/build.ts`): compiled when it can be, else through tsx. */
export async function importSource(path) {
  const compiled = await compiledTree();
  if (compiled) return import(new URL(path.replace(/\.ts$/, '.js'), compiled).href);
  const { register } = await import('tsx/esm/api');
  register();
  return import(new URL(path, ROOT).href);
}

/** The compiled tree, brought up to date with the sources; null when it cannot be. */
export async function compiledTree() {
  const sources = hashSources();
  // A source whose name the cache cannot hold (none today) runs through tsx, as everything can.
  if (![...sources.keys()].every(isSourcePath)) return null;
  const record = readRecord();
  // A compiled file that went missing is compiled again, whatever the record says.
  const stale = [...sources]
    .filter(([path, hash]) => record.files[path] !== hash || !existsSync(outputOf(path)))
    .map(([path]) => path);
  // The record is a file like any other: only a source path's output inside the cache is removed.
  const gone = Object.keys(record.files).filter((path) => !sources.has(path) && isSourcePath(path));
  if (stale.length === 0 && gone.length === 0 && existsSync(PACKAGE_FILE)) return OUT;
  let typescript;
  try {
    typescript = (await import('typescript')).default;
  } catch {
    return null;
  }
  try {
    const compile = compiler(typescript);
    if (record.compiler !== compile.version) stale.splice(0, stale.length, ...sources.keys());
    for (const path of stale) writeAtomically(outputOf(path), compile.file(path));
    for (const path of gone) rmSync(outputOf(path), { force: true });
    // Without a package.json of its own, a .js file inside node_modules is taken for CommonJS.
    writeAtomically(PACKAGE_FILE, '{"type":"module","private":true}\n');
    writeAtomically(
      RECORD,
      JSON.stringify({ compiler: compile.version, files: Object.fromEntries(sources) }),
    );
    return OUT;
  } catch {
    return null;
  }
}

/** Each source file (path from the root) and a hash of its text. */
function hashSources() {
  const hashes = new Map();
  for (const folder of SOURCE_FOLDERS) {
    const dir = new URL(folder, ROOT);
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) =>
      file.endsWith('.ts'),
    );
    for (const file of files.sort()) {
      hashes.set(
        folder + file,
        createHash('sha1')
          .update(readFileSync(new URL(file, dir)))
          .digest('base64'),
      );
    }
  }
  return hashes;
}

function readRecord() {
  try {
    const record = JSON.parse(readFileSync(RECORD, 'utf8'));
    return { compiler: String(record.compiler), files: { ...record.files } };
  } catch {
    return { compiler: '', files: {} };
  }
}

/** TypeScript's transpiler with the options the sources are written for, and a version that changes with them. */
function compiler(typescript) {
  const options = {
    target: typescript.ScriptTarget.ES2022,
    module: typescript.ModuleKind.ESNext,
    verbatimModuleSyntax: true,
    rewriteRelativeImportExtensions: true,
  };
  return {
    version: `${typescript.version} ${JSON.stringify(options)}`,
    file(path) {
      const source = readFileSync(new URL(path, ROOT), 'utf8');
      const result = typescript.transpileModule(source, {
        compilerOptions: options,
        fileName: path,
        reportDiagnostics: false,
      });
      return result.outputText;
    },
  };
}

/** Where a source's compiled file goes: always inside the cache. */
function outputOf(path) {
  const url = new URL(path.replace(/\.ts$/, '.js'), OUT);
  if (!isSourcePath(path) || !url.href.startsWith(OUT.href))
    throw new Error(`Internal error: ${JSON.stringify(path)} is not a source path`);
  return url;
}

/** `src/a/b.ts`: in a source folder, no `.`, `..` or empty segment, nothing a URL reads as syntax. */
function isSourcePath(path) {
  return (
    SOURCE_FOLDERS.some((folder) => path.startsWith(folder)) &&
    path.endsWith('.ts') &&
    !/[%?#\\\0]/.test(path) &&
    path.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..')
  );
}

/** Writes through a temporary file, so that a process starting meanwhile never imports half a file. */
function writeAtomically(url, text) {
  const file = fileURLToPath(url);
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.tmp-${process.pid}`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}
