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
  'test/regressions/issue-25-pull-releases.test.ts',
  'test/regressions/issue-26-not-found-page.test.ts',
  'test/regressions/issue-26-page-policy.test.ts',
  'test/regressions/issue-26-pull-edit-url.test.ts',
];
