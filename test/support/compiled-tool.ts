/**
 * The package's bin over the sources compiled before the tests (compile.ts), laid out as the
 * package lays them out (bin/ beside lib/), for `npm run bench -- --tool BIN`: each command the
 * bench times then starts as the installed package starts, without the bench packing and
 * installing the repository (about 20 s of CPU each time), which the package test and one bench
 * test already do.
 */
import { copyFileSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { ROOT, tempDir } from '../helpers.ts';

export function compiledTool(): string {
  const tool = tempDir('wsnap-bench-tool-');
  mkdirSync(join(tool, 'bin'), { recursive: true });
  copyFileSync(join(ROOT, 'bin/weblate-snapshot.js'), join(tool, 'bin/weblate-snapshot.js'));
  symlinkSync(inject('compiledRoot'), join(tool, 'lib'));
  return join(tool, 'bin/weblate-snapshot.js');
}
