import { describe, expect, it } from 'vitest';
import {
  defineShape,
  encodeFileText,
  fileTextBytes,
  formatFloat,
  joinFileText,
  JsonFloat,
  RawJson,
  serialize,
  serializeFile,
  serializeFileInParts,
  ShapedObject,
} from '../../../src/output/serialize.ts';

describe('serialize', () => {
  it('writes compact JSON with keys in insertion order', () => {
    expect(serialize({ b: 1, a: [true, null, 'x'], c: {} })).toBe(
      '{"b":1,"a":[true,null,"x"],"c":{}}',
    );
  });

  it('writes floats as Python does, with a decimal point', () => {
    expect(
      serialize([new JsonFloat(100), new JsonFloat(0), new JsonFloat(14.2), new JsonFloat(50)]),
    ).toBe('[100.0,0.0,14.2,50.0]');
  });

  it.each([
    [100, '100.0'],
    [0, '0.0'],
    [-0, '-0.0'],
    [0.1, '0.1'],
    [99.9, '99.9'],
    [1e16, '1e+16'],
    [1.5e16, '1.5e+16'],
    [1e-5, '1e-05'],
    [0.0001, '0.0001'],
    [123.456, '123.456'],
    [1e22, '1e+22'],
    [-2.5, '-2.5'],
    // The literal is meant to round: Python prints the double it rounds to.
    // eslint-disable-next-line no-loss-of-precision
    [12345678901234567, '1.2345678901234568e+16'],
  ])('formats %d as Python repr %s', (value, text) => {
    expect(formatFloat(value)).toBe(text);
  });

  it('keeps non-ASCII text as UTF-8 and escapes only U+2028 and U+2029', () => {
    expect(serialize('Nováková ‮ 日本 \u2028\u2029')).toBe('"Nováková ‮ 日本 \\u2028\\u2029"');
    expect(Buffer.from(serialize('á'))).toEqual(Buffer.from([0x22, 0xc3, 0xa1, 0x22]));
  });

  it('keeps characters outside the BMP as they are and escapes a lone surrogate', () => {
    expect(serialize('🌍 ok')).toBe('"🌍 ok"');
    expect(serialize('a\ud800b')).toBe('"a\\ud800b"');
  });

  it('escapes control characters as Python does', () => {
    expect(serialize('a"b\\c\n\t\u0001\u007f')).toBe('"a\\"b\\\\c\\n\\t\\u0001\u007f"');
  });

  it('splices raw JSON as is', () => {
    expect(serialize({ a: RawJson.of({ x: new JsonFloat(1) }) })).toBe('{"a":{"x":1.0}}');
  });

  it('refuses a plain non-integer number, which would lose its float form', () => {
    expect(() => serialize(1.5)).toThrow(/Internal error/);
    expect(() => serialize(2 ** 53)).toThrow(/Internal error/);
  });

  it('ends a file with one newline', () => {
    expect(serializeFile({ a: 1 })).toBe('{"a":1}\n');
  });
});

describe('serializeFileInParts', () => {
  const page = defineShape([
    ['count', 'int'],
    ['next', 'unescaped'],
    ['results', 'json'],
  ]);

  const raw = RawJson.of({ m: new JsonFloat(1), name: 'Čeština' });

  it('ends a part after each item of a list of objects, and splices raw JSON as its bytes, with the same bytes as serializeFile', () => {
    const body = new ShapedObject(page, [3, 'https://x/?page=2', [{ n: 'á' }, raw, [null]]]);
    const parts = serializeFileInParts(body);
    expect(parts).toEqual([
      '{"count":3,"next":"https://x/?page=2","results":[{"n":"á"}',
      ',',
      raw.bytes,
      ',[null]',
      ']}\n',
    ]);
    expect(joinFileText(parts)).toBe(serializeFile(body));
    expect(fileTextBytes(parts)).toBe(Buffer.byteLength(serializeFile(body)));
    expect(encodeFileText(parts).toString()).toBe(serializeFile(body));
  });

  it('splices raw JSON nested at any depth, and encodes a value it holds only once', () => {
    const outer = RawJson.of({ inner: raw, list: [raw] });
    expect(outer.text()).toBe(
      '{"inner":{"m":1.0,"name":"Čeština"},"list":[{"m":1.0,"name":"Čeština"}]}',
    );
    const parts = serializeFileInParts(new ShapedObject(page, [1, null, [{ a: outer }]]));
    expect(parts).toEqual(['{"count":1,"next":null,"results":[{"a":', outer.bytes, '}', ']}\n']);
  });

  it('writes a value without raw JSON and without a list of objects as one string', () => {
    const empty = new ShapedObject(page, [0, null, []]);
    const numbers = new ShapedObject(page, [2, null, [1, 2]]);
    for (const value of [empty, numbers, { results: [1, 'a'] }])
      expect(serializeFileInParts(value)).toBe(serializeFile(value));
  });
});
