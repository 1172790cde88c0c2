import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * Waits until the page has loaded and nothing on it moves but a spinner: a toast or a sheet
 * still fading in has not reached its final look (its contrast, its place in a screenshot).
 */
export async function waitForStillPage(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' ||
          animation.effect?.getTiming().iterations === Infinity,
      ),
  );
}

/** axe-core finds no violation of `rules` (default: all) on the page once it stands still. */
async function expectNoViolationsOf(page: Page, name: string, rules?: string[]) {
  await waitForStillPage(page);
  // Legacy mode runs axe in the page itself: the default opens a blank page and injects axe a
  // second time to merge the frames' results, half of each scan's time, for iframes Hunch
  // does not have.
  const builder = new AxeBuilder({ page }).setLegacyMode(true);
  const results = await (rules ? builder.withRules(rules) : builder).analyze();
  const summary = results.violations.map(
    (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
  expect(summary, `axe violations on ${name}`).toEqual([]);
}

/** The rules whose outcome depends on the colours, the only ones a dark theme can change. */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * The page as it is now passes axe in both themes: every rule in the light theme, then the
 * colour rules in the dark one (emulated on the same page, then put back), so one visit checks
 * a screen in both (docs/conventions.md, Accessible). The only scan the specs run: the
 * accessibility spec visits each screen once with it, and a journey uses it for the states only
 * it reaches (a dispute sheet, a refunded bet, the held writes strip).
 */
export async function expectAccessible(page: Page, name: string) {
  await expectNoViolationsOf(page, `${name} (light)`);
  await page.emulateMedia({ colorScheme: 'dark' });
  try {
    await expectNoViolationsOf(page, `${name} (dark)`, COLOUR_RULES);
  } finally {
    await page.emulateMedia({ colorScheme: 'light' });
  }
}
