/**
 * Issue 24: a resumed pull read every answer an interrupted one kept into
 * one map, so resuming a large pull needed memory for all it had read. It now
 * keeps where each answer's line is in the resume file and reads the line
 * again when the walk asks for it; what it writes must not change.
 */
import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createModelAnswerer } from '../../bench/model-upstream.ts';
import { writeSyntheticContent } from '../../bench/synthetic.ts';
import { STATE_FILE } from '../../src/pull/state.ts';
import { openContent } from '../../src/resolve/open.ts';
import { readTree, tempDir } from '../helpers.ts';
import { startLoopbackServer, type LoopbackServer } from '../support/loopback-server.ts';
import { runCli } from '../support/run-cli.ts';

const SCALE = { projects: 3, components: 4, languages: 4 };
/** Requests of the last project's components: cut off while `broken.on`. */
const LATE = /^\/api\/components\/project-00003\/component-00[34]\/links\/?$/;

const running: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

async function startUpstream(broken: { on: boolean }) {
  const content = tempDir();
  await writeSyntheticContent(content, SCALE);
  const opened = await openContent(content);
  if (!opened.ok) throw new Error(`the synthetic content has ${opened.errors.length} errors`);
  const answer = createModelAnswerer(opened.model);
  const server = await startLoopbackServer(
    async (request: IncomingMessage, response: ServerResponse) => {
      const url = request.url ?? '/';
      if (broken.on && LATE.test(url.split('?')[0]!)) {
        response.socket?.destroy();
        return;
      }
      const answered = answer(request.method ?? 'GET', url);
      response.writeHead(answered.status, { 'Content-Type': answered.contentType });
      response.end(answered.body);
    },
  );
  running.push(server);
  return `${server.url}/api/`;
}

/** The content files of `dir`: the record says when the pull ran, which differs between runs. */
function contentOf(dir: string): Map<string, string> {
  const files = readTree(dir);
  files.delete('.pull-record.json');
  return files;
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
    expect(contentOf(resumed)).toEqual(contentOf(whole));
  }, 60_000);
});
