/**
 * Issue 24: a full pull checked what it pulled by opening the whole content
 * at the end, after writing it, so a first pull of a large instance needed
 * memory for all of it at once, and content that failed the check had
 * already replaced the folder. The check now runs in parts, over what the
 * pull would write, before it writes: every error still named by file, line
 * and column, and the folder left as it was.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTree, tempDir } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';
import { useSyntheticUpstream } from '../support/synthetic-upstream.ts';

const SCALE = { projects: 3, components: 5, languages: 5 };
/** A component in the middle of the walk, whose counters the upstream may serve spoilt. */
const MIDDLE = /^\/api\/components\/project-00002\/component-003\/(translations|statistics)\/?$/;
const MIDDLE_FILE = 'projects/project-00002/components/component-003.yaml';

const startSynthetic = useSyntheticUpstream();

/** The synthetic instance served from memory; with `spoilt.on`, one language of MIDDLE claims more translated strings than there are. */
function startUpstream(spoilt: { on: boolean }) {
  return startSynthetic(SCALE, (path, response, answer) => {
    if (!spoilt.on || !MIDDLE.test(path)) return false;
    const answered = answer();
    const page = JSON.parse(answered.body.toString('utf8')) as {
      results: Record<string, number>[];
    };
    const counters = page.results[1]!;
    counters.translated = counters.total! + 7;
    response.writeHead(answered.status, { 'Content-Type': answered.contentType });
    response.end(JSON.stringify(page));
    return true;
  });
}

describe('the check of a full pull (issue 24)', () => {
  it('names the bad file by line and column and leaves the earlier pull as it was', async () => {
    const out = join(tempDir(), 'mirror');
    const spoilt = { on: false };
    const from = await startUpstream(spoilt);
    expect((await runCli('pull', ['--from', from, '--out', out])).code).toBe(0);
    const before = readTree(out);
    spoilt.on = true;
    const failed = await runCli('pull', ['--from', from, '--out', out, '--full']);
    expect(failed.code).toBe(1);
    const errors = failed.stderr.split('\n').filter((line) => line.includes(MIDDLE_FILE));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      new RegExp(
        `^${join(out, MIDDLE_FILE)}:\\d+:\\d+  translations\\.\\S+\\.translated  expected translated <= total`,
      ),
    );
    expect(failed.stderr).toContain('does not pass the checks of the build');
    expect(existsSync(join(out, '.pull-staged'))).toBe(false);
    expect(readTree(out)).toEqual(before);
  }, 60_000);
});
