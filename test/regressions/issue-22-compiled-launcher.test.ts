/**
 * Issue 22, item 11: bin/compiled.js removed the compiled file of every source its record named and
 * the sources lacked, wherever that path led (`../../../x.ts` or an absolute path deleted a `.js`
 * outside its cache), and trusted the record that a compiled file existed (one deleted file, or the
 * cache's package.json, broke every command until the cache was wiped). Now every path stays inside
 * the cache and what is missing is compiled again. Each test runs a copy of the package.
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
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers.ts';
import { runProgram } from '../support/run-script.ts';

/** A copy of the package (sources, bin, package.json; data linked) with node_modules linking to this one's packages. */
function packageCopy(): string {
  const root = join(tempDir(), 'package');
  for (const folder of ['bin', 'src', 'scripts', 'bench'])
    cpSync(join(ROOT, folder), join(root, folder), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(root, 'package.json'));
  symlinkSync(join(ROOT, 'data'), join(root, 'data'));
  mkdirSync(join(root, 'node_modules'));
  for (const name of readdirSync(join(ROOT, 'node_modules'))) {
    if (!name.startsWith('.'))
      symlinkSync(join(ROOT, 'node_modules', name), join(root, 'node_modules', name));
  }
  return root;
}

const cache = (root: string) => join(root, 'node_modules/.cache/weblate-snapshot');
const check = (root: string) =>
  runProgram(
    process.execPath,
    [join(root, 'bin/weblate-snapshot.js'), 'check', '--content', join(ROOT, 'content')],
    { cwd: root },
  );

describe('the compiled-command launcher', () => {
  it('compiles again a compiled file that went missing, and the cache package.json', async () => {
    const root = packageCopy();
    expect((await check(root)).code).toBe(0);
    rmSync(join(cache(root), 'src/resolve/open.js'));
    rmSync(join(cache(root), 'package.json'));
    const again = await check(root);
    expect(again.stderr).toBe('');
    expect(again.stdout).toMatch(/is valid: 2 projects/);
    expect(existsSync(join(cache(root), 'src/resolve/open.js'))).toBe(true);
    expect(existsSync(join(cache(root), 'package.json'))).toBe(true);
  });

  it('removes nothing outside its cache that a crafted record names', async () => {
    const root = packageCopy();
    expect((await check(root)).code).toBe(0);
    const outside = join(tempDir(), 'outside');
    mkdirSync(outside);
    const victims = [join(root, 'victim.js'), join(outside, 'a.js'), join(outside, 'b.js')];
    for (const victim of victims) writeFileSync(victim, 'keep me\n');
    const recordFile = join(cache(root), 'record.json');
    const record = JSON.parse(readFileSync(recordFile, 'utf8'));
    const crafted = [
      '../../../victim.ts',
      'src/../../../../victim.ts',
      join(outside, 'a.ts'),
      pathToFileURL(join(outside, 'b.ts')).href,
    ];
    for (const path of crafted) record.files[path] = 'x';
    writeFileSync(recordFile, JSON.stringify(record));

    const result = await check(root);
    expect(result.stdout).toMatch(/is valid: 2 projects/);
    for (const victim of victims) expect(readFileSync(victim, 'utf8')).toBe('keep me\n');
  });
});
