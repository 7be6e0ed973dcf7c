/**
 * Issue 24: a first full pull kept everything it read (every translation and
 * its statistics as served) until the walk was over and it had written the
 * content, so its memory grew with what the server sent and a first pull of
 * a large instance crashed. Each component's file is now written, into a
 * staging folder, as soon as its reads are complete; the files are moved into
 * place at the end, so a pull that fails midway still changes nothing.
 */
import { existsSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTree, tempDir } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';
import { useSyntheticUpstream } from '../support/synthetic-upstream.ts';

const SCALE = { projects: 2, components: 5, languages: 5 };
/** The last component's links: the pull reads them late, after other components are complete. */
const LATE = /^\/api\/components\/project-00002\/component-005\/links\/?$/;
const FIRST = 'projects/project-00001/components/component-001.yaml';

const startSynthetic = useSyntheticUpstream();

/** The synthetic instance served from memory; `late` answers the late request instead. */
function startUpstream(late: (response: ServerResponse) => Promise<boolean>) {
  return startSynthetic(SCALE, (path, response) => LATE.test(path) && late(response));
}

/** Whether `file` appears within a bounded number of looks. */
async function appears(file: string): Promise<boolean> {
  for (let look = 0; look < 400; look++) {
    if (existsSync(file)) return true;
    await sleep(25);
  }
  return false;
}

describe('a first full pull of a large instance (issue 24)', () => {
  it("writes each component's file as soon as its reads are complete, before the walk ends", async () => {
    const out = join(tempDir(), 'mirror');
    let staged = false;
    const from = await startUpstream(async () => {
      staged = await appears(join(out, '.pull-staged', FIRST));
      return false;
    });
    const pulled = await runCli('pull', ['--from', from, '--out', out]);
    expect(pulled.stderr).toBe('');
    expect(pulled.code).toBe(0);
    expect(staged).toBe(true);
    const files = readTree(out);
    expect([...files.keys()].filter((path) => path.startsWith('.pull-staged'))).toEqual([]);
    expect(files.has(FIRST)).toBe(true);
    expect(files.size).toBe(1 + SCALE.projects * (1 + SCALE.components) + 1);
  }, 60_000);

  it('leaves the content of an earlier pull as it was when a pull fails midway', async () => {
    const out = join(tempDir(), 'mirror');
    let fail = false;
    const from = await startUpstream(async (response) => {
      if (!fail) return false;
      // Once the first component is staged, the late answer fails: the pull stops there.
      await appears(join(out, '.pull-staged', FIRST));
      response.writeHead(404, { 'Content-Type': 'application/json' });
      response.end('{"detail":"Not found."}');
      return true;
    });
    expect((await runCli('pull', ['--from', from, '--out', out])).code).toBe(0);
    const before = readTree(out, { without: ['.pull-state.jsonl'] });
    fail = true;
    const failed = await runCli('pull', ['--from', from, '--out', out, '--full']);
    expect(failed.stderr).toMatch(/component-005\/links\/? answered HTTP 404/);
    expect(failed.code).toBe(1);
    expect(existsSync(join(out, '.pull-staged'))).toBe(false);
    expect(readTree(out, { without: ['.pull-state.jsonl'] })).toEqual(before);
  }, 60_000);
});
