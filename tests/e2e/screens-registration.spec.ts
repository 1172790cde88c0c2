import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from '@playwright/test';
import { test } from './fixtures';
import { waitForStillPage } from './axe.helpers';
import { freePort, startServerProcess } from './server-process';
import { LOOKED_AT_SIZES } from './screens.helpers';

// Screenshots of the account screens of a server whose operator closed sign-ups
// (REGISTRATION=closed, GUESTS=off), opt-in for looking (HUNCH_SCREENSHOTS=1): sign-in, sign-up
// and guest at 390×844, 320×700 and 1280×800, in /tmp/shots-registration/.

const SIZES = LOOKED_AT_SIZES;
const DIR = '/tmp/shots-registration';

test('the account screens of a closed server', async ({ browser }) => {
  mkdirSync(DIR, { recursive: true });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hunch-e2e-closed-'));
  const server = await startServerProcess({
    port: await freePort(),
    dataDir,
    env: { REGISTRATION: 'closed', GUESTS: 'off' },
  });
  try {
    for (const size of SIZES) {
      const context = await browser.newContext({ baseURL: server.url, viewport: size });
      const page = await context.newPage();
      for (const screen of ['login', 'register', 'continue-as-guest']) {
        await page.goto(`/${screen}`);
        await expect(page.getByText(/not taking new accounts/).first()).toBeVisible();
        await waitForStillPage(page);
        await page.screenshot({ path: `${DIR}/${screen}-${size.name}.png`, fullPage: true });
      }
      await context.close();
    }
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
