import { defineConfig } from 'vitest/config';
import { SlowestFirst } from './test/support/sequencer.ts';
import { PROCESS_SUITES } from './test/support/suites.ts';

export default defineConfig({
  test: {
    // Generous: a wait ends on the event it is for, and on a disk busy with other work (a large
    // deletion beside the run) a test that takes 20 s on an idle machine can take a minute or two.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // Test files start servers and child processes; two cores, two workers.
    maxWorkers: 2,
    // The slowest suites first, so that none of them starts last and lengthens the run.
    sequence: { sequencer: SlowestFirst },
    // Compiles the sources once, for the tests that start commands as processes; puts the
    // temporary folders of the run in memory where the machine allows.
    globalSetup: ['test/support/compile.ts', 'test/support/temp-root.ts'],
    // Removes the temporary folders each test file made, wherever in it they were made; gives
    // every file the same AWS environment, pointed at loopback.
    setupFiles: [
      'test/support/temp-dirs.ts',
      'test/support/counters-equality.ts',
      'test/support/aws-env.ts',
    ],
    // One module graph per worker, not per file: importing the sources again for each file took
    // more time than most of their tests (and a process per file for those that start commands).
    // No file leaves the environment or the working folder changed, nor mocks a module
    // (test/suites.test.ts).
    isolate: false,
    projects: [
      {
        extends: true,
        test: {
          name: 'quick',
          include: ['test/**/*.test.ts'],
          exclude: PROCESS_SUITES,
        },
      },
      { extends: true, test: { name: 'processes', include: PROCESS_SUITES } },
    ],
  },
});
