import { availableParallelism } from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

// End-to-end tests: Debian's Chromium (never a downloaded browser) against the real server
// on a random free port and a fresh DATA_DIR, both prepared by tests/e2e/global-setup.ts.
// The port is chosen here, once, and handed to the workers through the environment.
process.env.HUNCH_E2E_PORT ??= String(20_000 + Math.floor(Math.random() * 20_000));
const baseURL = `http://127.0.0.1:${process.env.HUNCH_E2E_PORT}`;

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '*.spec.ts',
  // Screenshots are for looking at, not for passing: `HUNCH_SCREENSHOTS=1 npx playwright test screens`.
  testIgnore: process.env.HUNCH_SCREENSHOTS ? [] : ['screens.spec.ts', 'screens-*.spec.ts'],
  globalSetup: './tests/e2e/global-setup.ts',
  // A test's whole time is a hang guard, not a speed check: with both cores busy
  // (scripts/cpu-hog.mjs) a three-player walk-through took 1.6 min, so 3 min everywhere. No test
  // sets its own (eslint.config.js): a walk that needs longer is split into several tests.
  // CI's machine is shared and its speed varies threefold from run to run: its waits are longer.
  timeout: 180_000,
  expect: { timeout: process.env.CI ? 20_000 : 10_000 },
  fullyParallel: true,
  // Two workers per core, each driving a Chromium of its own against the one shared server: a
  // walk-through spends much of its time waiting (a bet closing, a job's next pass, the
  // server's answer), and one worker per core left the cores idle for half of a quiet run.
  workers: availableParallelism() * 2,
  retries: process.env.CI ? 1 : 0,
  // Every run ends with its 15 slowest spec files (tests/timing), so growth shows where it happens.
  reporter: [['list'], ['./tests/timing/playwright-reporter.ts']],
  outputDir: '.tmp/test-results',
  use: {
    ...devices['Desktop Chrome'],
    baseURL,
    // The phone-sized reference of docs/design.md.
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 1,
    // The app honours reduced motion (no modal slide): a click never races a sheet still
    // rising, which made "Next" in the bet modal "outside of the viewport" now and then.
    reducedMotion: 'reduce',
    isMobile: false,
    hasTouch: false,
    // Recording a trace of every test cost about a third of the suite's CPU, for the few that
    // fail: a failure leaves its screenshot and page snapshot (error-context.md), CI (which
    // retries once) records the retry, and `--trace on` records any run.
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    // A service worker precaches the whole app in every new context: a third of the suite's
    // CPU. Only the specs about offline play, push and the cache allow it (test.use).
    serviceWorkers: 'block',
    launchOptions: {
      // /usr/bin/chromium, with the --disable-features switches merged (./tests/e2e/chromium.sh).
      executablePath: path.resolve(import.meta.dirname, 'tests/e2e/chromium.sh'),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        // Each new window of a headless Chromium 15x draws two WebUI omnibox popups nobody
        // opens, each in a renderer of its own: a fifth of the suite's time on 2 cores.
        '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup',
      ],
    },
  },
  projects: [{ name: 'chromium' }],
});
