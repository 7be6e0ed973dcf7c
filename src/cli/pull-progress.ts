/** What a pull shows while it runs: a progress line on a terminal, and notices (waits, resuming) everywhere. */
import type { CommandIO } from './command.ts';
import type { PullProgress } from '../pull/pull.ts';
import { countOf } from './progress.ts';

interface PullDisplay {
  progress?: (progress: PullProgress) => void;
  notice: (text: string) => void;
  /** Ends the progress line, if one is shown. */
  finish: () => void;
}

export function formatPullProgress(p: PullProgress): string {
  const resumed = p.resumed > 0 ? ` + ${p.resumed.toLocaleString('en-US')} resumed` : '';
  const components =
    p.componentsKnown > 0 ? `, ${p.componentsDone.toLocaleString('en-US')} / ${p.componentsKnown.toLocaleString('en-US')} components` : '';
  return `Pulling: ${countOf(p.requests, 'request')}${resumed}${components}`;
}

export function pullDisplay(io: CommandIO, now: () => number = Date.now): PullDisplay {
  if (!io.interactive) return { notice: (text) => io.err(`${text}\n`), finish: () => undefined };
  let lastShown = 0;
  let line = '';
  const show = (text: string) => {
    line = text;
    io.err(`\r\x1b[K${text}`);
  };
  return {
    progress(p) {
      if (now() - lastShown < 100) return;
      lastShown = now();
      show(formatPullProgress(p));
    },
    notice(text) {
      io.err(`\r\x1b[K${text}\n`);
      if (line) io.err(line);
    },
    finish() {
      if (line) io.err('\n');
      line = '';
    },
  };
}
