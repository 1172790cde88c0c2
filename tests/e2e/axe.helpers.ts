import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** axe-core finds no violation on the page as it is now (docs/conventions.md, Accessible). */
export async function expectNoViolations(page: Page, name: string) {
  // Let the lazy page and its entry animations settle before judging contrast.
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(300);
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map(
    (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
  expect(summary, `axe violations on ${name}`).toEqual([]);
}
