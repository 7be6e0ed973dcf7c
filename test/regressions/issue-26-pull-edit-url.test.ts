/**
 * Issue 26, item 5: a mirror's translate and share pages said "translation happens in the Weblate
 * instance this status was taken from" with no link, because pull did not write `edit_url`. Now
 * pull writes the upstream's web URL there, and the mirror's pages link the same page upstream.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../../src/build.ts';
import { dirTarget } from '../../src/output/target.ts';
import { freePort } from '../e2e/servers.ts';
import { readTree } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';
import { startUpstreamSidecar, workspace } from '../sidecar/support.ts';

describe('a pulled mirror links to where translating happens', () => {
  it('writes edit_url from the upstream web URL, and the translate and share pages link there', async () => {
    const space = workspace('minimal');
    const port = await freePort();
    const upstream = `http://127.0.0.1:${port}`;
    const sidecar = await startUpstreamSidecar(space, {
      args: ['--base-url', upstream, '--port', String(port), '--read-only'],
      env: { WEBLATE_SNAPSHOT_TOKENS: '' },
    });
    const pulled = join(space.dir, 'pulled');
    try {
      const result = await runCli('pull', ['--from', `${upstream}/api/`, '--out', pulled]);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
    } finally {
      await sidecar.stop();
    }
    expect(readFileSync(join(pulled, 'site.yaml'), 'utf8')).toContain(`\nedit_url: ${upstream}\n`);

    const mirror = join(space.dir, 'mirror');
    const built = await build(
      { contentDir: pulled, settings: { baseUrl: 'https://mirror.example.org' } },
      { target: dirTarget(mirror) },
    );
    expect(built.errors).toEqual([]);
    const pages = [...readTree(mirror)].filter(([path]) => /^(translate|engage)\//.test(path));
    expect(pages.map(([path]) => path)).toEqual(
      expect.arrayContaining(['translate/hello/app/cs/index.html', 'engage/hello/cs/index.html']),
    );
    for (const [path, html] of pages) {
      const page = path.replace(/index\.html$/, '');
      expect(html, path).toContain(`Translation happens on <a href="${upstream}/${page}">`);
    }
  });
});
