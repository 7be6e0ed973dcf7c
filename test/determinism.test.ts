/** The same content gives a byte-identical tree, whatever order its files were created or read in. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildInMemory, FIXTURES, ROOT, tempDir, writeFiles } from './helpers.ts';

function contentFiles(dir: string): [string, string][] {
  const files: [string, string][] = [];
  const walk = (current: string) => {
    for (const name of readdirSync(current)) {
      const path = join(current, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.push([relative(dir, path), readFileSync(path, 'utf8')]);
    }
  };
  walk(dir);
  return files;
}

describe.each([
  ['the default content', join(ROOT, 'content')],
  ['fixture "features"', join(FIXTURES, 'features/content')],
])('building %s', (_, contentDir) => {
  it('twice gives identical bytes', async () => {
    const first = await buildInMemory(contentDir);
    const second = await buildInMemory(contentDir);
    expect(second.files).toEqual(first.files);
  });

  it('from a copy whose files were created in reverse order gives identical bytes', async () => {
    const copy = join(tempDir(), 'content');
    const files = contentFiles(contentDir).sort(([a], [b]) => (a < b ? 1 : -1));
    writeFiles(copy, Object.fromEntries(files));
    const original = await buildInMemory(contentDir);
    const reordered = await buildInMemory(copy);
    expect([...reordered.files.keys()].sort()).toEqual([...original.files.keys()].sort());
    for (const [path, text] of original.files) expect(reordered.files.get(path), path).toBe(text);
  });
});
