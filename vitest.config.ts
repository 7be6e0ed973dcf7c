import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Compiles the sources once, for the tests that start commands as processes.
    globalSetup: ['test/support/compile.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Test files start servers and child processes; two cores, two workers.
    maxWorkers: 2,
  },
});
