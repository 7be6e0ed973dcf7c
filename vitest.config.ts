import { defineConfig } from 'vitest/config';

/**
 * The suites whose point is a real process, server or tool: the sidecar, `--watch`, the bin's
 * launchers, nginx, Chromium, wlc, the S3-protocol server, the benchmark. `npm test` runs them
 * with the others; `npm run test:quick` leaves them out.
 */
const PROCESS_SUITES = [
  'test/e2e/**/*.test.ts',
  'test/sidecar/*.test.ts',
  'test/deploy/*.test.ts',
  'test/pull/round-trip*.test.ts',
  'test/pull/incremental.test.ts',
  'test/watch.test.ts',
  'test/bench.test.ts',
  'test/compiled-launcher.test.ts',
  'test/cli-bin.test.ts',
  'test/regressions/issue-13-out-working-folder.test.ts',
  'test/regressions/issue-13-preflight.test.ts',
  'test/regressions/issue-13-settings-kept.test.ts',
  'test/regressions/issue-13-sidecar-bodies.test.ts',
  'test/regressions/issue-14-earlier-format.test.ts',
];

export default defineConfig({
  test: {
    // Generous: a wait ends on the event it is for, and on a disk busy with other work (a large
    // deletion beside the run) a test that takes 20 s on an idle machine can take a minute or two.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // Test files start servers and child processes; two cores, two workers.
    maxWorkers: 2,
    // Compiles the sources once, for the tests that start commands as processes.
    globalSetup: ['test/support/compile.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'quick', include: ['test/**/*.test.ts'], exclude: PROCESS_SUITES },
      },
      { extends: true, test: { name: 'processes', include: PROCESS_SUITES } },
    ],
  },
});
