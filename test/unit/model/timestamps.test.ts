import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatTimestamp,
  laterTimestamp,
  parseTimestamp,
  type Timestamp,
} from '../../../src/model/timestamps.ts';

const format = (text: string) => {
  const parsed = parseTimestamp(text);
  return parsed.ok ? formatTimestamp(parsed.value) : `error: ${parsed.reason}`;
};

describe('timestamps', () => {
  it.each([
    ['2024-05-02T10:20:05.499000Z', '2024-05-02T10:20:05.499000Z'],
    ['2024-05-02T10:20:05.5Z', '2024-05-02T10:20:05.500000Z'],
    ['2024-05-02T10:20:05Z', '2024-05-02T10:20:05Z'],
    ['2024-05-02T10:20:05.000000Z', '2024-05-02T10:20:05Z'],
    ['2024-05-02T12:20:05.000001+02:00', '2024-05-02T10:20:05.000001Z'],
    ['2024-01-01T00:30:00-01:00', '2024-01-01T01:30:00Z'],
    ['2024-01-01T00:30:00+0530', '2023-12-31T19:00:00Z'],
    ['2024-05-02 10:20:05', '2024-05-02T10:20:05Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00Z'],
    ['0050-03-01T00:00:00Z', '0050-03-01T00:00:00Z'],
  ])('writes %s as %s (UTC, Z, six-digit microseconds or none)', (input, output) => {
    expect(format(input)).toBe(output);
  });

  it.each([
    ['2023-02-29T00:00:00Z', 'a valid calendar date and time'],
    ['2024-05-02', 'an ISO 8601 date and time'],
    ['2024-05-02T10:20:05.1234567Z', 'at most six fraction digits'],
    ['yesterday', 'an ISO 8601 date and time'],
    ['0001-01-01T00:30:00+01:00', 'years 1 to 9999'],
  ])('refuses %s', (input, reason) => {
    expect(format(input)).toContain(reason);
  });

  it("reads Weblate's own form exactly as the same instant written with an offset", () => {
    // Texts ending in Z take a shorter path than those with an offset; both must agree, invalid dates included.
    const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
    const text = fc
      .tuple(
        fc.integer({ min: 0, max: 9999 }),
        two(13),
        two(32),
        two(24),
        two(60),
        two(60),
        fc.option(fc.stringMatching(/^\d{1,7}$/)),
      )
      .map(
        ([y, mo, d, h, mi, s, f]) =>
          `${String(y).padStart(4, '0')}-${mo}-${d}T${h}:${mi}:${s}${f === null ? '' : `.${f}`}`,
      );
    fc.assert(
      fc.property(text, (local) => {
        expect(parseTimestamp(`${local}Z`)).toEqual(parseTimestamp(`${local}+00:00`));
      }),
      { seed: 42, numRuns: 5000 },
    );
  });

  it('orders instants, whatever offset they were written with', () => {
    const a = (parseTimestamp('2024-05-02T12:00:00+02:00') as { value: Timestamp }).value;
    const b = (parseTimestamp('2024-05-02T10:00:00.000001Z') as { value: Timestamp }).value;
    expect(laterTimestamp(a, b)).toBe(b);
    expect(laterTimestamp(null, a)).toBe(a);
    expect(laterTimestamp(null, null)).toBeNull();
  });
});
