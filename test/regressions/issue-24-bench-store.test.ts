/**
 * Issue 24: `npm run bench -- --store-only s3|memory` at a tiny scale: both
 * runs of the store target (a first publish, then one counter changed from
 * an empty scratch folder) are printed and saved. Figures themselves are
 * never checked here, only that each is there and what the runs did. In
 * memory, the refresh runs as a runner that kept nothing runs it: in a new
 * process, not in the one the first publish ran in, so that its peak RSS
 * holds nothing the first publish left; both run against one store process
 * that outlives them.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT, scriptArgs, tempDir } from '../helpers.ts';
import { compiledTool } from '../support/compiled-tool.ts';

const run = promisify(execFile);

interface PublishFigures {
  pid?: number;
  uploaded: number;
  requests: number;
  maxRssKiB: number;
}
interface StoreRun {
  stdout: string;
  figures: { first: PublishFigures; refresh: PublishFigures };
}

/** One bench run for each store, shared by the tests that read it (a run takes seconds of CPU). */
const runs = new Map<string, Promise<StoreRun>>();
function storeRun(which: 'memory' | 's3'): Promise<StoreRun> {
  let running = runs.get(which);
  if (!running) runs.set(which, (running = benchStore(which)));
  return running;
}

async function benchStore(which: 'memory' | 's3'): Promise<StoreRun> {
  const dir = tempDir('wsnap-bench-');
  const scale = ['--projects', '1', '--components', '3', '--languages', '2'];
  const tool = ['--tool', compiledTool()];
  const args = [...scriptArgs('bench'), ...scale, '--store-only', which, ...tool];
  const { stdout } = await run(process.execPath, [...args, '--dir', dir], { cwd: ROOT });
  const saved = JSON.parse(readFileSync(join(dir, 'results-9.json'), 'utf8')) as {
    store: Record<string, StoreRun['figures']>;
  };
  return { stdout, figures: saved.store[which]! };
}

describe('npm run bench --store-only', () => {
  it.each(['memory', 's3'] as const)(
    'with %s: a first publish of every object, then one counter changed, uploaded alone',
    async (which) => {
      const { stdout, figures } = await storeRun(which);

      expect(stdout).toMatch(/^Store target (on the local S3 server|in memory)/m);
      expect(stdout).toMatch(
        /^ {2}first publish: .+, [\d,]+ objects uploaded, 0 deleted, peak local disk /m,
      );
      expect(stdout).toMatch(
        /^ {2}one counter changed, from an empty scratch folder: .+, [\d,]+ objects? uploaded, 0 deleted, peak local disk .+, peak RSS [\d.]+ MiB, [\d,]+ requests to the store$/m,
      );
      // The refresh reads the state and takes the lease: a handful of requests beside its uploads.
      expect(figures.refresh.requests).toBeGreaterThan(figures.refresh.uploaded);
      expect(figures.refresh.requests).toBeLessThan(figures.refresh.uploaded + 20);
      expect(figures.refresh.maxRssKiB).toBeGreaterThan(0);
      expect(figures.first.uploaded).toBeGreaterThan(50);
      expect(figures.refresh.uploaded).toBeGreaterThan(0);
      expect(figures.refresh.uploaded).toBeLessThan(figures.first.uploaded / 4);
    },
  );

  it('with memory: runs the first publish and the refresh each in a process of its own', async () => {
    const { first, refresh } = (await storeRun('memory')).figures;
    expect(first.pid).toEqual(expect.any(Number));
    expect(refresh.pid).toEqual(expect.any(Number));
    expect(refresh.pid).not.toBe(first.pid);
    // The refresh read the state the first publish left in the store: it sent only what changed.
    expect(refresh.uploaded).toBeGreaterThan(0);
    expect(refresh.uploaded).toBeLessThan(first.uploaded / 4);
  });
});
