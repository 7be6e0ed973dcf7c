/**
 * A deploy's state kept in a local S3-protocol bucket, the set-up the state tests share: the local
 * server with one bucket behind its logging proxy (s3-proxy.ts) and the AWS environment; runs
 * through the state of the target `site/` that neither wait for a lease nor retry, with sleeps
 * that return at once and a fixed draw of chance.
 */
import type { LocalS3 } from '../../bench/s3-server.ts';
import { s3Store } from '../../src/deploy/s3.ts';
import type { ObjectStore } from '../../src/deploy/store.ts';
import {
  withStoreState,
  type RestoredState,
  type StateDeployReport,
  type StateRunOptions,
} from '../../src/deploy/store-state.ts';
import type { DeployTarget } from '../../src/deploy/target.ts';
import type { Proxy } from './proxy.ts';
import { useLocalS3 } from './s3-proxy.ts';

/** The state's key in the bucket, for the target `site/`. */
export const STATE_KEY = 'site/.weblate-snapshot/state';

export interface StateBucket {
  /** The server and its proxy, started before the file's tests (the proxy's log reset before each). */
  servers: { s3: LocalS3; proxy: Proxy };
  target: DeployTarget;
  /** A client of the bucket through the proxy. */
  store: () => ObjectStore;
  /** `work` run through the state with the tree `outDir`, and `more` of withStoreState's options. */
  runWithState: (
    outDir: string,
    more: Partial<StateRunOptions>,
    work: (restored: RestoredState) => Promise<StateDeployReport>,
  ) => Promise<StateDeployReport>;
}

/** For a test file: a bucket whose state the tests run through. */
export function useStateBucket(bucket: string): StateBucket {
  const servers = useLocalS3(bucket);
  const target = { bucket, prefix: 'site', endpoint: null };
  const store = () => s3Store({ bucket, endpoint: servers.proxy.url, region: null });
  const deps = {
    store,
    stateStore: store,
    sleep: async () => {},
    random: () => 0.5,
    now: Date.now,
  };
  return {
    servers,
    target,
    store,
    runWithState: (outDir, more, work) =>
      withStoreState(
        { state: { bucket, key: STATE_KEY }, waitMs: 0, target, outDir, retries: 0, ...more },
        deps,
        work,
      ),
  };
}
