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
  const output = watchedText('the process ended');
  child.stdout?.on('data', (chunk: Buffer) => output.add(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.add(chunk.toString()));
  // 'close', not 'exit': the last output may still be on its way when the process exits.
  child.once('close', () => output.end());
  return { text: output.text, waitFor: output.waitFor };
}

/** Output that arrives in pieces until it ends (a child's, or a command's in the test's process). */
export interface WatchedText extends ChildOutput {
  add: (text: string) => void;
  /** No more output will come: a wait not yet met rejects, naming `ending`. */
  end: () => void;
}

export function watchedText(ending: string): WatchedText {
  let text = '';
  let seen = 0;
  let ended = false;
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const listener of [...listeners]) listener();
  };
  return {
    text: () => text,
    add: (more) => {
      text += more;
      changed();
    },
    end: () => {
      ended = true;
      changed();
    },
    waitFor(pattern, what = String(pattern)) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(text.slice(seen));
          if (match) {
            listeners.delete(check);
            seen += match.index + match[0].length;
            resolve(match);
          } else if (ended) {
            listeners.delete(check);
            reject(new Error(`no ${what} before ${ending}:\n${text}`));
          }
        };
        listeners.add(check);
        check();
      });
    },
  };
}
