/**
 * Which suites start the tool's commands or real servers as processes. `npm test` runs every
 * suite; `npm run test:quick` leaves these out. test/suites.test.ts keeps the list true.
 */
export const PROCESS_SUITES = [
  'test/e2e/**/*.test.ts',
  'test/sidecar/*.test.ts',
  'test/deploy/*.test.ts',
  'test/pull/round-trip*.test.ts',
  'test/pull/incremental.test.ts',
  'test/watch.test.ts',
  'test/bench.test.ts',
  'test/cli-bin.test.ts',
  'test/regressions/issue-13-out-folder.test.ts',
  'test/regressions/issue-13-out-working-folder.test.ts',
  'test/regressions/issue-13-preflight.test.ts',
  'test/regressions/issue-13-settings-kept.test.ts',
  'test/regressions/issue-13-sidecar-bodies.test.ts',
  'test/regressions/issue-13-yaml.test.ts',
  'test/regressions/issue-14-earlier-format.test.ts',
  'test/regressions/issue-22-deploy-*.test.ts',
  'test/regressions/issue-22-file-names.test.ts',
  'test/regressions/issue-22-preview-links.test.ts',
  'test/regressions/issue-22-settings-rule.test.ts',
  'test/regressions/issue-22-sidecar-*.test.ts',
  'test/regressions/issue-22-tree-*.test.ts',
  'test/regressions/issue-23-*.test.ts',
  'test/regressions/issue-24-*.test.ts',
  'test/regressions/issue-25-formats-nginx.test.ts',
  'test/regressions/issue-25-formats-preview.test.ts',
  'test/regressions/issue-25-language-chart.test.ts',
  'test/regressions/issue-25-pull-releases.test.ts',
  'test/regressions/issue-25-releases-errors.test.ts',
  'test/regressions/issue-25-releases-nginx-errors.test.ts',
  'test/regressions/issue-25-releases-pull-5.1.test.ts',
  'test/regressions/issue-26-exports-hosts-by-release.test.ts',
  'test/regressions/issue-26-not-found-deploy.test.ts',
  'test/regressions/issue-26-not-found-page.test.ts',
  'test/regressions/issue-26-not-found-servers.test.ts',
  'test/regressions/issue-26-page-policy.test.ts',
  'test/regressions/issue-26-png-redraw-store.test.ts',
  'test/regressions/issue-26-pull-edit-url.test.ts',
  'test/regressions/issue-26-widgets-everywhere.test.ts',
];

/**
 * The slowest suites on a fresh clone, slowest first (`npx vitest run --reporter=verbose` shows
 * each file's time): they start before the others, so that none of them starts last.
 */
export const SLOWEST_SUITES = [
  'test/regressions/issue-23-package.test.ts',
  'test/e2e/browser.test.ts',
  'test/regressions/issue-24-feed-between-sweeps.test.ts',
  'test/regressions/issue-24-deploy-record-reads-changed.test.ts',
  'test/e2e/status-site.test.ts',
  'test/patch.test.ts',
  'test/regressions/issue-23-mirror.test.ts',
  'test/bench.test.ts',
  'test/regressions/issue-24-bench-webhook-tool.test.ts',
  'test/regressions/issue-24-mirror-keeps-nothing.test.ts',
  'test/regressions/issue-26-png-redraw-store.test.ts',
  'test/e2e/preview.test.ts',
  'test/incremental.test.ts',
  'test/regressions/issue-22-sidecar-connections.test.ts',
  'test/regressions/issue-24-publish-without-tree.test.ts',
  'test/site-html.test.ts',
  'test/sidecar/crash.test.ts',
  'test/sidecar/concurrency.test.ts',
];
