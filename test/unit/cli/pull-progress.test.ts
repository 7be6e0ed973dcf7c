import { describe, expect, it } from 'vitest';
import type { CommandIO } from '../../../src/cli/command.ts';
import { formatPullProgress, pullDisplay } from '../../../src/cli/pull-progress.ts';

function io(interactive: boolean) {
  const written: string[] = [];
  const value: CommandIO = {
    out: () => undefined,
    err: (text) => void written.push(text),
    interactive,
    env: {},
  };
  return { value, written };
}

const progress = { requests: 1234, resumed: 0, componentsDone: 3, componentsKnown: 40 };

describe('the pull display', () => {
  it('formats requests, resumed answers and components', () => {
    expect(formatPullProgress(progress)).toBe('Pulling: 1,234 requests, 3 / 40 components');
    expect(formatPullProgress({ ...progress, resumed: 12, componentsKnown: 0 })).toBe(
      'Pulling: 1,234 requests + 12 resumed',
    );
    expect(formatPullProgress({ ...progress, requests: 1, componentsKnown: 0 })).toBe(
      'Pulling: 1 request',
    );
  });

  it('rewrites one line on a terminal, and keeps it below each notice', () => {
    const terminal = io(true);
    let clock = 0;
    const display = pullDisplay(terminal.value, () => (clock += 200));
    display.progress!(progress);
    display.notice('Waiting 1 s');
    display.finish();
    expect(terminal.written.join('')).toBe(
      '\r\x1b[KPulling: 1,234 requests, 3 / 40 components\r\x1b[KWaiting 1 s\nPulling: 1,234 requests, 3 / 40 components\n',
    );
  });

  it('shows no progress elsewhere, only notices', () => {
    const pipe = io(false);
    const display = pullDisplay(pipe.value);
    expect(display.progress).toBeUndefined();
    display.notice('Waiting 1 s');
    display.finish();
    expect(pipe.written).toEqual(['Waiting 1 s\n']);
  });
});
