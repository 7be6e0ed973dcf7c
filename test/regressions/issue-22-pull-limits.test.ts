/**
 * Issue 22, item 8 (pull): a hostile upstream crashed `pull` (exit 2, stack
 * traces). JSON nested 200,000 deep crashed the resume-file writer; a plural
 * formula of 20,000 terms was written, and then overflowed the stack of the
 * check and of every build; a counter past what sums can hold exactly was
 * written too. Each answer is now refused with the URL and what was wrong,
 * exit 1, before a content file is written.
 */
import { existsSync, readdirSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, tempDir } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';
import {
  recordedResponses,
  startScriptedServer,
  type Scripted,
} from '../support/scripted-server.ts';

const recorded = recordedResponses(join(FIXTURES, 'pull-recorded', 'responses'));

/** The recorded instance, the answer at `path` changed by `change` (its text, parsed JSON or not). */
function recordedExcept(path: string, change: (text: string) => string) {
  return async (request: IncomingMessage): Promise<Scripted> => {
    const answer = await recorded(request);
    if (answer === 'drop' || request.url !== path) return answer;
    return { ...answer, body: change(answer.body) };
  };
}

function editJson(edit: (body: { results: Record<string, unknown>[] }) => void) {
  return (text: string) => {
    const body = JSON.parse(text) as { results: Record<string, unknown>[] };
    edit(body);
    return JSON.stringify(body);
  };
}

async function pullFrom(respond: (request: IncomingMessage) => Promise<Scripted>) {
  const server = await startScriptedServer(respond);
  const out = join(tempDir(), 'mirror');
  try {
    const result = await runCli('pull', ['--from', `${server.url}/api/`, '--out', out]);
    const written = existsSync(out) ? readdirSync(out).filter((name) => !name.startsWith('.')) : [];
    return { ...result, written };
  } finally {
    await server.close();
  }
}

describe('pull refuses answers past the limits of content, before writing a file', () => {
  it('refuses JSON nested 200,000 deep', async () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    const result = await pullFrom(
      recordedExcept('/api/languages/', (text) => text.replace(/^\{/, `{"extra":${deep},`)),
    );
    expect(result.stderr).toContain(
      '/api/languages/ answered with JSON nested more than 64 levels deep; no answer of a Weblate API is, so the pull stops.',
    );
    expect(result.stderr).not.toMatch(/Internal error|RangeError|\n\s+at /);
    expect(result.code).toBe(1);
    expect(result.written).toEqual([]);
  });

  it('refuses a plural formula of 20,000 terms', async () => {
    const formula = Array.from({ length: 20_000 }, (_, i) => `n == ${i}`).join(' || ');
    const result = await pullFrom(
      recordedExcept(
        '/api/languages/',
        editJson((body) => {
          const czech = body.results.find((language) => language.code === 'cs')!;
          czech.plural = { ...(czech.plural as object), formula };
        }),
      ),
    );
    expect(result.stderr).toMatch(
      /\/api\/languages\/ does not look like Weblate's API: a language \(item \d+\), plural\.formula: expected a plural formula of at most 1000 characters\./,
    );
    expect(result.stderr).not.toMatch(/Internal error|RangeError|\n\s+at /);
    expect(result.code).toBe(1);
    expect(result.written).toEqual([]);
  });

  it('refuses a counter above 2^32 - 1', async () => {
    const result = await pullFrom(
      recordedExcept(
        '/api/components/fossapp/glossary/translations/',
        editJson((body) => void (body.results[0]!.total = 2 ** 52)),
      ),
    );
    expect(result.stderr).toContain(
      "/api/components/fossapp/glossary/translations/ does not look like Weblate's API: a translation (item 1), total: expected a counter of at most 4294967295.",
    );
    expect(result.code).toBe(1);
    expect(result.written).toEqual([]);
  });
});
