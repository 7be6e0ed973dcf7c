/**
 * Issue 24: a resumed pull read every answer an interrupted one kept into
 * one map, so resuming a large pull needed memory for all it had read. It now
 * keeps where each answer's line is in the resume file and reads the line
 * again when the walk asks for it; what it writes must not change.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STATE_FILE } from '../../src/pull/state.ts';
import { readTree, tempDir } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';
import { useSyntheticUpstream } from '../support/synthetic-upstream.ts';

const SCALE = { projects: 3, components: 4, languages: 4 };
/** Requests of the last project's components: cut off while `broken.on`. */
const LATE = /^\/api\/components\/project-00003\/component-00[34]\/links\/?$/;

const startSynthetic = useSyntheticUpstream();

function startUpstream(broken: { on: boolean }) {
  return startSynthetic(SCALE, (path, response) => {
    if (!broken.on || !LATE.test(path)) return false;
    response.socket?.destroy();
    return true;
  });
}

describe('a resumed pull (issue 24)', () => {
  it('writes what one uninterrupted pull writes', async () => {
    const broken = { on: false };
    const from = await startUpstream(broken);
    const whole = join(tempDir(), 'whole');
    expect((await runCli('pull', ['--from', from, '--out', whole])).code).toBe(0);

    const resumed = join(tempDir(), 'resumed');
    const args = ['--from', from, '--out', resumed, '--retries', '0'];
    broken.on = true;
    const cut = await runCli('pull', args);
    expect(cut.code).toBe(75);
    expect(existsSync(join(resumed, STATE_FILE))).toBe(true);
    expect(existsSync(join(resumed, 'site.yaml'))).toBe(false);
    broken.on = false;
    const again = await runCli('pull', args);
    expect(again.stderr).toMatch(/^Resuming: \d+ answers kept by the interrupted pull/);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/[1-9][\d,]* read back from the interrupted pull/);
    expect(readTree(resumed, { without: ['.pull-record.json'] })).toEqual(
      readTree(whole, { without: ['.pull-record.json'] }),
    );
  }, 60_000);
});
