/**
 * Golden trees: each fixture under test/fixtures/<name>/content is built and
 * compared byte for byte with test/golden/<name>/ (the file list in FILES.txt,
 * then every file). Review a golden diff like code; accept with `npx vitest -u`.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildInMemory, FIXTURES, ROOT } from './helpers.ts';

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
    for (const path of paths) await expect(built.files.get(path)).toMatchFileSnapshot(join(golden, path));
  });
});
