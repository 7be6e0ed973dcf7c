/**
 * The fast path for plain block maps (src/content/plain-yaml.ts) must read
 * every text it accepts to exactly the parser's value, and leave the rest to
 * the parser. Thousands of generated texts, mixing the plain shape with the
 * constructs it must refuse, are read both ways and compared.
 */
import { describe, expect, it } from 'vitest';
import { checkFile } from '../../../src/content/files.ts';
import { readPlainMap } from '../../../src/content/plain-yaml.ts';
import { readYaml } from '../../../src/content/yaml.ts';

const KEYS = ['a', 'name', 'b_c', 'x-y', 'cs', 'pt_BR', 'true', 'null', 'Null', 'FALSE', '__proto__', '1', '-a', 'a b', 'a.b', 'k'.repeat(120), '"q"', '? a'];
const VALUES = [
  '', ' ', 'x', 'hello world', '42', '0', '007', '-3', '+3', '1.5', '1.', '.5', '1e3', '12e45', '.inf', '-.Inf', '.nan', '0x1f', '0o17', '0b1',
  '123456789012345', '1234567890123456', '~', 'null', 'NULL', 'True', 'false', 'yes', 'on', '2024-08-18T23:53:12.041290Z', '9a5f86ca2c',
  'http://a.b/c?d=e', 'a: b', 'a:', 'a:b', 'a #c', 'a#c', '#c', '"q"', '""', '"a\\"b"', '"a\\nb"', "'s'", "''", "'it''s'", '"x" y',
  '&a x', '*a', '!t x', '!!str 1', '|', '>', '- x', '-x', '[1]', '{a: 1}', 'a, b', 'a [b]', 'a {b}', 'Jana Nováková', 'x ', 'x  y',
  '"unterminated', '@x', '%x', '`x', '?x', ':x', 'a\tb', ' lead', 'ünï', '😀 ok', '\u00a0x', 'x\u00a0', 'a\rb', '\ufeffx', 'x:',
  'x # c', '"q" # c', "'s' #c", 'x #', '# c',
];
/** What follows the spaces of a comment line (and lines that only look like one). */
const COMMENTS = ['# c', '#', '#c', '#x: y', '# a: b', "# 'it", '# "q', '#- a', '# a #b', '#&a *b', '# |', '#\t', '##', '\u00a0# c', '-# c'];

/** A deterministic generator (mulberry32), so a failure can be reproduced. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A text of mostly well-formed key lines, nested up to three deep, with odd lines and values mixed in. */
function generatedText(next: () => number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const plainKey = () => (next() < 0.9 ? pick(KEYS.slice(0, 6)) + String(Math.floor(next() * 10)) : pick(KEYS));
  const lines: string[] = [];
  let depth = 0;
  for (let count = 1 + Math.floor(next() * 8); count > 0; count--) {
    const roll = next();
    const indent = ' '.repeat(depth * 2 + (next() < 0.03 ? 1 : 0));
    if (roll < 0.03) lines.push(pick(['', '---', '# c', '- a', '  ', '...']));
    else if (roll < 0.1) lines.push(' '.repeat(Math.floor(next() * 7)) + pick(COMMENTS));
    else if (roll < 0.25 && depth < 3) {
      lines.push(`${indent}${plainKey()}:`);
      depth++;
    } else {
      lines.push(`${indent}${plainKey()}: ${next() < 0.5 ? pick(VALUES.slice(0, 8)) : pick(VALUES)}`);
      if (depth > 0 && next() < 0.3) depth = Math.floor(next() * depth);
    }
  }
  return lines.join('\n') + (next() < 0.8 ? '\n' : '');
}

describe('the fast path for plain block maps', () => {
  it('reads every text it accepts to the value the parser gives, and refuses the rest', () => {
    const next = random(26);
    let accepted = 0;
    let nested = 0;
    let commented = 0;
    for (let i = 0; i < 60000; i++) {
      const text = generatedText(next);
      const plain = readPlainMap(text);
      if (plain === undefined) continue;
      const parsed = readYaml(text);
      expect(parsed.ok, text).toBe(true);
      expect(plain, text).toStrictEqual(parsed.ok ? parsed.value : undefined);
      accepted++;
      if (Object.values(plain).some((value) => typeof value === 'object' && value !== null)) nested++;
      if (/^ *#/m.test(text)) commented++;
    }
    // Both ways must really be compared, on flat and nested maps alike, with comment lines too.
    expect(accepted).toBeGreaterThan(3000);
    expect(nested).toBeGreaterThan(600);
    expect(commented).toBeGreaterThan(500);
  });

  it('accepts a component file of the usual shape', () => {
    const text = [
      'name: Component 35', 'source_language: en', 'vcs: git', 'repo: https://git.example.org/p.git', 'filemask: "locales/*.json"',
      'license: MIT', 'source:', '  total: 410', '  total_words: 1640', 'translations:', '  cs:', '    translated: 339',
      '    last_change: 2024-08-18T23:53:12.041290Z', '    last_author: Jana Nováková', '    revision: 69fdb6834a8afdfd217f90530dc09701da3c2b6f',
      '  de:', '    translated: 278', '',
    ].join('\n');
    const parsed = readYaml(text);
    expect(readPlainMap(text)).toStrictEqual(parsed.ok ? parsed.value : 'parser failed');
  });

  it('points errors of a file it read where the parser would', () => {
    const text = 'name: P\nwebb: https://example.org\ninstructions: 3\n';
    expect(readPlainMap(text)).toBeDefined();
    const result = checkFile('project.yaml', { kind: 'project', project: 'p' }, text);
    expect(result.ok ? [] : result.errors.map((e) => `${e.line}:${e.column} ${e.path}`)).toEqual(['3:15 instructions', '2:1 webb']);
  });
});
