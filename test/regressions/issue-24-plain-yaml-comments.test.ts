/**
 * Issue 24: the fast path for plain block maps (src/content/plain-yaml.ts) handed any file with a
 * comment to the YAML parser, though user-written files often have comments on lines of their
 * own; it now passes over such lines and reads the rest, to the parser's value. Its generated
 * comparison with the parser also found a value ending in ` #` (a comment with nothing after it)
 * read with the `#` kept; such a value is now left to the parser.
 */
import { describe, expect, it } from 'vitest';
import { checkFile } from '../../src/content/files.ts';
import { readPlainMap } from '../../src/content/plain-yaml.ts';
import { readYaml } from '../../src/content/yaml.ts';

const COMMENTED = [
  '# A component written by hand.',
  'name: Component 7',
  'source_language: en',
  '  # The repository all components share.',
  'repo: https://git.example.org/p.git',
  'filemask: "locales/*.json"',
  'file_format: json',
  'source:',
  '# counted by hand',
  '  total: 410',
  'translations:',
  '  cs:',
  '    # reviewed in June',
  '    translated: 339',
  '    last_author: Jana Nováková',
  '#   de:',
  '#     translated: 1',
  '  fr:',
  '    translated: 20',
  '# the end',
].join('\n');

describe('comment lines in the fast path for plain block maps', () => {
  it('reads a component file with comments on lines of their own to the parser value', () => {
    const parsed = readYaml(COMMENTED);
    expect(parsed.ok).toBe(true);
    expect(readPlainMap(COMMENTED)).toStrictEqual(parsed.ok ? parsed.value : 'parser failed');
  });

  it('reads a value ending in a lone ` #` without the `#`, as the parser does', () => {
    expect(readPlainMap('name: Project #\n')).toBeUndefined();
    const result = checkFile(
      'project.yaml',
      { kind: 'project', project: 'p' },
      'name: Project #\n',
    );
    expect(result.ok && result.checked.data).toMatchObject({ name: 'Project' });
  });
});
