/**
 * bin/compiled.js: the commands run as plain JavaScript compiled from the
 * sources, compiled again when a source changes, and through tsx where no
 * compiler is installed. Each test runs a copy of the package whose
 * node_modules links to this one's packages, so its compiled tree is its own.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { ROOT, tempDir } from './helpers.ts';
import { runProgram } from './support/run-script.ts';

const TITLE = 'Static copies of the Weblate REST API from YAML content.';

/**
 * A copy of the package (sources, bin, package.json; data linked) with node_modules linking to
 * this one's packages. `compiled`: with a copy of the tree compiled before the tests, so that a
 * test about one changed source does not wait for every source to compile.
 */
function packageCopy(options: { without?: string; compiled?: boolean } = {}): string {
  const root = join(tempDir(), 'package');
  for (const folder of ['bin', 'src', 'scripts', 'bench'])
    cpSync(join(ROOT, folder), join(root, folder), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(root, 'package.json'));
  symlinkSync(join(ROOT, 'data'), join(root, 'data'));
  mkdirSync(join(root, 'node_modules'));
  for (const name of readdirSync(join(ROOT, 'node_modules'))) {
    if (name.startsWith('.') || name === options.without) continue;
    symlinkSync(join(ROOT, 'node_modules', name), join(root, 'node_modules', name));
  }
  const compiled = inject('compiledRoot');
  if (options.compiled && compiled) cpSync(compiled, compiledTree(root), { recursive: true });
  return root;
}

const compiledTree = (root: string) => join(root, 'node_modules/.cache/weblate-snapshot');
const bin = (root: string, args: string[]) =>
  runProgram(process.execPath, [join(root, 'bin/weblate-snapshot.js'), ...args], { cwd: root });

describe('the compiled commands', () => {
  it('compile the sources once, and run from the compiled copy', async () => {
    const root = packageCopy();
    const first = await bin(root, ['check', '--content', join(ROOT, 'content')]);
    expect(first.stdout).toMatch(/is valid: 2 projects/);
    const record = JSON.parse(readFileSync(join(compiledTree(root), 'record.json'), 'utf8')) as {
      files: Record<string, string>;
    };
    expect(Object.keys(record.files)).toContain('src/build.ts');
    expect(Object.keys(record.files)).toContain('scripts/weblate-snapshot.ts');
    // Relative imports point at the compiled files; the type-only ones are gone.
    const compiled = readFileSync(join(compiledTree(root), 'src/cache/cold-build.js'), 'utf8');
    expect(compiled).toContain('from "../tree/manifest.js"');
    expect(compiled).not.toMatch(/import type|\.ts["']/);
  });

  it('compile a source again when its text changes', async () => {
    const root = packageCopy({ compiled: true });
    expect((await bin(root, ['--help'])).stdout).toContain(TITLE);
    const dispatcher = join(root, 'scripts/weblate-snapshot.ts');
    writeFileSync(
      dispatcher,
      readFileSync(dispatcher, 'utf8').replace(TITLE, 'Changed since the last compile.'),
    );
    const help = await bin(root, ['--help']);
    expect(help.stdout).toContain('Changed since the last compile.');
    expect(readFileSync(join(compiledTree(root), 'scripts/weblate-snapshot.js'), 'utf8')).toContain(
      'Changed since the last compile.',
    );
  });

  it('forget the compiled file of a source that is gone', async () => {
    const root = packageCopy({ compiled: true });
    writeFileSync(join(root, 'src/leftover.ts'), 'export const leftover = 1;\n');
    await bin(root, ['--version']);
    expect(existsSync(join(compiledTree(root), 'src/leftover.js'))).toBe(true);
    rmSync(join(root, 'src/leftover.ts'));
    await bin(root, ['--version']);
    expect(existsSync(join(compiledTree(root), 'src/leftover.js'))).toBe(false);
  });

  it('run through tsx where TypeScript is not installed (an install without dev dependencies)', async () => {
    const root = packageCopy({ without: 'typescript' });
    const result = await bin(root, ['check', '--content', join(ROOT, 'content')]);
    expect(result.stdout).toMatch(/is valid: 2 projects/);
    expect(existsSync(compiledTree(root))).toBe(false);
  });

  it('speak of npm run in the usage of an npm script', async () => {
    const root = packageCopy({ compiled: true });
    const result = await runProgram(
      process.execPath,
      [join(root, 'bin/npm-script.js'), 'build', '--help'],
      { cwd: root },
    );
    expect(result.stdout).toContain('Usage: npm run build -- [options]');
  });
});
