/**
 * Issue 12 (one YAML grammar) and issue 13, item 13. js-yaml parsed content and the yaml package
 * located its errors, so the accepted syntax was the union of both: `name: *x` (an alias without
 * anchor) was "Internal error: ReferenceError", and `!foo` tags passed. Now the yaml package alone
 * decides, strictly, and each refusal has a line and column. A translation keyed by a number
 * (`123:`) could be checked but not deleted (the sidecar's edit missed the numeric key: a 500).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFile } from '../../src/content/files.ts';
import { tempDir, writeFiles } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';
import { AUTH, call, expectTreeOfContent, startSidecar, workspace } from '../sidecar/support.ts';

const PLACE = { kind: 'project', project: 'p' } as const;

/** The errors `check` gives for a project.yaml of this text. */
function projectErrors(text: string): string[] {
  const result = checkFile('project.yaml', PLACE, text);
  return result.ok
    ? []
    : result.errors.map((e) => `${e.line}:${e.column}  ${e.path ? `${e.path}  ` : ''}${e.message}`);
}

describe('the one YAML grammar', () => {
  it.each([
    [
      'an alias without anchor',
      'name: *x\n',
      '1:7  expected valid YAML (got: alias *x, which names no anchor set before it)',
    ],
    [
      'an alias before its anchor',
      'web: *a\nname: &a Demo\n',
      '1:6  expected valid YAML (got: alias *a, which names no anchor set before it)',
    ],
    [
      'a key given twice, once as a number',
      '1: a\n"1": b\nname: Demo\n',
      '2:1  expected valid YAML (got: Map keys must be unique)',
    ],
    ['an unknown tag', 'name: !foo Demo\n', '1:7  expected valid YAML (got: Unresolved tag: !foo)'],
    [
      'a second document',
      'name: Demo\n---\nname: Other\n',
      '2:1  expected valid YAML (got: one document per file)',
    ],
    [
      'collections 150 deep',
      `name: Demo\nweb: ${'['.repeat(150)}${']'.repeat(150)}\n`,
      '2:105  expected valid YAML (got: collections nested more than 100 deep)',
    ],
  ])('refuses %s with its line and column', (_, text, error) => {
    expect(projectErrors(text)).toEqual([error]);
  });

  it('reads YAML 1.2 core values whatever a %YAML 1.1 directive says, and <<: as a plain key', () => {
    const result = checkFile('project.yaml', PLACE, '%YAML 1.1\n---\nname: yes\n');
    expect(result.ok && result.checked.data).toEqual({ name: 'yes' });
    expect(projectErrors('name: Demo\n<<: {web: x}\n')).toEqual([
      '2:1  <<  unknown field (did you mean "id"?)',
    ]);
  });

  it('survives collections nested thousands deep, twice in one process', () => {
    for (let i = 0; i < 2; i++)
      expect(projectErrors(`name: ${'['.repeat(5000)}${']'.repeat(5000)}\n`)).toHaveLength(1);
  });

  it('npm run check reports an alias without anchor as a YAML error, exit 1, no stack', async () => {
    const content = join(tempDir(), 'content');
    writeFiles(content, {
      'site.yaml': 'base_url: https://l10n.example.org\n',
      'projects/p/project.yaml': 'name: *x\n',
    });
    const result = await runCli('check', ['--content', content]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `${join(content, 'projects/p/project.yaml')}:1:7  expected valid YAML (got: alias *x, which names no anchor set before it)`,
    );
    expect(result.stderr).not.toMatch(/Internal error|\n\s+at /);
  });
});

describe('a translation keyed by a number', () => {
  it('is deleted through the sidecar (204), its key gone from the YAML, the tree a fresh build', async () => {
    const space = workspace('minimal');
    writeFiles(space.content, {
      'languages/123.yaml': 'name: Numbers\nplural: {number: 2, formula: "n != 1"}\n',
      'projects/hello/components/app.yaml': `${readFileSync(join(space.content, 'projects/hello/components/app.yaml'), 'utf8')}  123:\n    translated: 1\n`,
    });
    const sidecar = await startSidecar(space);
    try {
      const served = await call(
        `${sidecar.api}translations/hello/app/123/`,
        'DELETE',
        undefined,
        AUTH,
      );
      expect(served.status).toBe(204);
      expect(
        readFileSync(join(space.content, 'projects/hello/components/app.yaml'), 'utf8'),
      ).not.toMatch(/^ {2}123:/m);
      await expectTreeOfContent(space);
    } finally {
      await sidecar.stop();
    }
  });
});
