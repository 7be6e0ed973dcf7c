/**
 * Issue 24: `npm run bench -- --store-only memory` runs the refresh as a runner that kept nothing
 * runs it: in a new process, not in the one the first publish ran in, so that its peak RSS holds
 * nothing the first publish left. Both run against one store process that outlives them.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT, scriptArgs, tempDir } from '../helpers.ts';

const run = promisify(execFile);

describe('npm run bench --store-only memory', () => {
  it('runs the first publish and the refresh each in a process of its own', async () => {
    const dir = tempDir('wsnap-bench-');
    const scale = ['--projects', '1', '--components', '2', '--languages', '2'];
    const args = [...scriptArgs('bench'), ...scale, '--store-only', 'memory'];
    await run(process.execPath, [...args, '--dir', dir], { cwd: ROOT });

    const saved = JSON.parse(readFileSync(join(dir, 'results-6.json'), 'utf8')) as {
      store: {
        memory: {
          first: { pid: number; uploaded: number };
          refresh: { pid: number; uploaded: number };
        };
      };
    };
    const { first, refresh } = saved.store.memory;
    expect(first.pid).toEqual(expect.any(Number));
    expect(refresh.pid).toEqual(expect.any(Number));
    expect(refresh.pid).not.toBe(first.pid);
    // The refresh read the state the first publish left in the store: it sent only what changed.
    expect(refresh.uploaded).toBeGreaterThan(0);
    expect(refresh.uploaded).toBeLessThan(first.uploaded / 4);
  });
});
