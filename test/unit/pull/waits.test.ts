import { describe, expect, it } from 'vitest';
import {
  backoffMs,
  createRateBudget,
  readRateLimit,
  retryAfterMs,
} from '../../../src/pull/waits.ts';

describe('backoffMs', () => {
  it.each([
    // attempt, random, expected: the ceiling doubles from 500 ms up to 4 s, then 50–100 % of it
    [0, 0, 250],
    [0, 1, 500],
    [1, 0.5, 750],
    [2, 0, 1000],
    [3, 1, 4000],
    [10, 1, 4000],
    [10, 0, 2000],
  ])('retry %i with random %f waits %i ms', (attempt, random, expected) => {
    expect(backoffMs(attempt, 500, 4000, () => random)).toBe(expected);
  });
});

describe('retryAfterMs', () => {
  const now = Date.parse('2024-05-02T10:00:00Z');
  it.each([
    ['1', 1000],
    [' 120 ', 120_000],
    ['0', 0],
    ['Thu, 02 May 2024 10:00:30 GMT', 30_000],
    ['Thu, 02 May 2024 09:59:00 GMT', 0],
  ])('reads %j as %i ms', (header, expected) => {
    expect(retryAfterMs(header, now)).toBe(expected);
  });

  it.each([[null], ['soon'], ['-5']])('gives null for %j', (header) => {
    expect(retryAfterMs(header, now)).toBeNull();
  });
});

describe('readRateLimit', () => {
  const headers = (values: Record<string, string>) => new Headers(values);

  it("reads Weblate's remaining requests and seconds to reset", () => {
    expect(
      readRateLimit(
        headers({
          'X-RateLimit-Limit': '100',
          'X-RateLimit-Remaining': '42',
          'X-RateLimit-Reset': '3600',
        }),
      ),
    ).toEqual({
      remaining: 42,
      resetSeconds: 3600,
    });
  });

  it('ignores incomplete or unreadable headers', () => {
    expect(readRateLimit(headers({ 'X-RateLimit-Remaining': '42' }))).toBeNull();
    expect(
      readRateLimit(headers({ 'X-RateLimit-Remaining': 'many', 'X-RateLimit-Reset': '1' })),
    ).toBeNull();
    expect(readRateLimit(headers({}))).toBeNull();
  });
});

describe('the rate budget', () => {
  it('lets requests go while nothing is announced', () => {
    const budget = createRateBudget();
    budget.spend();
    expect(budget.waitMs(0)).toBe(0);
  });

  it('waits for the reset once the announced requests are spent', () => {
    const budget = createRateBudget();
    budget.observe({ remaining: 2, resetSeconds: 60 }, 1_000, 0);
    expect(budget.waitMs(1_000)).toBe(0);
    budget.spend();
    expect(budget.waitMs(1_000)).toBe(0);
    budget.spend();
    expect(budget.waitMs(31_000)).toBe(30_000);
    budget.reset();
    expect(budget.waitMs(31_000)).toBe(0);
  });

  it('counts requests still in flight against what a response announced', () => {
    const budget = createRateBudget();
    budget.observe({ remaining: 3, resetSeconds: 10 }, 0, 3);
    expect(budget.waitMs(0)).toBe(10_000);
  });

  it('never raises the estimate within a window when answers arrive out of order', () => {
    const budget = createRateBudget();
    budget.observe({ remaining: 1, resetSeconds: 60 }, 0, 0);
    budget.observe({ remaining: 2, resetSeconds: 60 }, 0, 0);
    budget.spend();
    expect(budget.waitMs(0)).toBe(60_000);
  });

  it('takes the announcement of a new window as it comes', () => {
    const budget = createRateBudget();
    budget.observe({ remaining: 1, resetSeconds: 10 }, 0, 0);
    budget.observe({ remaining: 99, resetSeconds: 3600 }, 20_000, 0);
    budget.spend();
    expect(budget.waitMs(20_000)).toBe(0);
  });

  it('does not wait for a reset that has passed', () => {
    const budget = createRateBudget();
    budget.observe({ remaining: 0, resetSeconds: 10 }, 0, 0);
    expect(budget.waitMs(10_001)).toBe(0);
  });
});
