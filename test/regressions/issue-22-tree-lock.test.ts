/**
 * Issue 22, item 10: a hand edit plus `build` while the sidecar ran made the sidecar's next write
 * revert that edit in the served tree (it updates the tree from its own model). Now one process
 * writes a tree at a time: a lock in the tree's state folder, taken by a build, build --watch and
 * the sidecar, refuses the second writer with a message naming the first; a lock whose process
 * is gone is taken over.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runScript } from '../support/run-script.ts';
import { startSidecar, workspace, type RunningSidecar } from '../sidecar/support.ts';

describe('one writer per tree', () => {
  it('refuses a build while the sidecar holds the tree, naming it, and builds once it stopped', async () => {
    const space = workspace('minimal');
    const sidecar = await startSidecar(space);
    const project = join(space.out, 'api/projects/hello/index.json');
    const before = readFileSync(project, 'utf8');
    const file = join(space.content, 'projects/hello/project.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^name: .*$/m, 'name: Edited by hand'));
    let refused;
    try {
      refused = await runScript('build', ['--content', space.content, '--out', space.out]);
    } finally {
      expect(await sidecar.stop()).toBe(0);
    }
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `${space.out}/ is being written by the sidecar (pid ${sidecar.child.pid}, since `,
    );
    expect(refused.stderr).toContain('one process writes a tree at a time: stop it');
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect(readFileSync(project, 'utf8')).toBe(before);
    const built = await runScript('build', ['--content', space.content, '--out', space.out]);
    expect(built.code).toBe(0);
    expect(readFileSync(project, 'utf8')).toContain('"name":"Edited by hand"');
    expect(existsSync(join(`${space.out}.state`, 'lock'))).toBe(false);
  });

  it('refuses a second sidecar on the same tree', async () => {
    const space = workspace('minimal');
    const first = await startSidecar(space);
    let second: RunningSidecar | Error;
    try {
      second = await startSidecar(space).catch((error: Error) => error);
      if (!(second instanceof Error)) await second.stop();
    } finally {
      expect(await first.stop()).toBe(0);
    }
    expect(second).toBeInstanceOf(Error);
    expect((second as Error).message).toContain(
      `is being written by the sidecar (pid ${first.child.pid}`,
    );
  });

  it('takes over the lock of a sidecar that was killed', async () => {
    const space = workspace('minimal');
    const sidecar = await startSidecar(space);
    await sidecar.kill();
    expect(existsSync(join(`${space.out}.state`, 'lock'))).toBe(true);
    const built = await runScript('build', ['--content', space.content, '--out', space.out]);
    expect(built.stderr).toBe('');
    expect(built.code).toBe(0);
  });
});
