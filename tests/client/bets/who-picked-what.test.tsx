import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { WhoPickedWhat } from '../../../src/client/bets/who-picked-what';
import type { BetRow } from '../../../src/client/data/db';
import type { RevealedPick } from '../../../src/domain/fair-resolution';

// "Who picked what" on a bet's page (docs/architecture.md §5): while betting is open nobody's
// pick shows, even one the device holds; once closed the picks are grouped by answer as the
// payout reads them ("2,5" and "2.5" are one answer), in the answers' order, and the winners
// are tagged by the payout rule itself.

afterEach(cleanup);

const pick = (userId: number, prediction: string, points: number): RevealedPick => ({
  userId,
  userName: `Player ${userId}`,
  prediction,
  points,
});

function bet(overrides: Partial<BetRow>): BetRow {
  return {
    id: 5,
    groupId: 1,
    title: 'Goals?',
    betType: 'yes_no',
    betTypeConfig: {},
    baseWagerAmount: 2,
    state: 'resolved',
    createdBy: 1,
    expiresAt: '2026-06-01T12:00:00.000Z',
    correctAnswer: null,
    ...overrides,
  } as BetRow;
}

/** Each answer's line: its label (and tag), then its players, in the order shown. */
const answers = () =>
  within(screen.getByRole('region', { name: 'Who picked what' }))
    .getAllByRole('listitem')
    .filter((item) => item.parentElement?.parentElement?.tagName !== 'LI')
    .map((item) => ({
      head: item.firstElementChild?.textContent,
      players: within(item)
        .getAllByRole('listitem')
        .map((row) => row.textContent),
    }));

describe('who picked what', () => {
  it('shows only the rule while betting is open, though the device holds the picks', () => {
    render(
      <WhoPickedWhat
        bet={bet({ state: 'active', picks: [pick(2, 'yes', 2)] })}
        isClosed={false}
        viewerId={1}
      />,
    );
    expect(screen.getByText('Picks are revealed when betting closes.')).toBeTruthy();
    expect(screen.queryByText(/Player 2/)).toBeNull();
  });

  it('groups a numeric bet’s picks by value, most points first, and tags the closest', () => {
    render(
      <WhoPickedWhat
        bet={bet({
          betType: 'numeric',
          correctAnswer: '3',
          picks: [pick(1, '10', 2), pick(2, '2,5', 2), pick(3, '2.5', 6), pick(4, '3.5', 4)],
        })}
        isClosed
        viewerId={2}
      />,
    );
    expect(answers()).toEqual([
      {
        head: '2.5Closest2 players · 8points',
        players: ['Player 36points3×', 'Player 2You2points1×'],
      },
      { head: '3.5Closest1 player · 4points', players: ['Player 44points2×'] },
      { head: '101 player · 2points', players: ['Player 12points1×'] },
    ]);
    expect(screen.getByLabelText('3 times the base wager')).toBeTruthy();
  });

  it('orders a choice bet’s answers as offered, and tags none on a bet not resolved', () => {
    render(
      <WhoPickedWhat
        bet={bet({
          betType: 'multiple_choice',
          betTypeConfig: { options: ['Red', 'Blue', 'Green'] },
          state: 'expired',
          picks: [pick(1, 'Green', 2), pick(2, 'Red', 2)],
        })}
        isClosed
        viewerId={undefined}
      />,
    );
    expect(answers().map((answer) => answer.head)).toEqual([
      'Red1 player · 2points',
      'Green1 player · 2points',
    ]);
    expect(screen.queryByText('Correct')).toBeNull();
  });

  it('says so when nobody wagered', () => {
    render(<WhoPickedWhat bet={bet({ correctAnswer: 'yes', picks: [] })} isClosed viewerId={1} />);
    expect(screen.getByText('Nobody wagered on this bet.')).toBeTruthy();
  });
});
