import { test as base } from '@playwright/test';

/**
 * Every spec's `test` (eslint.config.js refuses `@playwright/test`'s own in a spec): the
 * windows a test opens itself (`browser.newContext()`, `openAs`, a second player) close when it
 * ends, as the `page` Playwright gives it does. Playwright closes only its own: a left-open
 * window kept its app running (syncing, its socket, its countdowns) for the rest of the
 * worker's tests, on the two cores they share.
 */
export const test = base.extend<{ closesItsWindows: void }>({
  closesItsWindows: [
    async ({ browser }, use) => {
      const before = new Set(browser.contexts());
      await use();
      const opened = browser.contexts().filter((context) => !before.has(context));
      await Promise.all(opened.map((context) => context.close()));
    },
    { auto: true },
  ],
});
