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

/** axe-core finds no violation on the page as it is now (docs/conventions.md, Accessible). */
export async function expectNoViolations(page: Page, name: string) {
  await waitForStillPage(page);
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map(
    (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
  expect(summary, `axe violations on ${name}`).toEqual([]);
}
