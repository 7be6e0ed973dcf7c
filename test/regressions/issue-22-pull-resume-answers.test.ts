/**
 * Issue 22, item 9: the resume file kept every 200 answer before the walk
 * read it, so one that failed validation was replayed by every re-run,
 * `--full` included, and the server was never asked again. Now an answer is
 * kept only once it was read without fault, and `--full` sets the resume
 * file aside and asks the server for everything.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseState, STATE_FILE } from '../../src/pull/state.ts';
import { FIXTURES, tempDir } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';
import {
  recordedResponses,
  startScriptedServer,
  type Scripted,
} from '../support/scripted-server.ts';

const recorded = recordedResponses(join(FIXTURES, 'pull-recorded', 'responses'));
const TRANSLATIONS = '/api/components/fossapp/glossary/translations/';

/** The recorded instance; while `broken()` holds, the answer at `path` is `answer` instead. */
function recordedUnless(broken: () => boolean, path: string, answer: Scripted) {
  return async (request: IncomingMessage): Promise<Scripted> =>
    broken() && request.url === path ? answer : recorded(request);
}

async function withServer<T>(
  respond: (request: IncomingMessage) => Promise<Scripted>,
  run: (url: string, log: () => string[]) => Promise<T>,
): Promise<T> {
  const server = await startScriptedServer(respond);
  try {
    return await run(server.url, () => server.log.map((entry) => entry.url));
  } finally {
    await server.close();
  }
}

const keptUrls = (out: string) => [
  ...parseState(readFileSync(join(out, STATE_FILE), 'utf8')).answers.keys(),
];

describe('what a resumed pull reads back', () => {
  it('never keeps an answer the pull refused, and asks the server for it again', async () => {
    let broken = true;
    const invalid = {
      status: 200,
      body: JSON.stringify({ count: 1, next: null, previous: null, results: [{ total: 'x' }] }),
    };
    await withServer(
      recordedUnless(() => broken, TRANSLATIONS, invalid),
      async (url, log) => {
        const out = join(tempDir(), 'mirror');
        const args = ['--from', `${url}/api/`, '--out', out];
        const first = await runCli('pull', args);
        expect(first.stderr).toContain(`${url}${TRANSLATIONS} does not look like Weblate's API`);
        expect(first.code).toBe(1);
        expect(keptUrls(out)).not.toContain(`${url}${TRANSLATIONS}`);

        broken = false;
        const before = log().length;
        const second = await runCli('pull', args);
        expect(second.stderr).toMatch(/^Resuming: \d+ answers kept by the interrupted pull/);
        expect(second.code).toBe(0);
        expect(log().slice(before)).toContain(TRANSLATIONS);
      },
    );
  });

  it('--full sets the resume file aside and asks the server for everything', async () => {
    let broken = true;
    const lock = '/api/components/fossapp/android/lock/';
    await withServer(
      recordedUnless(() => broken, lock, 'drop'),
      async (url, log) => {
        const out = join(tempDir(), 'mirror');
        const args = ['--from', `${url}/api/`, '--out', out, '--retries', '0'];
        const first = await runCli('pull', args);
        // A dropped connection: EX_TEMPFAIL, a later run resumes it.
        expect(first.code).toBe(75);
        expect(keptUrls(out)).toContain(`${url}/api/`);

        broken = false;
        const before = log().length;
        const second = await runCli('pull', [...args, '--full']);
        expect(second.stderr).toMatch(
          /^--full: set aside the \d+ answers an interrupted pull kept in /,
        );
        expect(second.code).toBe(0);
        expect(log().slice(before)).toContain('/api/');
      },
    );
  });
});
