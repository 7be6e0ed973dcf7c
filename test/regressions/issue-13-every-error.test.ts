/**
 * Issue 13, item 5: "every error in one run" was not true: six mistakes needed three runs of check
 * (syntax and schema first, then counters, then cross-file rules), because a file with a schema
 * error was set aside before its counters and its references were looked at. Now a file whose
 * fields at fault can be left out is checked by every rule, and a reference to a file that failed
 * its own checks is not reported again.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { FIXTURES, tempDir } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';

function edit(file: string, change: (text: string) => string): void {
  writeFileSync(file, change(readFileSync(file, 'utf8')));
}

it('reports six mistakes of three kinds in one run of check, and nothing else', async () => {
  const content = join(tempDir(), 'content');
  cpSync(join(FIXTURES, 'features/content'), content, { recursive: true });
  const components = join(content, 'projects/alpha/components');
  edit(
    join(components, 'strings.yaml'),
    (text) =>
      text
        .replace('priority: 80', 'priority: 80\nprioritty: 1') // an unknown field
        .replace('    translated: 4\n', '    translated: 40\n') // a counter past its total
        .replace('  ar:\n', '  xx_NOPE:\n'), // a language no one defines
  );
  edit(join(components, 'glossary.yaml'), (text) => `id: 10\n${text.replace(/^id: .*\n/m, '')}`); // the id of strings.yaml
  edit(join(content, 'projects/beta/components/docs.yaml'), (text) =>
    text.replace('name:', 'name: [unclosed\nname2:'),
  ); // YAML syntax
  cpSync(join(components, 'shared.yaml'), join(content, 'projects/gamma/components/shared.yaml')); // a folder without project.yaml

  const result = await runCli('check', ['--content', content]);
  expect(result.code).toBe(1);
  const lines = result.stderr.trim().split('\n');
  expect(lines.pop()).toBe('7 errors in the content; nothing was written.');
  expect(lines.map((line) => line.slice(content.length + 1))).toEqual([
    'projects/alpha/components/glossary.yaml:1:5  id  expected a component id used once (got 10, also the id of component "alpha/strings" in ' +
      `${content}/projects/alpha/components/strings.yaml; give one of them another id)`,
    'projects/alpha/components/strings.yaml:2:5  id  expected a component id used once (got 10, also the id of component "alpha/glossary" in ' +
      `${content}/projects/alpha/components/glossary.yaml; give one of them another id)`,
    'projects/alpha/components/strings.yaml:14:1  prioritty  unknown field (did you mean "priority"?)',
    'projects/alpha/components/strings.yaml:24:17  translations.cs.translated  expected translated <= total (28) (got 40)',
    'projects/alpha/components/strings.yaml:37:3  translations.xx_NOPE  expected a language code from the catalog or languages/ (got "xx_NOPE"; define it in languages/<code>.yaml)',
    'projects/beta/components/docs.yaml:2:1  expected valid YAML (got: Flow sequence in block collection must be sufficiently indented and end with a ])',
    'projects/gamma/project.yaml:1:1  expected a project.yaml in every project folder (missing)',
  ]);
});
