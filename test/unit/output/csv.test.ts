/**
 * The CSV of Weblate's API from a JSON text, byte for byte as djangorestframework-csv's
 * CSVRenderer writes it behind Weblate's FlatBaseRenderer.
 */
import { describe, expect, it } from 'vitest';
import { csvOfJson } from '../../../src/output/csv.ts';

describe('csvOfJson', () => {
  it('writes an object as a sorted header and one row, CRLF, numbers as Python prints them', () => {
    expect(
      csvOfJson('{"total":4,"code":"cs","translated_percent":50.0,"last_change":null}\n'),
    ).toBe('code,last_change,total,translated_percent\r\ncs,,4,50.0\r\n');
  });

  it("takes a page's results, fills a missing key with nothing, and booleans as True/False", () => {
    const page = '{"count":2,"next":null,"previous":null,"results":[{"b":true},{"a":false}]}';
    expect(csvOfJson(page)).toBe('a,b\r\n,True\r\nFalse,\r\n');
  });

  it('flattens nested keys with a dot and list items by index', () => {
    expect(csvOfJson('[{"language":{"code":"cs","aliases":["cze","ces"]},"x":{}}]')).toBe(
      'language.aliases.0,language.aliases.1,language.code\r\ncze,ces,cs\r\n',
    );
  });

  it('quotes only a field with a comma, a quote or a line break, and keeps formulas as they are', () => {
    expect(csvOfJson('{"a":"x, y","b":"say \\"hi\\"","c":"two\\nlines","d":"=1+1"}')).toBe(
      'a,b,c,d\r\n"x, y","say ""hi""","two\nlines",=1+1\r\n',
    );
  });

  it('gives an empty list nothing at all', () => {
    expect(csvOfJson('{"count":0,"next":null,"previous":null,"results":[]}\n')).toBe('');
  });

  it('refuses a text that is not JSON as an internal error', () => {
    expect(() => csvOfJson('{"a":')).toThrow(/^Internal error: /);
  });
});
