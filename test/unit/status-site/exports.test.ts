import { describe, expect, it } from 'vitest';
import { defineShape, ShapedObject } from '../../../src/output/serialize.ts';
import { renderExportCsv, renderExportJson } from '../../../src/status-site/exports.ts';

const shape = defineShape([
  ['total', 'int'],
  ['last_change', 'text'],
  ['translated_percent', 'float'],
  ['name', 'text'],
  ['code', 'unescaped'],
  ['url', 'unescaped'],
]);
const czech = new ShapedObject(shape, [
  4,
  '2024-05-02T10:20:05.499000Z',
  75,
  'Čeština, "CZ"',
  'cs',
  'https://x.test/cs/',
]);
const english = new ShapedObject(shape, [4, null, 100, 'English 😀', 'en', 'https://x.test/en/']);
const whole = new ShapedObject(shape, [
  0,
  '2024-05-02T10:20:05Z',
  0,
  'Tab\there',
  'de',
  'https://x.test/de/',
]);

describe('the JSON stats export', () => {
  it("is written as Django's JsonResponse writes it: indent 2, ASCII only, milliseconds, no final newline", () => {
    expect(renderExportJson([czech, english])).toBe(
      '[\n  {\n    "total": 4,\n    "last_change": "2024-05-02T10:20:05.499Z",\n    "translated_percent": 75.0,\n' +
        '    "name": "\\u010ce\\u0161tina, \\"CZ\\"",\n    "code": "cs",\n    "url": "https://x.test/cs/"\n  },\n' +
        '  {\n    "total": 4,\n    "last_change": null,\n    "translated_percent": 100.0,\n' +
        '    "name": "English \\ud83d\\ude00",\n    "code": "en",\n    "url": "https://x.test/en/"\n  }\n]',
    );
  });

  it('keeps a timestamp without a fraction as it is, escapes control characters, and writes an empty list as []', () => {
    const text = renderExportJson([whole]);
    expect(text).toContain('"last_change": "2024-05-02T10:20:05Z"');
    expect(text).toContain('"name": "Tab\\there"');
    expect(renderExportJson([])).toBe('[]');
  });
});

describe('the CSV stats export', () => {
  it("writes Weblate's columns, an empty cell for each it lacks, quotes where needed, and \\r\\n line ends", () => {
    const lines = renderExportCsv([czech, english], 'component', '4').split('\r\n');
    expect(lines[0]).toBe(
      'name,code,total,translated,translated_percent,translated_words_percent,total_words,translated_words,total_chars,translated_chars,' +
        'translated_chars_percent,failing,failing_percent,fuzzy,fuzzy_percent,url_translate,url,translate_url,last_change,last_author,' +
        'recent_changes,readonly,readonly_percent,approved,approved_percent,suggestions,comments',
    );
    expect(lines[1]).toBe(
      '"Čeština, ""CZ""",cs,4,,75.0,,,,,,,,,,,,https://x.test/cs/,,2024-05-02 10:20:05.499000+00:00,,,,,,,,',
    );
    expect(lines[2]).toBe('English 😀,en,4,,100.0,,,,,,,,,,,,https://x.test/en/,,,,,,,,,,');
    expect(lines[3]).toBe('');
    expect(lines).toHaveLength(4);
  });

  it("writes 4.x's project export with its language summary columns", () => {
    const header = renderExportCsv([], 'project', '4');
    expect(header).toBe(
      'language,code,total,translated,translated_percent,total_words,translated_words,translated_words_percent,total_chars,translated_chars,translated_chars_percent\r\n',
    );
    expect(renderExportCsv([], 'project', '2026.8')).toMatch(/^name,code,total,/);
  });
});
