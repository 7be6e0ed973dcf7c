/** A large content folder is checked in worker threads; the result is the same as checking it inline. */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeSyntheticContent } from '../bench/synthetic.ts';
import { checkFiles } from '../src/content/check-pool.ts';
import { loadContent } from '../src/content/load.ts';
import { tempDir } from './helpers.ts';

describe('checking content in threads', () => {
  const dir = tempDir();
  beforeAll(async () => {
    // 8 × 12 component files: several chunks of 32 for each thread.
    await writeSyntheticContent(dir, { projects: 8, components: 12, languages: 3, seed: 7 });
    const components = join(dir, 'projects/project-00002/components');
    writeFileSync(join(components, 'broken-yaml.yaml'), 'name: [unclosed\n');
    writeFileSync(
      join(components, 'bad-field.yaml'),
      'name: Bad\nsource_language: en\nfilemask: "*.po"\nfile_format: po\ncolour: red\n',
    );
    writeFileSync(
      join(components, 'bad-counter.yaml'),
      'name: Bad\nsource_language: en\nfilemask: "*.po"\nfile_format: po\nsource: {total: 3}\ntranslations:\n  cs: {translated: 9}\n',
    );
  });

  it('gives the same content and the same errors as checking inline', async () => {
    const inline = await loadContent(dir, { threads: 0 });
    const threaded = await loadContent(dir, { threads: 2, mainThread: false });
    const shared = await loadContent(dir, { threads: 1 });
    expect(inline.content.components.length).toBe(96);
    expect([...new Set(inline.errors.map((e) => e.file.replace(`${dir}/`, '')))].sort()).toEqual([
      'projects/project-00002/components/bad-counter.yaml',
      'projects/project-00002/components/bad-field.yaml',
      'projects/project-00002/components/broken-yaml.yaml',
    ]);
    expect(threaded.checkedInThreads).toBe(1 + 8 + 96 + 3); // site.yaml, projects, components, broken files
    expect(threaded.errors).toEqual(inline.errors);
    expect(threaded.content).toEqual(inline.content);
    expect([...threaded.files.keys()]).toEqual([...inline.files.keys()]);
    expect(shared.errors).toEqual(inline.errors);
    expect(shared.content).toEqual(inline.content);
  });

  it('checks inline when the threads cannot start, with the same result', async () => {
    const inline = await loadContent(dir, { threads: 0 });
    const fallback = await loadContent(dir, {
      threads: 2,
      mainThread: false,
      threadEntry: new URL('./no-such-module.ts', import.meta.url),
    });
    expect(fallback.checkedInThreads).toBe(0);
    expect(fallback.errors).toEqual(inline.errors);
    expect(fallback.content).toEqual(inline.content);
  });

  it('throws when a file cannot be read, as the inline check does', async () => {
    const gone = join(dir, 'projects/project-00001/components/gone.yaml');
    writeFileSync(gone, 'name: Gone\n');
    rmSync(gone);
    const job = {
      file: gone,
      place: { kind: 'component' as const, project: 'project-00001', component: 'gone' },
    };
    await expect(checkFiles([job], { threads: 0 })).rejects.toThrow(/ENOENT.*gone\.yaml/);
    await expect(checkFiles([job], { threads: 1, mainThread: false })).rejects.toThrow(
      /ENOENT.*gone\.yaml/,
    );
  });
});
