/**
 * Issue 26, item 3: a counter change redraws only the PNG widgets whose drawing changed, also in
 * a new process. The renderings are kept in the tree's state folder by a key of their drawing, so
 * a cold build, a `--watch` restart or mirror's next run takes the unchanged ones from there. Each
 * build below runs in a process of its own, which reports how many PNGs it drew.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { pngCache } from '../../src/tree/png-cache.ts';
import { compiledModule, ROOT, tempDir, writeFiles } from '../helpers.ts';

const run = promisify(execFile);

/** A project of one component whose source has 10,000 strings, `translated` of them in Czech. */
function component(translated: number): string {
  return [
    'name: App',
    'source_language: en',
    'repo: https://git.example.org/hello.git',
    'filemask: po/*.po',
    'file_format: po',
    'source:',
    '  total: 10000',
    'translations:',
    '  cs:',
    `    translated: ${translated}`,
  ].join('\n');
}

function setUp(): { content: string; out: string; script: string } {
  const dir = tempDir();
  const content = join(dir, 'content');
  writeFiles(content, {
    'site.yaml': 'base_url: http://snapshot.test\npages: true\n',
    'projects/hello/project.yaml': 'name: Hello\n',
    'projects/hello/components/app.yaml': component(5000),
  });
  const script = join(dir, 'build.mjs');
  writeFileSync(
    script,
    [
      `import { buildDirectory } from ${JSON.stringify(compiledModule('src/build.ts'))};`,
      `const [contentDir, outDir, full] = process.argv.slice(2);`,
      `const report = await buildDirectory({ contentDir, outDir, full: full === 'full' });`,
      `console.log(JSON.stringify({ errors: report.errors.map((e) => e.message), mode: report.mode, drawn: report.pngsDrawn }));`,
    ].join('\n'),
  );
  return { content, out: join(dir, 'out'), script };
}

/** Builds in a new process: its mode and the PNGs it drew. */
async function buildInNewProcess(
  space: { content: string; out: string; script: string },
  full = false,
): Promise<{ mode: string; drawn: number }> {
  const args = [space.script, space.content, space.out, full ? 'full' : ''];
  const { stdout } = await run(process.execPath, args, { cwd: ROOT });
  const result = JSON.parse(stdout) as { errors: string[]; mode: string; drawn: number };
  expect(result.errors).toEqual([]);
  return { mode: result.mode, drawn: result.drawn };
}

function setTranslated(content: string, translated: number): void {
  writeFileSync(join(content, 'projects/hello/components/app.yaml'), component(translated));
}

const PROJECT_PNGS = 8;

describe('PNG widgets drawn again across processes', () => {
  it('draws none when a counter moves and every drawing stays the same', async () => {
    const space = setUp();
    expect(await buildInNewProcess(space)).toEqual({ mode: 'fresh', drawn: PROJECT_PNGS });
    const badge = readFileSync(join(space.out, 'widgets/hello/-/status-badge.png'));
    // 5,001 of 10,000 is still 50.0 %: the project's widget folder is rendered again, its drawings are not.
    setTranslated(space.content, 5001);
    expect(await buildInNewProcess(space)).toEqual({ mode: 'in-place', drawn: 0 });
    expect(readFileSync(join(space.out, 'widgets/hello/-/status-badge.png'))).toEqual(badge);
    // A whole new tree from a new process takes them from the state folder too.
    expect(await buildInNewProcess(space, true)).toEqual({ mode: 'fresh', drawn: 0 });
    expect(readFileSync(join(space.out, 'widgets/hello/-/status-badge.png'))).toEqual(badge);
  }, 120_000);

  it('draws the changed drawings only, and none when the figures come back', async () => {
    const space = setUp();
    await buildInNewProcess(space);
    const before = readFileSync(join(space.out, 'widgets/hello/-/287x66-white.png'));
    setTranslated(space.content, 6000);
    expect(await buildInNewProcess(space)).toEqual({ mode: 'in-place', drawn: PROJECT_PNGS });
    setTranslated(space.content, 5000);
    expect(await buildInNewProcess(space)).toEqual({ mode: 'in-place', drawn: 0 });
    expect(readFileSync(join(space.out, 'widgets/hello/-/287x66-white.png'))).toEqual(before);
  }, 120_000);

  it('draws a rendering again when its kept file is damaged', async () => {
    const space = setUp();
    await buildInNewProcess(space);
    const kept = join(`${space.out}.state`, 'png');
    const files = readdirSync(kept);
    expect(files).toHaveLength(PROJECT_PNGS);
    const damaged = join(kept, files[0]!);
    const bytes = readFileSync(damaged);
    bytes[20] = bytes[20]! ^ 0xff;
    writeFileSync(damaged, bytes);
    expect(await buildInNewProcess(space, true)).toEqual({ mode: 'fresh', drawn: 1 });
  }, 120_000);
});

describe('the renderings kept in the state folder', () => {
  it('stay within their size, making room from the unused, then the least recently used', () => {
    const out = join(tempDir(), 'out');
    const png = (byte: number) => new Uint8Array(96).fill(byte);
    // Room for two renderings of 100 bytes (96 and a CRC-32).
    const first = pngCache(out, 200);
    first.put('a', png(1));
    first.put('b', png(2));
    first.put('c', png(3));
    expect(readdirSync(join(`${out}.state`, 'png')).sort()).toEqual(['b.100', 'c.100']);
    // A new process makes room from the renderings it did not use first.
    const second = pngCache(out, 200);
    expect(Buffer.from(second.get('c')!)).toEqual(Buffer.from(png(3)));
    second.put('d', png(4));
    expect(readdirSync(join(`${out}.state`, 'png')).sort()).toEqual(['c.100', 'd.100']);
    expect(second.has('b')).toBe(false);
    // Then, a long session, from the least recently used.
    second.put('e', png(5));
    expect(readdirSync(join(`${out}.state`, 'png')).sort()).toEqual(['d.100', 'e.100']);
  });
});
