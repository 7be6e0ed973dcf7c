/**
 * Content errors: one invalid fixture per rule, each written to a temporary
 * folder and checked; the exact message, with its file, line and column.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openContent } from '../src/resolve/open.ts';
import { formatContentError, sortContentErrors } from '../src/errors.ts';
import { tempDir, writeFiles } from './helpers.ts';

const SITE = { 'site.yaml': 'base_url: https://l10n.test\n' };
const PROJECT = { 'projects/p/project.yaml': 'name: P\n' };
const component = (body: string) => ({ ...SITE, ...PROJECT, 'projects/p/components/c.yaml': body });
const BASE =
  'name: C\nsource_language: en\nrepo: https://git.test/r.git\nfilemask: po/*.po\nfile_format: po\n';
const C = 'content/projects/p/components/c.yaml';

const cases: [rule: string, files: Record<string, string>, expected: string[]][] = [
  [
    'YAML syntax',
    component(`${BASE}license: MIT: or not\n`),
    [`${C}:6:10  expected valid YAML (got: Nested mappings are not allowed in compact mappings)`],
  ],
  [
    'a key given twice',
    component(`${BASE}name: Again\n`),
    [`${C}:6:1  expected valid YAML (got: Map keys must be unique)`],
  ],
  [
    'an unknown key, with the nearest known one',
    component(`${BASE}source:\n  total: 3\ntranslations:\n  cs:\n    fuzy: 1\n`),
    [`${C}:10:5  translations.cs.fuzy  unknown field (did you mean "fuzzy"?)`],
  ],
  [
    'an unknown top-level key with no near match',
    component(`${BASE}colour: blue\n`),
    [`${C}:6:1  colour  unknown field (see docs/content.md)`],
  ],
  [
    'a missing required field',
    component('name: C\nsource_language: en\nfilemask: po/*.po\nfile_format: po\n'),
    [`${C}:1:1  repo  expected text (missing)`],
  ],
  [
    'a wrong type',
    component(`${BASE}source:\n  total: many\n`),
    [`${C}:7:10  source.total  expected a non-negative integer (got "many")`],
  ],
  [
    'a negative counter',
    component(`${BASE}source: {total: 5}\ntranslations:\n  cs: {translated: -1}\n`),
    [`${C}:8:20  translations.cs.translated  expected a non-negative integer (got -1)`],
  ],
  [
    'translated + fuzzy over the total',
    component(`${BASE}source: {total: 5}\ntranslations:\n  cs:\n    translated: 4\n    fuzzy: 2\n`),
    [`${C}:10:12  translations.cs.fuzzy  expected translated + fuzzy <= total (5) (got 4 + 2)`],
  ],
  [
    'approved and readonly over translated',
    component(
      `${BASE}source: {total: 5}\ntranslations:\n  cs:\n    translated: 2\n    approved: 3\n    readonly: 4\n`,
    ),
    [
      `${C}:10:15  translations.cs.approved  expected approved <= translated (2) (got 3)`,
      `${C}:11:15  translations.cs.readonly  expected readonly <= translated (2) (got 4)`,
    ],
  ],
  [
    'words and chars over their totals, with a translation total overriding the source one',
    component(
      `${BASE}source: {total: 5, total_words: 10, total_chars: 50}\ntranslations:\n  cs:\n    total_words: 8\n    translated_words: 9\n    translated_chars: 51\n`,
    ),
    [
      `${C}:10:23  translations.cs.translated_words  expected translated_words <= total_words (8) (got 9)`,
      `${C}:11:23  translations.cs.translated_chars  expected translated_chars <= total_chars (50) (got 51)`,
    ],
  ],
  [
    'checks, suggestions and comments over the total',
    component(
      `${BASE}source: {total: 1}\ntranslations:\n  cs: {failing_checks: 2, have_suggestion: 2, have_comment: 2}\n`,
    ),
    [
      `${C}:8:24  translations.cs.failing_checks  expected failing_checks <= total (1) (got 2)`,
      `${C}:8:44  translations.cs.have_suggestion  expected have_suggestion <= total (1) (got 2)`,
      `${C}:8:61  translations.cs.have_comment  expected have_comment <= total (1) (got 2)`,
    ],
  ],
  [
    'an author without a change',
    component(`${BASE}translations:\n  cs:\n    last_author: Jana\n`),
    [
      `${C}:8:18  translations.cs.last_author  expected last_change to be set when last_author is (got last_author "Jana" and no last_change)`,
    ],
  ],
  [
    'a timestamp that is not ISO 8601',
    component(`${BASE}translations:\n  cs:\n    last_change: yesterday\n`),
    [
      `${C}:8:18  translations.cs.last_change  expected an ISO 8601 date and time such as 2024-05-02T10:20:05.499000Z (got "yesterday")`,
    ],
  ],
  [
    'a language code nobody defines, with the catalog code of an alias',
    component(`${BASE}translations:\n  cze: {}\n  xx_unknown: {}\n`),
    [
      `${C}:7:3  translations.cze  expected a language code from the catalog or languages/ (got "cze"; did you mean "cs"?)`,
      `${C}:8:3  translations.xx_unknown  expected a language code from the catalog or languages/ (got "xx_unknown"; define it in languages/<code>.yaml)`,
    ],
  ],
  [
    'an unknown source language',
    component(BASE.replace('source_language: en', 'source_language: english')),
    [
      `${C}:2:18  source_language  expected a language code from the catalog or languages/ (got "english"; define it in languages/<code>.yaml)`,
    ],
  ],
  [
    'a file mask without *',
    component(BASE.replace('po/*.po', 'po/cs.po')),
    [
      `${C}:4:11  filemask  expected a file mask with * standing for the language code (got "po/cs.po")`,
    ],
  ],
  [
    'a project folder name that is not a slug',
    { ...SITE, 'projects/My Project/project.yaml': 'name: P\n' },
    [
      'content/projects/My Project/project.yaml:1:1  expected a slug of letters, digits, "-" and "_" as the project folder name (got "My Project")',
    ],
  ],
  [
    'a component file name that is not a slug',
    { ...SITE, ...PROJECT, 'projects/p/components/my.app.yaml': BASE },
    [
      'content/projects/p/components/my.app.yaml:1:1  expected a slug of letters, digits, "-" and "_" as the component file name (got "my.app")',
    ],
  ],
  [
    'two project slugs that differ only in case',
    { ...SITE, ...PROJECT, 'projects/P/project.yaml': 'name: Other\n' },
    [
      'content/projects/p/project.yaml:1:1  expected a project slug that differs from "P" (content/projects/P/project.yaml) by more than letter case (got "p")',
    ],
  ],
  [
    'a project folder without project.yaml',
    { ...SITE, 'projects/lost/components/c.yaml': BASE },
    [
      'content/projects/lost/project.yaml:1:1  expected a project.yaml in every project folder (missing)',
    ],
  ],
  [
    'a language outside the catalog without name and plural',
    { ...SITE, 'languages/xx_test.yaml': 'population: 5\n' },
    [
      'content/languages/xx_test.yaml:1:1  expected a name for a language that is not in the catalog (missing name)',
      'content/languages/xx_test.yaml:1:1  expected a plural for a language that is not in the catalog (missing plural)',
    ],
  ],
  [
    'a plural formula that does not parse, and one that picks a missing form',
    {
      ...SITE,
      'languages/xx_a.yaml': 'name: A\nplural: {number: 2, formula: "n >"}\n',
      'languages/xx_b.yaml': 'name: B\nplural:\n  number: 2\n  formula: n % 3\n',
    },
    [
      'content/languages/xx_a.yaml:2:30  plural.formula  expected a gettext plural formula such as "n != 1" (got "n >": the formula ends too early)',
      'content/languages/xx_b.yaml:4:12  plural.formula  expected a formula that gives a form from 0 to 1 for every n (got "n % 3" with number 2)',
    ],
  ],
  [
    'a language file named with the wrong letter case',
    { ...SITE, 'languages/pt_br.yaml': 'name: Brazilian\n' },
    [
      'content/languages/pt_br.yaml:1:1  expected the catalog\'s spelling "pt_BR" as the file name (got "pt_br")',
    ],
  ],
  [
    'an explicit id used twice',
    {
      ...SITE,
      'projects/a/project.yaml': 'name: A\nid: 7\n',
      'projects/b/project.yaml': 'name: B\nid: 7\n',
    },
    [
      'content/projects/a/project.yaml:2:5  id  expected a project id used once (got 7, also the id of project "b" in content/projects/b/project.yaml; give one of them another id)',
      'content/projects/b/project.yaml:2:5  id  expected a project id used once (got 7, also the id of project "a" in content/projects/a/project.yaml; give one of them another id)',
    ],
  ],
  [
    'a link to a project that does not exist, and to the own project',
    component(`${BASE}links: [nowhere, p]\n`),
    [
      `${C}:6:9  links[0]  expected the slug of a project in projects/ (got "nowhere")`,
      `${C}:6:18  links[1]  expected another project than the component's own (got "p")`,
    ],
  ],
  [
    'a repository link to a component that does not exist',
    component(BASE.replace('repo: https://git.test/r.git', 'repo: weblate://p/missing')),
    [
      `${C}:3:7  repo  expected weblate://<project>/<component> naming a component in the content (got "weblate://p/missing")`,
    ],
  ],
  [
    'no base URL anywhere',
    { ...PROJECT },
    [
      'content/site.yaml:1:1  base_url  expected the base URL of the snapshot, in site.yaml or with --base-url (missing)',
    ],
  ],
  [
    'a .yml file and a YAML file out of place',
    { ...SITE, 'languages/cs.yml': 'name: Czech\n', 'projects/notes.yaml': 'a: 1\n' },
    [
      'content/languages/cs.yml:1:1  expected the extension .yaml (got .yml)',
      'content/projects/notes.yaml:1:1  expected content files at site.yaml, languages/<code>.yaml, projects/<project>/project.yaml, projects/<project>/components/<component>.yaml or projects/<project>/categories/<category>.yaml',
    ],
  ],
  [
    'an empty component file',
    { ...SITE, ...PROJECT, 'projects/p/components/c.yaml': '# nothing yet\n' },
    [`${C}:1:1  expected a map of fields (got null)`],
  ],
];

describe('content errors', () => {
  it.each(cases)('reports %s', async (_, files, expected) => {
    const root = tempDir();
    writeFiles(join(root, 'content'), files);
    const result = await check(root);
    expect(result).toEqual(expected);
  });

  it('reports every error of every file in one run, sorted by file and line', async () => {
    const root = tempDir();
    writeFiles(join(root, 'content'), {
      ...SITE,
      'projects/b/project.yaml': 'name: B\nweb: 5\n',
      'projects/a/project.yaml': 'nme: A\n',
      'projects/a/components/c.yaml': `${BASE}translations:\n  cs: {translated: 1}\n  xx: {}\n`,
    });
    expect(await check(root)).toEqual([
      'content/projects/a/components/c.yaml:7:20  translations.cs.translated  expected translated <= total (0) (got 1)',
      'content/projects/a/project.yaml:1:1  name  expected a non-empty name (missing)',
      'content/projects/a/project.yaml:1:1  nme  unknown field (did you mean "name"?)',
      'content/projects/b/project.yaml:2:6  web  expected an http(s) URL such as https://example.org/ or "" (got 5)',
    ]);
  });
});

async function check(root: string): Promise<string[]> {
  const previous = process.cwd();
  process.chdir(root);
  try {
    const result = await openContent('content');
    return result.ok ? [] : sortContentErrors(result.errors).map(formatContentError);
  } finally {
    process.chdir(previous);
  }
}
