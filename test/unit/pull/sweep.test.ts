/** When an incremental pull sweeps: every N runs, or once T hours passed on the server's clock. */
import { describe, expect, it } from 'vitest';
import { nextSweepRecord, parseSweepEvery, sweepDue } from '../../../src/pull/sweep.ts';

const last = (date: string | null, runs: number) => ({ every: '6h', date, runs, listed: true });

describe('the sweep setting', () => {
  it('reads runs and hours, and nothing else', () => {
    expect(parseSweepEvery('12')).toEqual({ runs: 12 });
    expect(parseSweepEvery('6h')).toEqual({ hours: 6 });
    for (const text of ['0', '0h', '-1', '1.5', 'h', '6 h', '6H', 'weekly', '1234567'])
      expect(parseSweepEvery(text)).toBeNull();
  });

  it('sweeps on the Nth run after a sweep', () => {
    expect(sweepDue({ runs: 3 }, last(null, 0), null)).toBe(false);
    expect(sweepDue({ runs: 3 }, last(null, 1), null)).toBe(false);
    expect(sweepDue({ runs: 3 }, last(null, 2), null)).toBe(true);
    expect(sweepDue({ runs: 1 }, last(null, 0), null)).toBe(true);
  });

  it('sweeps once the hours passed by the server clock, and when a clock is missing', () => {
    const at = 'Thu, 26 Nov 2026 12:00:00 GMT';
    expect(sweepDue({ hours: 6 }, last(at, 40), 'Thu, 26 Nov 2026 17:59:59 GMT')).toBe(false);
    expect(sweepDue({ hours: 6 }, last(at, 0), 'Thu, 26 Nov 2026 18:00:00 GMT')).toBe(true);
    expect(sweepDue({ hours: 6 }, last(null, 0), 'Thu, 26 Nov 2026 13:00:00 GMT')).toBe(true);
    expect(sweepDue({ hours: 6 }, last(at, 0), null)).toBe(true);
    expect(sweepDue({ hours: 6 }, undefined, at)).toBe(true);
  });

  it('counts runs from the last sweep, and keeps knowing the feed lists changes', () => {
    const swept = nextSweepRecord('3', last('A', 2), { swept: true, listed: false, now: 'B' });
    expect(swept).toEqual({ every: '3', date: 'B', runs: 0, listed: true });
    const quiet = nextSweepRecord('3', swept, { swept: false, listed: true, now: 'C' });
    expect(quiet).toEqual({ every: '3', date: 'B', runs: 1, listed: true });
  });
});
