/**
 * Issue 16: the content of the 2026.8 flavour gets file:line:column errors
 * like the rest: a category that does not exist, a loop of parents, nesting
 * deeper than Weblate allows, two categories with one slug in a project, a
 * component of the slug of a category beside it, check flags Weblate cannot
 * read, and a setting that only one flavour has used in the other (whichever
 * way round, and whether site.yaml or --weblate-version says the flavour).
 * The counters the current statistics add are checked against their totals
 * in both flavours. Each case: the exact messages, sorted.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatContentError, sortContentErrors } from '../../src/errors.ts';
import type { SettingsOverrides } from '../../src/resolve/resolve.ts';
import { openContent } from '../../src/resolve/open.ts';
import { tempDir, writeFiles } from '../helpers.ts';

const CURRENT = { 'site.yaml': 'base_url: https://l10n.test\nweblate_version: "2026.8"\n' };
const OLD = { 'site.yaml': 'base_url: https://l10n.test\n' };
const PROJECT = { 'projects/p/project.yaml': 'name: P\n' };
const BASE =
  'name: C\nsource_language: en\nrepo: https://git.test/r.git\nfilemask: po/*.po\nfile_format: po\n';
const C = 'content/projects/p/components/c.yaml';
const category = (slug: string, body: string) => ({ [`projects/p/categories/${slug}.yaml`]: body });
const cat = (slug: string) => `content/projects/p/categories/${slug}.yaml`;
const FLAVOURS = 'the releases differ as docs/flavours.md says';

const cases: [rule: string, files: Record<string, string>, expected: string[]][] = [
  [
    'a component naming a category that does not exist',
    { ...CURRENT, ...PROJECT, 'projects/p/components/c.yaml': `${BASE}category: docs\n` },
    [`${C}:6:11  category  expected the slug of a category in projects/p/categories/ (got "docs")`],
  ],
  [
    'a category naming a parent that does not exist',
    { ...CURRENT, ...PROJECT, ...category('guide', 'name: Guide\nparent: docs\n') },
    [`${cat('guide')}:2:9  parent  expected the slug of a category of the project (got "docs")`],
  ],
  [
    'a loop of parents, at each category of it and at one below it',
    {
      ...CURRENT,
      ...PROJECT,
      ...category('a', 'name: A\nparent: b\n'),
      ...category('b', 'name: B\nparent: a\n'),
      ...category('c', 'name: C\nparent: a\n'),
    },
    [
      `${cat('a')}:2:9  parent  expected parents that lead up to the project (got the loop a → b → a)`,
      `${cat('b')}:2:9  parent  expected parents that lead up to the project (got the loop b → a → b)`,
      `${cat('c')}:2:9  parent  expected parents that lead up to the project (got the loop a → b → a)`,
    ],
  ],
  [
    'a category that is its own parent',
    { ...CURRENT, ...PROJECT, ...category('a', 'name: A\nparent: a\n') },
    [`${cat('a')}:2:9  parent  expected parents that lead up to the project (got the loop a → a)`],
  ],
  [
    'categories nested four deep',
    {
      ...CURRENT,
      ...PROJECT,
      ...category('a', 'name: A\n'),
      ...category('b', 'name: B\nparent: a\n'),
      ...category('c', 'name: C\nparent: b\n'),
      ...category('d', 'name: D\nparent: c\n'),
    },
    [
      `${cat('d')}:2:9  parent  expected categories nested at most 3 deep, as Weblate allows (got "a/b/c/d")`,
    ],
  ],
  [
    'two categories with one slug in a project (Weblate ignores letter case)',
    {
      ...CURRENT,
      ...PROJECT,
      ...category('Docs', 'name: Docs\n'),
      ...category('docs', 'name: Docs again\n'),
    },
    [
      `${cat('Docs')}:1:1  expected one category per slug in a project (got "Docs" and "docs" in ${cat('docs')}, one slug in Weblate, which ignores letter case)`,
      `${cat('docs')}:1:1  expected one category per slug in a project (got "docs" and "Docs" in ${cat('Docs')}, one slug in Weblate, which ignores letter case)`,
    ],
  ],
  [
    'a component with the slug of a category at its level',
    {
      ...CURRENT,
      ...PROJECT,
      ...category('c', 'name: Cat\n'),
      'projects/p/components/c.yaml': BASE,
    },
    [
      `${C}:1:1  expected a component slug no category of the project has (got "c", also the slug of ${cat('c')})`,
    ],
  ],
  [
    'check flags Weblate cannot read',
    {
      ...CURRENT,
      ...PROJECT,
      'projects/p/components/c.yaml': `${BASE}check_flags: 'max-length:"100'\n`,
    },
    [
      `${C}:6:14  check_flags  expected check flags such as "max-length:100, safe-html" (got "max-length:\\"100": a quoted value from position 12 is not closed)`,
    ],
  ],
  [
    'a secondary language that is not in the catalog',
    { ...CURRENT, 'projects/p/project.yaml': 'name: P\nsecondary_language: xx\n' },
    [
      'content/projects/p/project.yaml:2:21  secondary_language  expected a language code from the catalog or languages/ (got "xx"; define it in languages/<code>.yaml)',
    ],
  ],
  [
    'settings of 2026.8 used with weblate_version "4"',
    {
      ...OLD,
      'projects/p/project.yaml': 'name: P\naccess_control: 100\nlicense: MIT\n',
      'projects/p/components/c.yaml': `${BASE}category: docs\nkey_filter: "^a"\ninherit_license: false\n`,
      ...category('docs', 'name: Docs\n'),
      'languages/cs.yaml': 'id: 7\n',
    },
    [
      `content/languages/cs.yaml:1:1  id  expected what weblate_version 4.x has (got a field of 5.0 and later only; ${FLAVOURS})`,
      `${cat('docs')}:1:1  expected what weblate_version 4.x has (got a category, which Weblate 4.x does not have; ${FLAVOURS})`,
      `${C}:6:1  category  expected what weblate_version 4.x has (got a field of 5.0 and later only; ${FLAVOURS})`,
      `${C}:7:1  key_filter  expected what weblate_version 4.x has (got a field of 5.0 and later only; ${FLAVOURS})`,
      `${C}:8:1  inherit_license  expected what weblate_version 4.x has (got a field of 5.0 and later only; ${FLAVOURS})`,
      `content/projects/p/project.yaml:2:1  access_control  expected what weblate_version 4.x has (got a field of 5.0 and later only; ${FLAVOURS})`,
      `content/projects/p/project.yaml:3:1  license  expected what weblate_version 4.x has (got a field of 5.0 and later only; ${FLAVOURS})`,
    ],
  ],
  [
    'a setting of 4.x used with weblate_version "2026.8"',
    { ...CURRENT, 'projects/p/project.yaml': 'name: P\nset_language_team: false\n' },
    [
      `content/projects/p/project.yaml:2:1  set_language_team  expected what weblate_version 5.0 and later has (got a field of 4.x only; ${FLAVOURS})`,
    ],
  ],
  [
    'the new counters past their totals, in the 4 flavour too',
    {
      ...OLD,
      ...PROJECT,
      'projects/p/components/c.yaml':
        `${BASE}source: {total: 5, total_words: 10, total_chars: 50}\ntranslations:\n  cs:\n` +
        '    translated: 3\n    translated_words: 6\n    translated_chars: 30\n' +
        '    fuzzy_chars: 30\n    approved_words: 7\n    approved_chars: 31\n    readonly_words: 7\n    readonly_chars: 31\n',
    },
    [
      `${C}:12:18  translations.cs.fuzzy_chars  expected translated_chars + fuzzy_chars <= total_chars (50) (got 30 + 30)`,
      `${C}:13:21  translations.cs.approved_words  expected approved_words <= translated_words (6) (got 7)`,
      `${C}:14:21  translations.cs.approved_chars  expected approved_chars <= translated_chars (30) (got 31)`,
      `${C}:15:21  translations.cs.readonly_words  expected readonly_words <= translated_words (6) (got 7)`,
      `${C}:16:21  translations.cs.readonly_chars  expected readonly_chars <= translated_chars (30) (got 31)`,
    ],
  ],
];

describe('content errors of issue 16', () => {
  it.each(cases)('reports %s', async (_, files, expected) => {
    const root = tempDir();
    writeFiles(join(root, 'content'), files);
    expect(await check(root)).toEqual(expected);
  });

  it('takes the flavour from --weblate-version over site.yaml', async () => {
    const root = tempDir();
    writeFiles(join(root, 'content'), {
      ...CURRENT,
      'projects/p/project.yaml': 'name: P\nenforced_2fa: true\n',
    });
    expect(await check(root)).toEqual([]);
    expect(await check(root, { weblateVersion: '4' })).toEqual([
      `content/projects/p/project.yaml:2:1  enforced_2fa  expected what weblate_version 4.x has (got a field of 5.0 and later only; ${FLAVOURS})`,
    ]);
  });
});

async function check(root: string, settings: SettingsOverrides = {}): Promise<string[]> {
  const previous = process.cwd();
  process.chdir(root);
  try {
    const result = await openContent('content', { settings });
    return result.ok ? [] : sortContentErrors(result.errors).map(formatContentError);
  } finally {
    process.chdir(previous);
  }
}
