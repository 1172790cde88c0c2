import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// One `npm test` runs every project. The server suites run on PGlite always, and a second
// time on PostgreSQL when TEST_DATABASE_URL is set (CI sets it). Benchmarks (tests/perf)
// and end-to-end specs (tests/e2e, Playwright) are not Vitest's.
const serverProject = (name: string, database: 'pglite' | 'postgres') => ({
  extends: true as const,
  test: {
    name,
    include: ['tests/server/**/*.test.ts'],
    environment: 'node',
    env: { HUNCH_TEST_DB: database },
    globalSetup: ['tests/server/global-setup.ts'],
    setupFiles: ['tests/fail-on-console-error.ts'],
    // A test that takes 2 s on a quiet machine took 20 s with both cores busy (the CPU hog,
    // or other work): the limit is for a hang, not for speed.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  plugins: [react()],
  test: {
    // Every run ends with its 15 slowest files (tests/timing), so growth shows where it happens.
    reporters: ['default', './tests/timing/vitest-reporter.ts'],
    // As Playwright does on CI: a test that passes only on its second try is reported as flaky
    // (CI's shared 2-core machine varies threefold in speed), one that fails twice fails the run.
    retry: process.env.CI ? 1 : 0,
    // One test file per core. Vitest's default keeps a core for its own process, which here
    // does little: on a 2-core machine it would run one file at a time while the server
    // suites spend much of theirs waiting on PostgreSQL, sockets and timers.
    maxWorkers: availableParallelism(),
    projects: [
      {
        extends: true,
        test: {
          name: 'domain',
          include: ['tests/domain/**/*.test.ts', 'tests/scripts/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['tests/fail-on-console-error.ts'],
        },
      },
      serverProject('server-pglite', 'pglite'),
      ...(process.env.TEST_DATABASE_URL ? [serverProject('server-postgres', 'postgres')] : []),
      {
        extends: true,
        test: {
          name: 'client',
          include: ['tests/client/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          // Rendering tests with user events take seconds on a loaded 2-core machine.
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // The data tests run the real server (tests/server/harness.ts) on a copy of one migrated PGlite.
          globalSetup: ['tests/server/global-setup.ts'],
          setupFiles: ['fake-indexeddb/auto', 'tests/fail-on-console-error.ts'],
        },
      },
      // The devices' convergence once more on PostgreSQL, where transactions really interleave.
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              extends: true as const,
              test: {
                name: 'convergence-postgres',
                include: ['tests/client/data/convergence.test.ts'],
                environment: 'node',
                env: { HUNCH_TEST_DB: 'postgres' },
                testTimeout: 120_000,
                hookTimeout: 60_000,
                globalSetup: ['tests/server/global-setup.ts'],
                setupFiles: ['fake-indexeddb/auto', 'tests/fail-on-console-error.ts'],
              },
            },
          ]
        : []),
    ],
  },
});
