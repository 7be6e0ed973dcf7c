/**
 * `mirror --listen 0` as a process, as a user runs it with the store of test/support/s3-proxy.ts,
 * stopped after each test that started one.
 */
import { spawn } from 'node:child_process';
import { afterEach } from 'vitest';
import { scriptArgs } from '../helpers.ts';
import { childOutput, type ChildOutput } from './child-output.ts';
import { TEST_AWS_ENV } from './s3-proxy.ts';

export interface MirrorListener {
  /** Where it takes deliveries. */
  url: string;
  output: ChildOutput;
  /** SIGTERM, and wait for the exit. */
  stop: () => Promise<void>;
}

/** Registers the stop after each test; returns what starts a listener, resolved once its first refresh printed `last` (its last step). */
export function useMirrorListener(): (
  args: string[],
  last: 'build' | 'deploy',
) => Promise<MirrorListener> {
  const running: MirrorListener[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((listener) => listener.stop()));
  });
  return async (args, last) => {
    const child = spawn(process.execPath, [...scriptArgs('mirror'), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...TEST_AWS_ENV },
    });
    const output = childOutput(child);
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    const stop = async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    };
    running.push({ url: '', output, stop });
    const [, url] = await output.waitFor(/deliveries at (http:\/\/\S+\/)\n/, 'the listener');
    await output.waitFor(new RegExp(`^${last}: `, 'm'), 'the first refresh');
    return { url: url!, output, stop };
  };
}
