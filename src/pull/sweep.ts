/**
 * When an incremental pull reads every project's statistics (the sweep).
 * Between sweeps a pull trusts the instance's changes feed alone, which
 * costs a handful of requests at any size; the sweep catches what the feed
 * does not show. The setting is a number of runs (`12`: every twelfth run)
 * or of hours (`6h`: once six hours have passed since the last sweep); it is
 * kept in the pull record, so later runs keep it without the flag.
 */

export type SweepEvery = { runs: number } | { hours: number };

/** What the record keeps of the sweeps: the setting, when the last one began (the server's clock), and the runs since. */
export interface SweepRecord {
  every: string;
  date: string | null;
  runs: number;
  /** Whether the changes feed ever listed a change: a snapshot's feed never does, though the snapshot changes. */
  listed: boolean;
}

/** Sweep once six hours have passed: an hourly mirror reads the statistics four times a day. */
export const DEFAULT_SWEEP_EVERY = '6h';

/** The setting `text` gives (`12` runs, `6h` hours), or null when it is neither. */
export function parseSweepEvery(text: string): SweepEvery | null {
  const match = /^([1-9]\d{0,5})(h?)$/.exec(text);
  if (!match) return null;
  const value = Number(match[1]);
  return match[2] === 'h' ? { hours: value } : { runs: value };
}

/** Whether this run (its server date `now`) must sweep, after the sweeps `last` records. */
export function sweepDue(
  every: SweepEvery,
  last: SweepRecord | undefined,
  now: string | null,
): boolean {
  if (last === undefined) return true;
  if ('runs' in every) return last.runs + 1 >= every.runs;
  const since = last.date === null ? Number.NaN : Date.parse(last.date);
  const at = now === null ? Number.NaN : Date.parse(now);
  // Without both clocks the hours cannot be told: sweep.
  if (Number.isNaN(since) || Number.isNaN(at)) return true;
  return at - since >= every.hours * 3_600_000;
}

/** The record after this run: a sweep starts the count again at its date, a quiet run adds one. */
export function nextSweepRecord(
  every: string,
  last: SweepRecord | undefined,
  run: { swept: boolean; listed: boolean; now: string | null },
): SweepRecord {
  const listed = run.listed || last?.listed === true;
  if (run.swept || last === undefined) return { every, date: run.now, runs: 0, listed };
  return { every, date: last.date, runs: last.runs + 1, listed };
}
