import { defineConfig } from 'vitest/config';

// Every test file drives real `astro dev` / built servers as child processes, so the tests are
// slow and CPU-heavy: long timeouts, and at most two files at once on the two-core machine.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Test sites (with copies of the packed package) live under test/.work; never collect from there.
    exclude: ['test/.work/**', 'node_modules/**', 'dist/**'],
    globalSetup: ['test/support/global-setup.ts'],
    // The reliability suite's table (load held, faults survived, inputs tried, writes lost, 500s seen), after the summary.
    reporters: ['default', './test/reliability/support/table-reporter.ts'],
    pool: 'forks',
    maxWorkers: 2,
    fileParallelism: true,
    testTimeout: 60_000,
    hookTimeout: 240_000,
    teardownTimeout: 30_000,
  },
});
