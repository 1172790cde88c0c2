import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, expect, it } from 'vitest';
import type { OpenBet } from '../../../src/client/bets/use-bets';
import type { BetRow } from '../../../src/client/data/db';
import { OPEN_BETS_SHOWN, OpenBets } from '../../../src/client/dashboard/open-bets';

// The dashboard draws the soonest open bets first and more on request: a player in many busy
// groups can have thousands open. The page reads one page past what is drawn (its limit),
// as `Listed` does here.

afterEach(cleanup);

function openBet(id: number): OpenBet {
  const bet = {
    id,
    groupId: 1,
    title: `Bet ${id}`,
    betType: 'yes_no',
    betTypeConfig: {},
    baseWagerAmount: 5,
    state: 'active',
    createdBy: 99,
    expiresAt: new Date(Date.now() + (id + 1) * 3_600_000).toISOString(),
  } as BetRow;
  return { bet, groupName: 'Thursday Crew', wager: undefined, commentCount: 0 };
}

/** The list as the dashboard feeds it: the soonest `shown` + one page of `all`. */
function Listed({ all }: { all: OpenBet[] }) {
  const [shown, setShown] = useState(OPEN_BETS_SHOWN);
  return (
    <OpenBets
      openBets={all.slice(0, shown + OPEN_BETS_SHOWN)}
      shown={shown}
      onShowMore={() => setShown((count) => count + OPEN_BETS_SHOWN)}
    />
  );
}

const titles = () => screen.queryAllByRole('heading', { level: 3 }).map((h) => h.textContent);

it('draws the soonest bets first, then more on each "Show more", until all are shown', () => {
  const total = OPEN_BETS_SHOWN * 2 + 3;
  render(
    <MemoryRouter>
      <Listed all={Array.from({ length: total }, (_, index) => openBet(index))} />
    </MemoryRouter>,
  );
  expect(titles()).toHaveLength(OPEN_BETS_SHOWN);
  expect(titles()[0]).toContain('Bet 0');

  fireEvent.click(screen.getByRole('button', { name: `Show ${OPEN_BETS_SHOWN} more` }));
  expect(titles()).toHaveLength(OPEN_BETS_SHOWN * 2);

  fireEvent.click(screen.getByRole('button', { name: 'Show 3 more' }));
  expect(titles()).toHaveLength(total);
  expect(screen.queryByRole('button', { name: /more/ })).toBeNull();
});

it('offers no "Show more" when every open bet fits', () => {
  render(
    <MemoryRouter>
      <Listed all={[openBet(1), openBet(2)]} />
    </MemoryRouter>,
  );
  expect(titles()).toHaveLength(2);
  expect(screen.queryByRole('button', { name: /more/ })).toBeNull();
});
