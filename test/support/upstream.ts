/**
 * The upstream Weblate of the pull and mirror tests: the real sidecar over a copy of the features
 * fixture, stopped after each test that started one.
 */
import { afterEach } from 'vitest';
import { startSidecar, workspace, type RunningSidecar } from '../sidecar/support.ts';

/** Registers the stop after each test; returns what starts an upstream. */
export function useUpstream(): () => Promise<RunningSidecar> {
  const running: RunningSidecar[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((sidecar) => sidecar.stop()));
  });
  return async () => {
    const sidecar = await startSidecar(workspace());
    running.push(sidecar);
    return sidecar;
  };
}
