/**
 * The upstream Weblate of the pull and mirror tests: the real sidecar over a copy of the features
 * fixture, stopped after each test that started one.
 */
import { afterEach } from 'vitest';
import { startUpstreamSidecar, workspace, type UpstreamSidecar } from '../sidecar/support.ts';

/** Registers the stop after each test; returns what starts an upstream. */
export function useUpstream(): () => Promise<UpstreamSidecar> {
  const running: UpstreamSidecar[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((sidecar) => sidecar.stop()));
  });
  return async () => {
    const sidecar = await startUpstreamSidecar(workspace());
    running.push(sidecar);
    return sidecar;
  };
}
