/**
 * Issue 24: `npm run bench -- --store-only s3|memory` at a tiny scale: both
 * runs of the store target (a first publish, then one counter changed from
 * an empty scratch folder) are printed and saved. Figures themselves are
 * never checked here, only that each is there and what the runs did.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT, scriptArgs, tempDir } from '../helpers.ts';
import { compiledTool } from '../support/compiled-tool.ts';

const run = promisify(execFile);

describe('npm run bench --store-only', () => {
  it.each(['memory', 's3'])(
    'with %s: a first publish of every object, then one counter changed, uploaded alone',
    async (which) => {
      const dir = tempDir('wsnap-bench-');
      const scale = ['--projects', '1', '--components', '3', '--languages', '2'];
      const tool = ['--tool', compiledTool()];
      const args = [...scriptArgs('bench'), ...scale, '--store-only', which, ...tool];
      const { stdout } = await run(process.execPath, [...args, '--dir', dir], {
        cwd: ROOT,
      });

      expect(stdout).toMatch(/^Store target (on the local S3 server|in memory)/m);
      expect(stdout).toMatch(
        /^ {2}first publish: .+, [\d,]+ objects uploaded, 0 deleted, peak local disk /m,
      );
      expect(stdout).toMatch(
        /^ {2}one counter changed, from an empty scratch folder: .+, [\d,]+ objects? uploaded, 0 deleted, peak local disk .+, peak RSS [\d.]+ MiB, [\d,]+ requests to the store$/m,
      );
      const saved = JSON.parse(readFileSync(join(dir, 'results-9.json'), 'utf8')) as {
        store: Record<
          string,
          {
            first: { uploaded: number };
            refresh: { uploaded: number; requests: number; maxRssKiB: number };
          }
        >;
      };
      const figures = saved.store[which === 's3' ? 's3' : 'memory']!;
      // The refresh reads the state and takes the lease: a handful of requests beside its uploads.
      expect(figures.refresh.requests).toBeGreaterThan(figures.refresh.uploaded);
      expect(figures.refresh.requests).toBeLessThan(figures.refresh.uploaded + 20);
      expect(figures.refresh.maxRssKiB).toBeGreaterThan(0);
      expect(figures.first.uploaded).toBeGreaterThan(50);
      expect(figures.refresh.uploaded).toBeGreaterThan(0);
      expect(figures.refresh.uploaded).toBeLessThan(figures.first.uploaded / 4);
    },
  );
});
