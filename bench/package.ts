/**
 * The package as a user gets it, for the benchmark and the package test: `npm pack` of a copy of
 * the repository (so that its prepack build never touches the checkout, where a lib/ would change
 * what bin/weblate-snapshot.js runs), installed into an empty folder with runtime dependencies
 * only and no network: the tarball's npm-shrinkwrap.json becomes that folder's lock file, and
 * `npm ci --offline` takes every package from npm's cache by its integrity.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { packageFile } from '../src/package-files.ts';

const run = promisify(execFile);
/** The repository, wherever this module runs from (the sources, or the tests' compiled copy). */
export const ROOT = resolve(fileURLToPath(packageFile('.')));
/** Left out of the copy: what is not the repository's own, and trees it builds. */
const NOT_COPIED = new Set([
  'node_modules',
  '.git',
  'dist',
  'lib',
  'types',
  '.bench',
  'test-artifacts',
]);

/** The environment of a user's shell: no loader in NODE_OPTIONS, none of the variables npm run sets. */
export function userEnv(): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => name !== 'NODE_OPTIONS' && !/^npm_/i.test(name)),
  );
}

/** `npm pack` of a copy of the repository (its node_modules linked) in `dir`: the tarball's path. */
export async function packCopy(dir: string): Promise<string> {
  const copy = join(dir, 'repository');
  cpSync(ROOT, copy, {
    recursive: true,
    filter: (source) => !NOT_COPIED.has(source.slice(ROOT.length).split('/').find(Boolean) ?? ''),
  });
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
  mkdirSync(join(dir, 'packed'));
  await run('npm', ['pack', '--silent', '--pack-destination', join(dir, 'packed')], {
    cwd: copy,
    env: userEnv(),
    maxBuffer: 1 << 26,
  });
  const [name] = readdirSync(join(dir, 'packed'));
  return join(dir, 'packed', name!);
}

/** Installs the tarball into the new folder `dir` without dev dependencies or network: the installed bin's path. */
export async function installOffline(tgz: string, dir: string): Promise<string> {
  mkdirSync(dir);
  await run('tar', ['xzf', tgz, '-C', dir, 'package/npm-shrinkwrap.json']);
  const shrinkwrap = JSON.parse(readFileSync(join(dir, 'package/npm-shrinkwrap.json'), 'utf8')) as {
    packages: Record<string, Record<string, unknown> & { dev?: boolean }>;
  };
  const spec = `file:${tgz}`;
  const root = shrinkwrap.packages['']!;
  const packages: Record<string, unknown> = {
    '': { name: 'app', dependencies: { 'weblate-snapshot': spec } },
    'node_modules/weblate-snapshot': {
      version: root.version,
      resolved: spec,
      dependencies: root.dependencies,
      bin: root.bin,
      engines: root.engines,
    },
  };
  for (const [path, entry] of Object.entries(shrinkwrap.packages))
    if (path !== '' && !entry.dev) packages[path] = entry;
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'app', private: true, dependencies: { 'weblate-snapshot': spec } }),
  );
  writeFileSync(
    join(dir, 'package-lock.json'),
    JSON.stringify({ name: 'app', lockfileVersion: 3, requires: true, packages }),
  );
  await run('npm', ['ci', '--offline', '--omit=dev', '--no-audit', '--no-fund'], {
    cwd: dir,
    env: userEnv(),
  });
  return join(dir, 'node_modules/weblate-snapshot/bin/weblate-snapshot.js');
}
