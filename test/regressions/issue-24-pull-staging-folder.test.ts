/**
 * Issue 24: a full pull stages its component files in `.pull-staged/` inside
 * the content folder, and removed any folder of that name when it started:
 * a user's own folder there was deleted. The staging folder now holds a
 * marker file from its start; a folder of that name without one stops the
 * pull before it asks the server anything or writes anything.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, readTree, tempDir } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';
import { recordedResponses, startScriptedServer } from '../support/scripted-server.ts';

const recorded = recordedResponses(join(FIXTURES, 'pull-recorded', 'responses'));

/** A finished pull from the recorded instance in a new folder, and the server it came from. */
async function earlierPull() {
  const out = join(tempDir(), 'mirror');
  const server = await startScriptedServer(recorded);
  const from = `${server.url}/api/`;
  const first = await runCli('pull', ['--from', from, '--out', out]);
  expect(first.code).toBe(0);
  server.log.length = 0;
  return { out, from, server };
}

describe('the staging folder of a full pull (issue 24)', () => {
  it("leaves a user's own .pull-staged folder untouched and stops before anything", async () => {
    const { out, from, server } = await earlierPull();
    try {
      mkdirSync(join(out, '.pull-staged', 'drafts'), { recursive: true });
      writeFileSync(join(out, '.pull-staged', 'drafts', 'notes.md'), 'my own notes\n');
      const before = readTree(out, { without: ['.pull-record.json'] });
      const result = await runCli('pull', ['--from', from, '--out', out, '--full']);
      expect(result.stderr).toBe(
        `${join(out, '.pull-staged')} was not made by a pull (it has no .made-by-pull), and a pull stages its files there; move it out of ${out}, or give another --out.\n`,
      );
      expect(result.code).toBe(1);
      expect(server.log).toEqual([]);
      expect(readTree(out, { without: ['.pull-record.json'] })).toEqual(before);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('removes a staging folder an interrupted pull left, and pulls', async () => {
    const { out, from, server } = await earlierPull();
    try {
      const before = readTree(out, { without: ['.pull-record.json'] });
      const left = join(out, '.pull-staged', 'projects', 'gone', 'components');
      mkdirSync(left, { recursive: true });
      writeFileSync(join(out, '.pull-staged', '.made-by-pull'), 'Made by npm run pull\n');
      writeFileSync(join(left, 'half.yaml'), 'name: Half\n');
      const result = await runCli('pull', ['--from', from, '--out', out, '--full']);
      expect(result.stderr).not.toContain('.pull-staged');
      expect(result.code).toBe(0);
      expect(readTree(out, { without: ['.pull-record.json'] })).toEqual(before);
    } finally {
      await server.close();
    }
  }, 60_000);
});
