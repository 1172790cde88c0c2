import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// One `npm test` runs every project. The server suites run on PGlite always. With
// TEST_DATABASE_URL (CI sets it), the files below run a second time on PostgreSQL: the
// behaviour that depends on the engine, where PGlite's one connection would run one
// transaction after another. Every other server test checks rules that no engine changes.
// Benchmarks (tests/perf) and end-to-end specs (tests/e2e, Playwright) are not Vitest's.
export const POSTGRES_FILES = [
  // Locks, deadlocks and retries, isolation: requests racing on the same rows.
  'tests/server/db/concurrency.test.ts',
  'tests/server/bets/bet-expiry.test.ts',
  'tests/server/bets/picks-reveal.test.ts',
  'tests/server/notifications/reminders.test.ts',
  'tests/server/push/push-notifications.test.ts',
  'tests/server/idempotency/idempotency.test.ts',
  'tests/server/sync/push.test.ts',
  // The pool and the server under faults: a dropped connection, a crash mid-write.
  'tests/server/db/connection-drop.test.ts',
  'tests/server/sync/push-crash.test.ts',
  // Two instances on one database: migrations, sessions ending, accounts deleted.
  'tests/server/db/migrate-lock.test.ts',
  'tests/server/auth/session-end.test.ts',
  'tests/server/auth/account-deletion.test.ts',
  // The operator's commands beside a live server (PGlite stopped, PostgreSQL serving).
  'tests/server/admin/admin-cli.test.ts',
  // xid8 cursors and NOTIFY: the devices' mirror and its quiet pull.
  'tests/server/mirror/mirror.test.ts',
  'tests/server/mirror/quiet-pull.test.ts',
  'tests/server/mirror/change-watermarks.test.ts',
  // What the driver hands back: row types, prepared statements, a backup of a live database.
  'tests/server/db/json-rows.test.ts',
  'tests/server/prepared.test.ts',
  'tests/server/db/backup.test.ts',
];
// With the devices' convergence (below), at most 20 files run on both engines: a race test
// belongs in one of them (db/concurrency.test.ts when no other fits), not in a new one.
if (POSTGRES_FILES.length > 19) throw new Error('At most 20 files run on both engines.');

/** The client's data layer, and the devices (fake-indexeddb) it runs against the real server. */
const CLIENT_DATA_FILES = [
  'tests/client/data/**/*.test.ts',
  'tests/client/bets/bet-actions.test.ts',
];

const serverProject = (name: string, database: 'pglite' | 'postgres') => ({
  extends: true as const,
  test: {
    name,
    include: database === 'pglite' ? ['tests/server/**/*.test.ts'] : POSTGRES_FILES,
    environment: 'node',
    // The files of one worker share its loaded modules: importing the server anew for each of
    // the 82 files cost about a third of the project's time. Nothing lives between files but
    // modules: each file starts its own server on its own database (tests/server/harness.ts).
    isolate: false,
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
          // A hang guard, not a speed check: a property test of a few hundred runs takes 2 s on
          // a quiet machine and passed Vitest's default 5 s under a loaded one.
          testTimeout: 30_000,
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
          exclude: CLIENT_DATA_FILES,
          environment: 'jsdom',
          // Rendering tests with user events take seconds on a loaded 2-core machine.
          testTimeout: 60_000,
          hookTimeout: 60_000,
          setupFiles: ['fake-indexeddb/auto', 'tests/fail-on-console-error.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'client-data',
          include: CLIENT_DATA_FILES,
          environment: 'jsdom',
          // Devices against the real server (tests/server/harness.ts) on a copy of one migrated
          // PGlite. Like the server suites, the files of one worker share their loaded modules
          // (the whole server and the client's data layer): importing them anew for each file was
          // half of this project's CPU. Nothing else lives between files: each opens its own
          // server and its devices' databases under names of their own (device.fixture.ts), and
          // none mocks a module or a global (the rendering tests, which do, stay isolated).
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
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
