import { describe, expect, it } from 'vitest';
import { createCounterPacker, isPacked } from '../../../src/model/packed-counters.ts';
import { emptyCounters } from '../../../src/model/statistics.ts';

describe('packed counters', () => {
  const pack = createCounterPacker();
  const counters = { ...emptyCounters(), total: 12, translated: 7, last_change: null };

  it('read back every number they were made from', () => {
    const packed = pack(counters);
    expect(isPacked(packed)).toBe(true);
    expect({ ...counters }).toStrictEqual(
      Object.fromEntries(Object.keys(counters).map((k) => [k, packed[k as keyof typeof packed]])),
    );
  });

  it('compare equal to toEqual only when every number is the same', () => {
    expect(pack(counters)).toEqual(counters);
    expect(pack(counters)).toEqual(pack({ ...counters }));
    expect(pack(counters)).not.toEqual(pack({ ...counters, translated: 8 }));
    expect(pack(counters)).not.toEqual({ ...counters, total: 13 });
  });

  it('keep a number beyond 32 bits as a plain object', () => {
    expect(isPacked(pack({ ...counters, total_chars: 2 ** 33 }))).toBe(false);
  });
});
