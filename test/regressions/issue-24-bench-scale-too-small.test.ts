/**
 * Issue 24 (found with the bench's tests): `npm run bench -- --projects 1 …` ran its builds, then
 * the mirror refresh changed a counter of project-00002/component-003, which a one-project
 * instance does not hold: the step failed, and the run waited on. A scale too small for the
 * steps a run takes is now a usage error before anything is written; --build-only changes no
 * counter and takes any scale.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';

const tiny = (projects: string, components: string) => [
  '--projects',
  projects,
  '--components',
  components,
  '--languages',
  '1',
];

describe('npm run bench at a scale too small for its steps', () => {
  it.each([
    [[...tiny('1', '4'), '--refresh-only'], 'project-00002/component-003', '2', '3'],
    [[...tiny('3', '2'), '--requests-only'], 'project-00002/component-003', '2', '3'],
    [[...tiny('1', '1')], 'project-00002/component-003', '2', '3'],
    [[...tiny('2', '1'), '--store-only', 'memory'], 'project-00001/component-002', '1', '2'],
  ])('%j is a usage error naming the component it changes', async (args, named, p, c) => {
    const dir = join(tempDir(), 'bench');
    const { code, stderr } = await runCli('bench', [...args, '--dir', dir]);
    expect(code).toBe(1);
    expect(stderr).toContain(
      `this run changes a counter of ${named}: give --projects ${p} --components ${c} or more`,
    );
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(dir)).toBe(false);
  });
});
