/**
 * Issue 24, item 3: `npm run bench -- --requests-only` at a tiny scale: the
 * requests of a re-pull with nothing changed, of one with a counter changed
 * upstream, and of a sweep are printed and saved, each within the issue's
 * bounds, against the upstream served from memory with no tree built.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT, scriptArgs, tempDir } from '../helpers.ts';
import { compiledTool } from '../support/compiled-tool.ts';

const run = promisify(execFile);

describe('npm run bench --requests-only', () => {
  it('counts the requests of each refresh, within the bounds, and builds no tree', async () => {
    const dir = tempDir('wsnap-bench-');
    // The bench changes a counter of project-00002/component-003.
    const scale = ['--projects', '2', '--components', '3', '--languages', '2'];
    const tool = ['--tool', compiledTool()];
    const args = [...scriptArgs('bench'), ...scale, '--requests-only', ...tool, '--dir', dir];
    const { stdout } = await run(process.execPath, args, { cwd: ROOT });

    expect(stdout).toMatch(/^Requests to the upstream \(served from memory/m);
    expect(stdout).toMatch(/^ {2}a re-pull with nothing changed: \d+ requests?, 0 files written /m);
    expect(stdout).toMatch(
      /^ {2}one counter changed upstream: \d+ requests?, 1 file written, 5 components kept /m,
    );
    expect(stdout).toMatch(/^ {2}then a sweep with nothing changed \(--sweep-every 1\): \d+ /m);
    const saved = JSON.parse(readFileSync(join(dir, 'results-18.json'), 'utf8')) as {
      requests: {
        setup: { pullRequests: number };
        unchanged: { requests: number };
        changed: { requests: number };
        sweep: { requests: number };
        components: number;
        upstreamPeakRssKiB: number;
      };
    };
    const { setup, unchanged, changed, sweep, components } = saved.requests;
    expect(components).toBe(3);
    // Between sweeps: the root and the feed; then the project, its lists and the component.
    expect(unchanged.requests).toBeGreaterThanOrEqual(2);
    expect(unchanged.requests).toBeLessThanOrEqual(20);
    expect(changed.requests).toBeGreaterThan(unchanged.requests);
    expect(changed.requests).toBeLessThanOrEqual(40 + components);
    // A sweep reads each project's statistics, fewer than a full pull's requests.
    expect(sweep.requests).toBeGreaterThan(unchanged.requests + 2);
    expect(sweep.requests).toBeLessThan(setup.pullRequests);
    // Only the content and the results stay: no tree was built, the mirror is gone.
    expect(readdirSync(dir).sort()).toEqual(['content-2x3x2', 'results-18.json']);
  });
});
