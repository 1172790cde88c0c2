import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from '@playwright/test';
import { test as base } from './fixtures';
import { freePort, startServerProcess, type ServerProcess } from './server-process';

// A server whose operator closed sign-ups (REGISTRATION=closed, GUESTS=off): the account screens
// offer no button that can only fail, and say why (src/domain/registration.ts).

const test = base.extend<object, { closedServer: ServerProcess }>({
  closedServer: [
    // Playwright reads fixture dependencies from the destructuring pattern: this one has none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'hunch-e2e-closed-'));
      const server = await startServerProcess({
        port: await freePort(),
        dataDir,
        env: { REGISTRATION: 'closed', GUESTS: 'off' },
      });
      await use(server);
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
    { scope: 'worker', timeout: 200_000 },
  ],
});

const CLOSED = 'This server is not taking new accounts. Sign in with an existing account.';

test('a closed server offers sign-in only, and says why', async ({ browser, closedServer }) => {
  const context = await browser.newContext({ baseURL: closedServer.url });
  const page = await context.newPage();
  await page.goto('/login');
  await expect(page.getByText(CLOSED)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign up' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Continue as Guest' })).toHaveCount(0);

  // Reached by an old link or bookmark: the message, not a form.
  await page.goto('/register');
  await expect(page.getByRole('alert')).toHaveText(CLOSED);
  await expect(page.getByRole('button', { name: 'Create Account' })).toHaveCount(0);
  await page.goto('/continue-as-guest');
  await expect(page.getByRole('alert')).toHaveText(CLOSED);
  await expect(page.getByLabel('Display name')).toHaveCount(0);
  await context.close();
});
