import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { BetRow, WagerRow } from '../../../src/client/data/db';
import { BetCard } from '../../../src/client/bets/bet-card';
import { WagerForm, WAGERING_CLOSED_TEXT } from '../../../src/client/bets/wager-form';
import type { Membership } from '../../../src/domain/groups';

// What the betting form (docs/groups-and-bets.md §2, §4) lets a player send before anything
// leaves the device: the amounts they can afford (a changed wager frees its old points first),
// the reason it is shut, an existing wager or a kept draft filled in again. The walk-through
// that sends it is tests/e2e/bet-ending.spec.ts.

afterEach(() => {
  cleanup();
  localStorage.clear();
});

const NOW = Date.parse('2026-06-01T12:00:00Z');

function bet(overrides: Partial<BetRow> = {}): BetRow {
  return {
    id: 7,
    groupId: 3,
    title: 'Rain on Saturday?',
    betType: 'yes_no',
    betTypeConfig: {},
    baseWagerAmount: 5,
    state: 'active',
    createdBy: 99,
    expiresAt: new Date(NOW + 3_600_000).toISOString(),
    answerTotals: { yes: 10, no: 20 },
    ...overrides,
  } as BetRow;
}

function member(availablePoints: number): Membership {
  return { groupId: 3, userId: 1, userName: 'Me', totalPoints: 100, availablePoints };
}

const wager = (prediction: string, points: number) =>
  ({ betId: 7, userId: 1, prediction, points }) as WagerRow;

const submitButton = (name = 'Submit Prediction') =>
  screen.getByRole('button', { name }) as HTMLButtonElement;
const pressed = (name: string) =>
  screen.getByRole('button', { name: new RegExp(`^${name}`) }).getAttribute('aria-pressed');

