/**
 * The compiled tool checked content on its main thread only: check-pool.ts starts its threads on
 * check-thread.js by URL, which nothing imports, so tsc left it out of the package's lib/ (and of
 * the tests' compiled copy). Each thread failed to start and the main thread took every file, with
 * nothing said. Found when a heap test moved from tsx to the compiled copy.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { compiledModule, FIXTURES, tempDir } from '../helpers.ts';

const run = promisify(execFile);

const CHILD = `
const { loadContent } = await import(${JSON.stringify(compiledModule('src/content/load.ts'))});
const loaded = await loadContent(process.argv[2], { threads: 1, mainThread: false });
console.log(JSON.stringify({ files: loaded.files.size, inThreads: loaded.checkedInThreads }));
`;

describe('the compiled tool', () => {
  it('checks content in its threads', async () => {
    const content = join(FIXTURES, 'features/content');
    // A file, not \`-e\`: a thread takes the process's flags, and its source is not a module.
    const child = join(tempDir(), 'load.mjs');
    writeFileSync(child, CHILD);
    const { stdout } = await run(process.execPath, [child, content]);
    const { files, inThreads } = JSON.parse(stdout) as { files: number; inThreads: number };
    expect(files).toBeGreaterThan(0);
    expect(inThreads).toBe(files);
  });
});
