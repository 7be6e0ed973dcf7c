import { describe, expect, it } from 'vitest';
import { countOf, formatCount } from '../../../src/cli/progress.ts';

describe('counts in messages', () => {
  it('write thousands as en-US does, without the locale machinery', () => {
    for (const n of [0, 1, 12, 999, 1000, 9283, 12345, 100085, 999999, 1000000, 5673025, 2 ** 40]) {
      expect(formatCount(n)).toBe(n.toLocaleString('en-US'));
    }
  });

  it('take the noun in the singular for one', () => {
    expect(countOf(1, 'file')).toBe('1 file');
    expect(countOf(9283, 'file')).toBe('9,283 files');
  });
});
