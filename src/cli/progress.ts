/** A one-line progress display for terminals; silent elsewhere. */
import type { CommandIO } from './command.ts';

export function progressReporter(
  io: CommandIO,
  label: string,
): ((done: number, total: number) => void) | undefined {
  if (!io.interactive) return undefined;
  let lastShown = 0;
  return (done, total) => {
    const now = Date.now();
    if (done < total && now - lastShown < 100) return;
    lastShown = now;
    const share = total > 0 ? Math.floor((100 * done) / total) : 100;
    io.err(`\r${label}: ${formatCount(done)} / ${formatCount(total)} files (${share}%)`);
    if (done >= total) io.err('\n');
  };
}

/** A line that shows progress on a terminal (rewritten at most ten times a second), and notices printed above it. */
export interface StatusDisplay<T> {
  /** Absent when the output is not a terminal. */
  progress?: (progress: T) => void;
  notice: (text: string) => void;
  /** Ends the progress line, if one is shown. */
  finish: () => void;
}

export function statusDisplay<T>(
  io: CommandIO,
  format: (progress: T) => string,
  now: () => number = Date.now,
): StatusDisplay<T> {
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
      show(format(p));
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

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
}

/** `1 project`, `2 projects`. */
export function countOf(count: number, noun: string): string {
  return `${formatCount(count)} ${count === 1 ? noun : `${noun}s`}`;
}

/** A whole number with commas between thousands (`9,283`), as en-US writes it, without starting the locale machinery (10 ms a process). */
export function formatCount(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+$)/g, ',');
}
