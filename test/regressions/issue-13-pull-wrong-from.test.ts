/**
 * Issue 13, item 9: a wrong `pull --from` (a web page, or JSON that lists no projects) said "run the
 * same command again to resume", which cannot help, and left behind a new folder holding only the
 * resume file. Now it says what is wrong and what to give, and leaves nothing behind; a folder that
 * was there before stays as it was.
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';
import { startScriptedServer, type Scripted } from '../support/scripted-server.ts';

describe('npm run pull --from a URL that is not a Weblate API', () => {
  it.each<[string, Scripted]>([
    [
      'a web page',
      {
        status: 200,
        body: '<!DOCTYPE html><title>Weblate</title>',
        headers: { 'Content-Type': 'text/html' },
      },
    ],
    ['JSON that lists no projects', { status: 200, body: '{"status":"ok"}' }],
    ['a 404', { status: 404, body: '{"detail":"Not found."}' }],
  ])('(%s) says so without offering a resume, and leaves no folder behind', async (_, answer) => {
    const server = await startScriptedServer(() => answer);
    try {
      const out = join(tempDir(), 'mirror');
      const result = await runCli('pull', ['--from', `${server.url}/`, '--out', out]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`${server.url}/ is not a Weblate API`);
      expect(result.stderr).not.toContain('run the same command again');
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(existsSync(out)).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('leaves an empty folder that was there before empty, and in place', async () => {
    const server = await startScriptedServer(() => ({ status: 200, body: '{"status":"ok"}' }));
    try {
      const out = join(tempDir(), 'mirror');
      mkdirSync(out);
      const result = await runCli('pull', ['--from', `${server.url}/api/`, '--out', out]);
      expect(result.code).toBe(1);
      expect(readdirSync(out)).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
