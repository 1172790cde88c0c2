import { describe, expect, it } from 'vitest';
import { pointsOverTimeOf, type PointsLedgerRow } from '../../src/domain/member-stats';

// The points-over-time line from a member's ledger rows: an undone result draws nothing.

let clock = 0;
const row = (
  kind: PointsLedgerRow['kind'],
  totalDelta: number,
  betId: number | null = null,
): PointsLedgerRow => ({
  kind,
  betId,
  totalDelta,
  at: new Date(Date.UTC(2030, 0, 1) + 60_000 * clock++).toISOString(),
});

const totals = (rows: PointsLedgerRow[]) => pointsOverTimeOf(rows).map((step) => step.total);

describe('the points line', () => {
  it('steps at each change of the total, not at wagers or refunds', () => {
    expect(
      totals([
        row('join_grant', 100),
        row('wager_placed', 0, 1),
        row('payout', 6, 1),
        row('wager_placed', 0, 2),
        row('refund', 0, 2),
        row('floor_top_up', 4),
      ]),
    ).toEqual([100, 106, 110]);
  });

  it('leaves out a result that was undone: no spike up and down', () => {
    expect(
      totals([
        row('join_grant', 100),
        row('wager_placed', 0, 1),
        row('payout', 50, 1),
        row('payout_reversed', -50, 1),
        row('payout', -3, 2),
      ]),
    ).toEqual([100, 97]);
  });

  it('keeps only the answer a re-resolution paid in the end', () => {
    expect(
      totals([
        row('join_grant', 100),
        row('payout', -5, 7),
        // Re-resolved: the first answer taken back, the corrected one paid.
        row('payout_reversed', 5, 7),
        row('payout', 9, 7),
      ]),
    ).toEqual([100, 109]);
  });

  it('ends at the member’s total whatever was undone', () => {
    const rows = [
      row('join_grant', 100),
      row('payout', 20, 3),
      row('payout_reversed', -20, 3),
      row('payout', 4, 3),
      row('season_reset', -4),
    ];
    expect(totals(rows).at(-1)).toBe(rows.reduce((sum, entry) => sum + entry.totalDelta, 0));
  });
});
