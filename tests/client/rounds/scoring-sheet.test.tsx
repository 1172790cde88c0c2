import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SCORE_TIP_MESSAGES } from '../../../src/domain/score-tips';
import { hasRoundStarted } from '../../../src/domain/rounds';

// The round's points as an admin edits them (docs/rules.md "Tipping rounds"): the sheet checks
// them by the server's rule before anything is sent, sends them through the round's action, and
// shows the server's refusal when the round started meanwhile. The server's side, the 422 after
// the first kick-off: tests/server/rounds/rounds.test.ts.

const updateScoring =
  vi.fn<(groupId: number, roundId: number, scoring: unknown) => Promise<void>>();
vi.mock('../../../src/client/rounds/round-actions', () => ({ updateScoring }));
const { ScoringSheet, SCORING_TEXT } = await import('../../../src/client/rounds/scoring-sheet');

// A block body: a function beforeEach returns is run as its teardown.
beforeEach(() => {
  updateScoring.mockReset();
});
afterEach(() => cleanup());

function openSheet() {
  const onDone = vi.fn();
  render(
    <ScoringSheet
      groupId={3}
      roundId={9}
      scoring={{ exact: 4, difference: 3, tendency: 2 }}
      onDone={onDone}
    />,
  );
  return onDone;
}

function type(points: [string, string, string]) {
  const labels = [SCORING_TEXT.exact, SCORING_TEXT.difference, SCORING_TEXT.tendency];
  labels.forEach((label, index) =>
    fireEvent.change(screen.getByLabelText(label), { target: { value: points[index] } }),
  );
  fireEvent.click(screen.getByRole('button', { name: SCORING_TEXT.save }));
}

describe('the round points sheet', () => {
  it("starts from the round's points and sends the new ones", async () => {
    updateScoring.mockResolvedValue();
    const onDone = openSheet();
    expect((screen.getByLabelText(SCORING_TEXT.exact) as HTMLInputElement).value).toBe('4');
    type(['5', '3', '1']);
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(updateScoring).toHaveBeenCalledWith(3, 9, { exact: 5, difference: 3, tendency: 1 });
  });

  it('refuses points out of order or out of range, sending nothing', async () => {
    openSheet();
    type(['1', '3', '2']);
    expect(await screen.findByText(SCORE_TIP_MESSAGES.scoringOrder)).toBeTruthy();
    type(['4', '3', '']);
    expect(await screen.findByText(SCORE_TIP_MESSAGES.scoringRange)).toBeTruthy();
    type(['101', '3', '2']);
    expect(await screen.findByText(SCORE_TIP_MESSAGES.scoringRange)).toBeTruthy();
    expect(updateScoring).not.toHaveBeenCalled();
  });

  it("shows the server's refusal once the round has started, and stays open", async () => {
    const refusal = 'The round has started: its scoring can no longer change.';
    updateScoring.mockRejectedValue(new Error(refusal));
    const onDone = openSheet();
    type(['5', '3', '1']);
    expect(await screen.findByText(refusal)).toBeTruthy();
    expect(onDone).not.toHaveBeenCalled();
  });

  it('is offered until the first kick-off only', () => {
    const matches = [{ kickoff: '2026-12-05T15:30:00Z' }, { kickoff: '2026-12-05T18:30:00Z' }];
    expect(hasRoundStarted(matches, Date.parse('2026-12-05T15:29:59Z'))).toBe(false);
    expect(hasRoundStarted(matches, Date.parse('2026-12-05T15:30:00Z'))).toBe(true);
  });
});
