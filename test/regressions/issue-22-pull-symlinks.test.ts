/**
 * Issue 22, item 9: symbolic links planted in --out were written through
 * (the resume file appended to a link's target, content files written into
 * a linked folder) before the check of the pulled content refused them. A
 * pull now refuses a folder with a link inside before it writes anything,
 * or asks the server for anything.
 */
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, tempDir } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';
import { recordedResponses, startScriptedServer } from '../support/scripted-server.ts';

const recorded = recordedResponses(join(FIXTURES, 'pull-recorded', 'responses'));

describe('pull into a folder with a symbolic link inside', () => {
  it.each([
    ['a linked folder', 'projects', (target: string) => mkdirSync(target)],
    ['a linked resume file', '.pull-state.jsonl', (target: string) => writeFileSync(target, '')],
  ])('refuses %s and writes nothing through it', async (_, name, makeTarget) => {
    const dir = tempDir();
    const out = join(dir, 'mirror');
    const target = join(dir, 'elsewhere');
    makeTarget(target);
    mkdirSync(out);
    // An earlier pull, which a pull may update.
    const site =
      '# Pulled from https://weblate.example.org/api/ by npm run pull\nbase_url: https://l10n.test\n';
    writeFileSync(join(out, 'site.yaml'), site);
    symlinkSync(target, join(out, name));
    const server = await startScriptedServer(recorded);
    try {
      const result = await runCli('pull', ['--from', `${server.url}/api/`, '--out', out]);
      expect(result.stderr).toBe(
        `${join(out, name)} is a symbolic link; a pull writes only real files and folders in --out and does not follow links. Remove it, or give another --out.\n`,
      );
      expect(result.code).toBe(1);
      expect(server.log).toEqual([]);
      expect(readdirSync(out).sort()).toEqual([name, 'site.yaml'].sort());
      expect(readFileSync(join(out, 'site.yaml'), 'utf8')).toBe(site);
      if (name === 'projects') expect(readdirSync(target)).toEqual([]);
      else expect(readFileSync(target, 'utf8')).toBe('');
    } finally {
      await server.close();
    }
  });
});
