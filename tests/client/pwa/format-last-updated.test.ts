import { describe, expect, it } from 'vitest';
import { formatLastUpdated } from '../../../src/client/pwa/format-last-updated';

describe('when data was last brought up to date', () => {
  const now = Date.parse('2025-06-01T12:00:00Z');
  it.each([
    [10_000, 'Last updated just now'],
    [60_000, 'Last updated 1 minute ago'],
    [5 * 60_000, 'Last updated 5 minutes ago'],
    [3 * 3_600_000, 'Last updated 3 hours ago'],
    [26 * 3_600_000, 'Last updated yesterday'],
    [3 * 86_400_000, 'Last updated 3 days ago'],
  ])('%i ms ago reads "%s"', (ago, text) => {
    expect(formatLastUpdated(now - ago, now)).toBe(text);
  });
});
