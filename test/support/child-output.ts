/**
 * A child process's stdout and stderr as one text, and waits for a line in it. A wait ends on
 * the event it is for, the line or the child's exit, never after a fixed time: on a busy disk a
 * start or an update can take many times as long as on an idle one, and only the test's own
 * timeout should decide when that is too long.
 */
import type { ChildProcess } from 'node:child_process';

export interface ChildOutput {
  /** Everything printed so far. */
  text: () => string;
  /**
   * Resolves with the first match of `pattern` in output not matched by an earlier wait (or
   * printed later); rejects with the output if the child exits first.
   */
  waitFor: (pattern: RegExp, what?: string) => Promise<RegExpExecArray>;
}

/** Children still running, killed if the test worker exits first (a test timed out waiting). */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export function childOutput(child: ChildProcess): ChildOutput {
  running.add(child);
  child.once('exit', () => running.delete(child));
  let text = '';
  let seen = 0;
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const listener of [...listeners]) listener();
  };
  child.stdout?.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    changed();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    changed();
  });
  // 'close', not 'exit': the last output may still be on its way when the process exits.
  let closed = false;
  child.once('close', () => {
    closed = true;
    changed();
  });
  return {
    text: () => text,
    waitFor(pattern, what = String(pattern)) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(text.slice(seen));
          if (match) {
            listeners.delete(check);
            seen += match.index + match[0].length;
            resolve(match);
          } else if (closed) {
            listeners.delete(check);
            reject(new Error(`no ${what} before the process ended:\n${text}`));
          }
        };
        listeners.add(check);
        check();
      });
    },
  };
}
