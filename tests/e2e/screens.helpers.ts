import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { waitForStillPage } from './axe.helpers';

// Screenshots for a person to look at (never compared), in .tmp/screens/: the phone reference
// and a desktop, every new screen in both. The screens-*.spec.ts files run only with
// HUNCH_SCREENSHOTS=1 (playwright.config.ts); other specs save theirs with `shootIfAsked`.

export const SCREEN_SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

/** The three widths every touched screen is looked at: the phone, the narrowest phone, a desktop. */
export const LOOKED_AT_SIZES = [
  { name: '390', width: 390, height: 844 },
  { name: '320', width: 320, height: 700 },
  { name: '1280', width: 1280, height: 800 },
] as const;

export const SCREENS_DIR = '.tmp/screens';

/** Saves `name`.png once the page has settled (requests done, animations over). */
export async function shoot(page: Page, name: string, fullPage = false): Promise<void> {
  mkdirSync(SCREENS_DIR, { recursive: true });
  await waitForStillPage(page);
  await page.screenshot({ path: `${SCREENS_DIR}/${name}.png`, fullPage });
}

/** `shoot`, in a spec that tests something else: only when HUNCH_SCREENSHOTS is set. */
export async function shootIfAsked(page: Page, name: string, fullPage = false): Promise<void> {
  if (process.env.HUNCH_SCREENSHOTS) await shoot(page, name, fullPage);
}
