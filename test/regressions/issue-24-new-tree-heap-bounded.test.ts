/**
 * Issue 24: the full build at a million translations on disk in under 1 GiB. While the status
 * site's per-project folders were written, the RSS went from 1,185 to 1,809 MiB in two minutes:
 * their pages, charts and widgets (some 100 KB each) make garbage that outlives the young
 * generation, and V8 let the old space grow to several times what was live (the model) before
 * collecting it whole. A whole new tree's status site is now written with the heap held near its
 * live size (heap.ts), as a publish is. Measured in a process of its own, during a real build:
 * at the status site's first file, a live set held and garbage made that outlives the young
 * generation, as the pages' does; the old space stays near the live size.
 *
 * And the API's groups, left to V8, took a build at a million translations without the status
 * site to 1,197 MiB: they are now written with the heap bounded (at half again the live size,
 * heap.ts), checked at the API's first file as the status site's. Before the build starts, the
 * same churn left to V8 is the measure they are held against.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { writeSyntheticContent } from '../../bench/synthetic.ts';
import { compiledModule, ROOT, tempDir } from '../helpers.ts';
import { CHURN_OLD_SPACE, LIVE_ARRAYS } from '../support/old-space-churn.ts';

const run = promisify(execFile);

/** Builds the content into a target that keeps nothing; at the status site's first file, holds ~40 MiB and churns ~200 MiB through the old space. */
const CHILD = `
${CHURN_OLD_SPACE}
import { build } from '${compiledModule('src/build.ts')}';
const [content] = process.argv.slice(2);
const figures = {};
const churn = (into) => (figures[into] = churnOldSpace());
// Each write lets the event loop turn, as a folder's writes do (the PNG thread starts meanwhile).
const target = {
  async write(path, data) {
    await new Promise((resolve) => setImmediate(resolve));
    if (!figures.api) churn('api');
    if (!figures.site && path.startsWith('projects/')) churn('site');
    return typeof data === 'string' ? data.length : 0;
  },
  async commit() {},
  async abort() {},
  replace: async () => true,
  removeFolder: async () => {},
  removeFile: async () => {},
};
churn('before');
const report = await build({ contentDir: content }, { target });
console.log(JSON.stringify({ errors: report.errors.length, ...figures }));
`;

describe('the heap while a whole new tree is written', () => {
  it('grows little past what is live, however much garbage outlives the young generation', async () => {
    const dir = tempDir();
    const content = join(dir, 'content');
    await writeSyntheticContent(content, { projects: 1, components: 2, languages: 2 });
    // A file, not `-e`: the PNG thread takes the process's flags, and its source is not a module.
    const child = join(dir, 'child.mjs');
    writeFileSync(child, CHILD);
    const { stdout } = await run(process.execPath, ['--expose-gc', child, content], {
      cwd: ROOT,
    });
    type Figures = { held: number; peak: number; kept: number };
    const figures = JSON.parse(stdout.trim().split('\n').pop()!) as {
      errors: number;
      before: Figures;
      api: Figures;
      site: Figures;
    };
    expect(figures).toMatchObject({
      errors: 0,
      before: { kept: LIVE_ARRAYS },
      api: { kept: LIVE_ARRAYS },
      site: { kept: LIVE_ARRAYS },
    });
    // Left to V8, the old space grows to 4.9 times the live set: what the checks inside the tree
    // are against.
    expect(figures.before.peak / figures.before.held).toBeGreaterThan(4);
    // Bounded in the API's groups, 2.3 to 2.6 times (the churn's last arrays are live too); held
    // nearer in the status site's, as a publish is held, some 1.8 times.
    expect(figures.api.peak / figures.api.held).toBeLessThan(3);
    expect(figures.site.peak / figures.site.held).toBeLessThan(3);
  });
});
