import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ResolutionReview } from '../../../src/client/bets/resolution-review';
import { clearLocalData, db, type BetRow } from '../../../src/client/data/db';

// "About this result" on a resolved bet's page, asked of the bet policy with what the device
// holds: the undo offered to its resolver only inside its ten minutes and not twice, the
// dispute's judges named from the mirror by the server's rule, the judge's correction
// confirmed with the answer as it will be stored. The walk-through is
// tests/e2e/fair-resolution.spec.ts.

const GROUP = 4;
const [ME, BEN, ANA, SAM] = [1, 2, 3, 4];
const names: Record<number, string> = { [ME]: 'Me', [BEN]: 'Ben', [ANA]: 'Ana', [SAM]: 'Sam' };

beforeEach(async () => {
  await db.groups.put({
    id: GROUP,
    name: 'Crew',
    privacy: 'private',
    admins: [ME, ANA],
    memberUserIds: [BEN, SAM],
  } as never);
  await db.memberships.bulkPut(
    Object.entries(names).map(([id, userName]) => ({
      groupId: GROUP,
      userId: Number(id),
      userName,
      totalPoints: 100,
      availablePoints: 100,
    })) as never,
  );
});

afterEach(async () => {
  cleanup();
  await clearLocalData();
});

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

function resolvedBet(overrides: Partial<BetRow> = {}): BetRow {
  return {
    id: 9,
    groupId: GROUP,
    title: 'Goals?',
    betType: 'numeric',
    betTypeConfig: {},
    baseWagerAmount: 2,
    state: 'resolved',
    createdBy: ME,
    expiresAt: minutesAgo(60),
    correctAnswer: '2',
    resolvedAt: minutesAgo(1),
    resolvedBy: ME,
    picks: [
      { userId: ME, userName: 'Me', prediction: '2', points: 2 },
      { userId: BEN, userName: 'Ben', prediction: '3', points: 2 },
    ],
    ...overrides,
  } as BetRow;
}

function renderFor(viewerId: number, bet: BetRow, canJudgeDispute = false) {
  const isAdmin = viewerId === ME || viewerId === ANA;
  return render(
    <ResolutionReview
      bet={bet}
      viewerId={viewerId}
      canJudgeDispute={canJudgeDispute}
      policyFacts={{
        userId: viewerId,
        membership: { role: isAdmin ? 'admin' : 'member' },
        group: { privacy: 'private', admins: [ME, ANA], memberUserIds: [BEN, SAM] },
        hasWagered: bet.picks?.some((pick) => pick.userId === viewerId) ?? false,
        stakeholderIds: bet.picks?.map((pick) => pick.userId),
      }}
    />,
  );
}

const openDispute = { state: 'open' as const, userId: BEN, reason: 'It was 3', at: minutesAgo(1) };

describe('about this result', () => {
  it('offers its resolver the undo with the time left, only inside the ten minutes', () => {
    renderFor(ME, resolvedBet());
    expect(screen.getByRole('timer').textContent).toMatch(
      /^You can undo this result for [89]:\d\d\.$/,
    );
    expect(screen.getByRole('button', { name: 'Undo result' })).toBeTruthy();
    cleanup();

    // Eleven minutes on: the server would refuse, so nothing is offered (the resolver has no
    // dispute to raise on their own result).
    const { container } = renderFor(ME, resolvedBet({ resolvedAt: minutesAgo(11) }));
    expect(container.textContent).toBe('');
  });

  it('does not offer the undo again while one is waiting to be sent', () => {
    const { container } = renderFor(ME, resolvedBet({ pendingWriteId: 'queued-undo' }));
    expect(container.textContent).toBe('');
  });

  it('offers a player with a stake the dispute, but not one without', () => {
    renderFor(BEN, resolvedBet());
    expect(screen.getByText(/^Think the result is wrong\? You can dispute it until /)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Dispute result' })).toBeTruthy();
    cleanup();

    const { container } = renderFor(SAM, resolvedBet());
    expect(container.textContent).toBe('');
  });

  it('tells the disputer who will judge, by name: the admins without a stake', async () => {
    renderFor(BEN, resolvedBet({ dispute: openDispute }));
    expect(screen.getByText('Result disputed')).toBeTruthy();
    expect(screen.getByText('It was 3')).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByTestId('dispute-judges').textContent).toBe(
        'Ana will correct it or let it stand. Points stay as they are until then.',
      ),
    );
    expect(screen.queryByRole('button', { name: 'Let it stand' })).toBeNull();
  });

  it('says nobody can judge when everyone has a stake', async () => {
    const everyone = [ME, BEN, ANA, SAM].map((userId) => ({
      userId,
      userName: names[userId]!,
      prediction: '2',
      points: 2,
    }));
    renderFor(BEN, resolvedBet({ dispute: openDispute, picks: everyone }));
    await waitFor(() =>
      expect(screen.getByTestId('dispute-judges').textContent).toMatch(
        /^Everyone in the group has a stake in this bet, so nobody can judge the dispute/,
      ),
    );
  });

  it('lets the judge correct the result, confirming the number as it will be stored', () => {
    renderFor(ANA, resolvedBet({ dispute: openDispute }), true);
    expect(screen.getByRole('button', { name: 'Let it stand' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Correct the result' }));

    const confirm = () => screen.getAllByRole('button').at(-1) as HTMLButtonElement;
    expect(confirm().textContent).toBe('Correct the result');
    expect(confirm().disabled).toBe(true);
    fireEvent.change(screen.getByPlaceholderText('Enter your answer'), {
      target: { value: '3,50' },
    });
    expect(confirm().textContent).toBe('Re-resolve as “3.5”');
    expect(confirm().disabled).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByRole('button', { name: 'Let it stand' })).toBeTruthy();
  });

  it('says a reviewed result is final, and offers neither undo nor dispute', () => {
    renderFor(ME, resolvedBet({ dispute: { ...openDispute, state: 'closed' } }));
    expect(screen.getByText('This result was reviewed by an admin and is final.')).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });
});
