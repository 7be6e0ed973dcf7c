/** What a pull shows while it runs: a progress line on a terminal, and notices (waits, resuming) everywhere. */
import type { CommandIO } from './command.ts';
import { countOf, formatCount, statusDisplay, type StatusDisplay } from './progress.ts';
import type { PullProgress } from '../pull/pull.ts';

export function formatPullProgress(p: PullProgress): string {
  const resumed = p.resumed > 0 ? ` + ${formatCount(p.resumed)} resumed` : '';
  const components =
    p.componentsKnown > 0
      ? `, ${formatCount(p.componentsDone)} / ${formatCount(p.componentsKnown)} components`
      : '';
  return `Pulling: ${countOf(p.requests, 'request')}${resumed}${components}`;
}

export function pullDisplay(
  io: CommandIO,
  now: () => number = Date.now,
): StatusDisplay<PullProgress> {
  return statusDisplay(io, formatPullProgress, now);
}
