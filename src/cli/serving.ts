/** What the commands that serve over HTTP share: the --port value, and waiting for Ctrl+C or SIGTERM. */
import { UsageError } from '../errors.ts';
import type { CommandIO } from './command.ts';

export function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535)
    throw new UsageError(`--port expects a port number from 0 to 65535 (got "${text}")`);
  return port;
}

/** Resolves on the first SIGINT or SIGTERM; in a test's process, when the test stops the command. */
export function stopSignal(io: Pick<CommandIO, 'stopped'>): Promise<void> {
  if (io.stopped) return io.stopped;
  return new Promise((stop) => {
    process.once('SIGINT', () => stop());
    process.once('SIGTERM', () => stop());
  });
}
