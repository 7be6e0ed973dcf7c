/**
 * Issue 27, fast tests: waits for a process's output end on the line they wait for or on the
 * process's end, not after a fixed number of polls that an idle disk fits in. The child here
 * prints its line only when the test says so, however long that takes.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { childOutput } from '../support/child-output.ts';

/** A node process that prints `ready <text>` for each line it reads, and exits at `exit`. */
function echo() {
  const code = `
    process.stdin.setEncoding('utf8');
    let buffered = '';
    process.stdin.on('data', (chunk) => {
      buffered += chunk;
      for (let end; (end = buffered.indexOf('\\n')) >= 0; buffered = buffered.slice(end + 1)) {
        const line = buffered.slice(0, end);
        if (line === 'exit') process.exit(3);
        console.log('ready ' + line);
      }
    });
  `;
  return spawn(process.execPath, ['-e', code], { stdio: ['pipe', 'pipe', 'pipe'] });
}

describe('childOutput', () => {
  it('resolves on the line once it is printed, each match only once', async () => {
    const child = echo();
    const output = childOutput(child);
    const first = output.waitFor(/ready (\w+)\n/);
    child.stdin.write('one\n');
    expect((await first)[1]).toBe('one');
    child.stdin.write('two\n');
    expect((await output.waitFor(/ready (\w+)\n/))[1]).toBe('two');
    child.stdin.end('exit\n');
  });

  it('rejects with the output when the process ends without the line', async () => {
    const child = echo();
    const output = childOutput(child);
    const never = output.waitFor(/ready never\n/, 'the never line');
    child.stdin.write('other\n');
    await output.waitFor(/ready other\n/);
    child.stdin.end('exit\n');
    await expect(never).rejects.toThrow(/no the never line before the process ended:\nready other/);
  });
});
