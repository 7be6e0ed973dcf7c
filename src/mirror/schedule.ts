/**
 * When a mirror refreshes: `--every` read as an interval, and a queue that
 * never runs two refreshes at once and merges what is asked for during one
 * into the next (a burst of deliveries becomes one refresh).
 */
import { UsageError } from '../errors.ts';
import type { ChangedPlace } from '../pull/refresh.ts';

/** `--every` in milliseconds: a whole number and s, m or h (`30s`, `10m`, `2h`). */
export function parseInterval(text: string): number {
  const match = /^(\d+)([smh])$/.exec(text);
  const ms = match ? Number(match[1]) * { s: 1000, m: 60_000, h: 3_600_000 }[match[2]!]! : 0;
  if (ms < 1000 || ms > 7 * 24 * 3_600_000)
    throw new UsageError(
      `--every expects a number and s, m or h, from 1s to 168h, such as 10m (got "${text}")`,
    );
  return ms;
}

interface RefreshQueue {
  /** Asks for a refresh of `places`, or of everything when undefined. */
  request(places?: readonly ChangedPlace[]): void;
  /** Resolves once no refresh runs or waits. */
  idle(): Promise<void>;
}

/** A queue over `run`, which must not throw: at most one refresh runs; requests meanwhile are merged. */
export function refreshQueue(
  run: (places: ChangedPlace[] | undefined) => Promise<void>,
): RefreshQueue {
  let waiting: { places: ChangedPlace[] | undefined } | null = null;
  let running: Promise<void> | null = null;
  const drain = async () => {
    while (waiting) {
      const next = waiting;
      waiting = null;
      await run(next.places);
    }
    running = null;
  };
  return {
    request(places) {
      waiting = { places: mergePlaces(waiting, places) };
      running ??= drain();
    },
    idle: () => running ?? Promise.resolve(),
  };
}

// --- internal ---

/** What waits, with `places` added; everything (undefined) swallows the rest. */
function mergePlaces(
  waiting: { places: ChangedPlace[] | undefined } | null,
  places: readonly ChangedPlace[] | undefined,
): ChangedPlace[] | undefined {
  if (places === undefined || (waiting && waiting.places === undefined)) return undefined;
  const merged = [...(waiting?.places ?? [])];
  for (const place of places)
    if (!merged.some((p) => p.project === place.project && p.component === place.component))
      merged.push(place);
  return merged;
}
