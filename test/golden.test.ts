/**
 * Golden trees: each fixture under test/fixtures/<name>/content is built and
 * compared byte for byte with test/golden/<name>/ (the file list in FILES.txt,
 * then every file). Review a golden diff like code; accept with `npx vitest -u`.
 */
import { appendFileSync, cpSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildInMemory, FIXTURES, readTree, ROOT, tempDir } from './helpers.ts';

// Fixtures with a content folder (pull-recorded holds recorded API answers instead).
const scenarios = readdirSync(FIXTURES)
  .filter((name) => !name.startsWith('invalid') && existsSync(join(FIXTURES, name, 'content')))
  .sort();

describe.each(scenarios)('golden tree of fixture "%s"', (scenario) => {
  it('matches byte for byte', async () => {
    const built = await buildInMemory(join(FIXTURES, scenario, 'content'));
    expect(built.report.errors).toEqual([]);
    const golden = join(ROOT, 'test/golden', scenario);
    const paths = [...built.files.keys()].sort();
    await expect(paths.join('\n') + '\n').toMatchFileSnapshot(join(golden, 'FILES.txt'));
    // PNG widgets are held by their list only: their bytes are the renderer's (the PNG tests read their pixels).
    for (const path of paths.filter((file) => !file.endsWith('.png')))
      await expect(built.files.get(path)).toMatchFileSnapshot(join(golden, path));
    expect(strayFiles(golden, paths)).toEqual([]);
  });
});

/**
 * The status site of the 2026.8 fixture (components inside categories three deep, a right-to-left
 * language): its pages, badges, charts and exports, byte for byte. Its API is the "current" golden.
 */
describe('golden status site of fixture "current" with pages on', () => {
  it('matches byte for byte', async () => {
    const content = join(tempDir(), 'content');
    cpSync(join(FIXTURES, 'current/content'), content, { recursive: true });
    // Translate and share pages link the same page where translating happens.
    appendFileSync(
      join(content, 'site.yaml'),
      'pages: true\nedit_url: https://hosted.example.org/\n',
    );
    const built = await buildInMemory(content);
    expect(built.report.errors).toEqual([]);
    const golden = join(ROOT, 'test/golden/current-site');
    const paths = [...built.files.keys()].filter((path) => !/^(api|hosts)\//.test(path)).sort();
    await expect(paths.join('\n') + '\n').toMatchFileSnapshot(join(golden, 'FILES.txt'));
    // PNG widgets are held by their list only: their bytes are the renderer's (the PNG tests read their pixels).
    for (const path of paths.filter((file) => !file.endsWith('.png')))
      await expect(built.files.get(path)).toMatchFileSnapshot(join(golden, path));
    expect(strayFiles(golden, paths)).toEqual([]);
  });
});

/** Files of a golden folder that the build no longer writes (a snapshot update leaves them behind). */
function strayFiles(golden: string, paths: readonly string[]): string[] {
  if (!existsSync(golden)) return [];
  const written = new Set([...paths, 'FILES.txt']);
  return [...readTree(golden).keys()].filter((path) => !written.has(path));
}