describe('the wager form', () => {
  it('offers 1x, 2x and 3x of the base, and sends nothing until an answer is picked', () => {
    render(<WagerForm bet={bet()} wager={null} membership={member(100)} now={NOW} />);
    expect(['1x', '2x', '3x'].map(pressed)).toEqual(['true', 'false', 'false']);
    expect(submitButton().disabled).toBe(true);
    expect(screen.queryByText(/If you win/)).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: /^Yes/ }));
    expect(pressed('Yes')).toBe('true');
    expect(submitButton().disabled).toBe(false);
    // 5 on "yes" of a 35-point pool where "yes" then holds 15: about 11.
    expect(screen.getByText(/If you win: about/).textContent).toMatch(/11/);
  });

  it('says the player cannot afford the amount picked, and refuses to send it', () => {
    render(<WagerForm bet={bet()} wager={null} membership={member(12)} now={NOW} />);
    fireEvent.click(screen.getByRole('button', { name: /^No/ }));
    expect(submitButton().disabled).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: '3x' }));
    expect(screen.getByText("You don't have enough points for this wager.")).toBeTruthy();
    expect(submitButton().disabled).toBe(true);
    expect(screen.queryByText(/If you win/)).toBeNull();
  });

  it('shuts the form for a player whose points do not reach the base', () => {
    render(<WagerForm bet={bet()} wager={null} membership={member(4)} now={NOW} />);
    expect(screen.getByText("You don't have enough points for this wager.")).toBeTruthy();
    expect((screen.getByRole('button', { name: /^Yes/ }) as HTMLButtonElement).disabled).toBe(true);
    expect(submitButton().disabled).toBe(true);
  });

  it('fills in a wager being changed, counting its points as spendable again', () => {
    // 0 available, but the 15 already on "no" are freed by the change.
    render(<WagerForm bet={bet()} wager={wager('no', 15)} membership={member(0)} now={NOW} />);
    expect(pressed('No')).toBe('true');
    expect(pressed('3x')).toBe('true');
    expect(submitButton('Update Wager').disabled).toBe(false);
    expect(screen.queryByText(/enough points/)).toBeNull();
  });

  it('tells an outsider to join, and a closed bet that wagering is closed', () => {
    render(<WagerForm bet={bet()} wager={null} membership={null} now={NOW} />);
    expect(screen.getByText('Join this group to place a wager.')).toBeTruthy();
    expect(submitButton().disabled).toBe(true);
    cleanup();

    render(
      <WagerForm
        bet={bet({ expiresAt: new Date(NOW - 1).toISOString() })}
        wager={null}
        membership={member(100)}
        now={NOW}
      />,
    );
    expect(screen.getByText(WAGERING_CLOSED_TEXT)).toBeTruthy();
    expect(submitButton().disabled).toBe(true);
  });

  it('keeps a picked answer and amount as the group’s draft, and "Discard draft" restores the wager', () => {
    const { unmount } = render(
      <WagerForm bet={bet()} wager={wager('no', 5)} membership={member(50)} now={NOW} />,
    );
    fireEvent.click(screen.getByRole('button', { name: /^Yes/ }));
    fireEvent.click(screen.getByRole('button', { name: '2x' }));
    expect(JSON.parse(localStorage.getItem('draft:3:wager:7')!)).toEqual({
      prediction: 'yes',
      points: 10,
    });
    unmount();

    render(<WagerForm bet={bet()} wager={wager('no', 5)} membership={member(50)} now={NOW} />);
    expect(screen.getByText('Draft restored')).toBeTruthy();
    expect([pressed('Yes'), pressed('2x')]).toEqual(['true', 'true']);

    fireEvent.click(screen.getByRole('button', { name: 'Discard draft' }));
    expect([pressed('No'), pressed('1x')]).toEqual(['true', 'true']);
    expect(screen.queryByText('Draft restored')).toBeNull();
    expect(localStorage.getItem('draft:3:wager:7')).toBeNull();
  });

  it('drops the draft when the player keeps the wager they had', () => {
    let cancelled = 0;
    render(
      <WagerForm
        bet={bet()}
        wager={wager('no', 5)}
        membership={member(50)}
        now={NOW}
        onCancel={() => (cancelled += 1)}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: /^Yes/ }));
    expect(localStorage.getItem('draft:3:wager:7')).not.toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Keep my wager' }));
    expect(cancelled).toBe(1);
    expect(localStorage.getItem('draft:3:wager:7')).toBeNull();
  });

  it('asks a numeric bet for a number, with the message once the field is left', () => {
    render(
      <WagerForm
        bet={bet({ betType: 'numeric', betTypeConfig: {}, answerTotals: {} })}
        wager={null}
        membership={member(50)}
        now={NOW}
      />,
    );
    const input = screen.getByPlaceholderText('Enter your answer');
    fireEvent.change(input, { target: { value: 'about ten' } });
    fireEvent.blur(input);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(submitButton().disabled).toBe(true);

    fireEvent.change(input, { target: { value: '2,5' } });
    expect(input.getAttribute('aria-invalid')).toBeNull();
    expect(submitButton().disabled).toBe(false);
  });
});

describe('the bet card around it', () => {
  it('locks a placed wager until "Change", and "Keep my wager" locks it again', () => {
    // The card reads the clock itself.
    const open = bet({ expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    render(<BetCard bet={open} wager={wager('no', 10)} membership={member(50)} />);
    const card = screen.getByRole('article', { name: 'Place your wager' });
    expect(card.textContent).toMatch(/Your wagerNo10/);
    expect(screen.queryByRole('button', { name: /^Yes/ })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Change' }));
    expect([pressed('No'), pressed('2x')]).toEqual(['true', 'true']);
    expect(submitButton('Update Wager')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Keep my wager' }));
    expect(screen.getByText('Your wager')).toBeTruthy();
  });

  it('once betting has closed, shows the wager with no way to change it, and no form without one', () => {
    const closed = bet({ expiresAt: new Date(Date.now() - 60_000).toISOString() });
    render(<BetCard bet={closed} wager={wager('yes', 5)} membership={member(50)} showTitle />);
    const card = screen.getByRole('article', { name: 'Rain on Saturday?' });
    expect(card.textContent).toMatch(/Your wagerYes5/);
    expect(screen.queryByRole('button', { name: 'Change' })).toBeNull();
    cleanup();

    render(<BetCard bet={closed} wager={null} membership={member(50)} />);
    expect(screen.queryByRole('form')).toBeNull();
    expect(screen.queryByRole('button', { name: /Submit Prediction/ })).toBeNull();
  });
});
