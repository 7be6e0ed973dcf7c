/**
 * Issue 13, item 3: a tree keeps the settings it was built with. The sidecar started without the
 * build's --base-url rewrote every file of the tree with site.yaml's base URL. Now the sidecar, not
 * given a setting, keeps the tree's; a build given other settings says so in one line, naming old
 * and new, before it rewrites; the sidecar refuses without --rebuild. Since issue 22 a plain build
 * no longer keeps the flags of the build before it: a flag holds for its run, and site.yaml counts.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTree } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';
import { runScript } from '../support/run-script.ts';
import { startSidecar, workspace } from '../sidecar/support.ts';

const BUILT_WITH = 'http://127.0.0.1:9/mirror';

/** Every file of the tree with its inode and modification time: what a rewrite would change. */
function stamps(dir: string): Map<string, string> {
  return new Map(
    [...readTree(dir).keys()].map((path) => [
      path,
      `${statSync(join(dir, path)).ino}:${statSync(join(dir, path)).mtimeMs}`,
    ]),
  );
}

describe('settings kept with a tree', () => {
  it('the sidecar started without the build flags serves the tree as built, touching no file', async () => {
    const space = workspace('minimal');
    expect(
      (
        await runCli('build', [
          '--content',
          space.content,
          '--out',
          space.out,
          '--base-url',
          BUILT_WITH,
        ])
      ).code,
    ).toBe(0);
    const before = stamps(space.out);
    const sidecar = await startSidecar(space, { args: ['--read-only'] });
    try {
      expect(sidecar.api).toMatch(/\/mirror\/api\/$/);
      const root = (await (await fetch(sidecar.api)).json()) as { projects: string };
      expect(root.projects).toBe(`${BUILT_WITH}/api/projects/`);
    } finally {
      await sidecar.stop();
    }
    expect(stamps(space.out)).toEqual(before);
  });

  it('the sidecar given other settings refuses, naming old and new, and starts with --rebuild', async () => {
    const space = workspace('minimal');
    expect(
      (
        await runCli('build', [
          '--content',
          space.content,
          '--out',
          space.out,
          '--base-url',
          BUILT_WITH,
        ])
      ).code,
    ).toBe(0);
    const before = stamps(space.out);
    const refused = await runScript('sidecar', [
      '--content',
      space.content,
      '--out',
      space.out,
      '--read-only',
      '--port',
      '0',
      '--page-size',
      '7',
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'was built with other settings (page size 50 → 7); the sidecar would rewrite the whole tree.',
    );
    expect(refused.stderr).toContain('--rebuild');
    expect(stamps(space.out)).toEqual(before);
    const sidecar = await startSidecar(space, {
      args: ['--read-only', '--page-size', '7', '--rebuild'],
    });
    await sidecar.stop();
    expect(sidecar.output()).toContain(
      'was built with other settings (page size 50 → 7): writing a whole new tree.',
    );
    expect(readTree(space.out).get('api/projects/index.json')).toContain(
      `${BUILT_WITH}/api/projects/`,
    );
  });

  it('a later build without flags takes site.yaml again, saying what changes first; the same build again rewrites nothing', async () => {
    const space = workspace('minimal');
    const build = (...args: string[]) =>
      runCli('build', ['--content', space.content, '--out', space.out, ...args]);
    expect((await build('--base-url', BUILT_WITH, '--host', 'netlify')).code).toBe(0);
    const plain = await build();
    expect(plain.code).toBe(0);
    expect(plain.stderr).toBe(
      `${space.out}/ was built with other settings (base URL ${BUILT_WITH} → http://snapshot.test, web URL ${BUILT_WITH} → http://snapshot.test, host netlify → none): writing a whole new tree.\n`,
    );
    expect(readTree(space.out).has('_redirects')).toBe(false);
    const again = await build();
    expect(again.stdout).toMatch(/in place: 0 files rewritten/);
    expect(again.stderr).toBe('');
  });
});
