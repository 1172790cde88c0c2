import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { clearLocalData, db } from '../../../src/client/data/db';
import { sessionStore } from '../../../src/client/data/session';
import { SessionContext } from '../../../src/client/data/use-session';
import { HeldWritesSheet } from '../../../src/client/pwa/held-writes-sheet';
import { HeldWritesStrip } from '../../../src/client/pwa/sync-status-button';
import { HELD_TEXT } from '../../../src/client/pwa/sync-text';

// The writes a session left unsent, as their player finds them at the next sign-in: a strip
// on every screen, and the sheet where each is sent or discarded. Nobody else's ever shows.

const me = {
  id: 7,
  appName: 'hunch',
  email: 'me@example.com',
  username: 'me',
  firstName: 'Me',
  lastName: 'Myself',
  displayName: 'Me Myself',
  isTemporary: false,
  roles: [] as string[],
  profilePictureUrl: null,
};

beforeEach(async () => {
  sessionStore.signIn({ accessToken: 'access', refreshToken: 'refresh', user: me } as never, true);
  await db.held.bulkPut([
    {
      id: 'comment',
      userId: me.id,
      mutator: 'postComment',
      args: { tempId: -1, betId: 3, text: 'Called it!' },
      createdAt: 1,
    },
    {
      id: 'wager',
      userId: me.id,
      mutator: 'placeWager',
      args: { betId: 3, prediction: 'yes', points: 4, tempId: -2 },
      createdAt: 2,
    },
    {
      id: 'theirs',
      userId: 8,
      mutator: 'postComment',
      args: { tempId: -3, betId: 3, text: 'Not yours to see' },
      createdAt: 3,
    },
  ]);
});

afterEach(async () => {
  cleanup();
  await clearLocalData(db);
  await db.held.clear();
});

const inSession = (children: React.ReactNode) => (
  <SessionContext value={sessionStore}>{children}</SessionContext>
);

it('says on every screen how many of the player’s writes were left unsent', async () => {
  render(inSession(<HeldWritesStrip />));

  expect(await screen.findByText(HELD_TEXT.waiting(2), { exact: false })).toBeTruthy();
  expect(screen.getByRole('button', { name: HELD_TEXT.review })).toBeTruthy();
});

it('lists each in the player’s own words, sends one through the outbox with its key, discards the other, then closes', async () => {
  const onEmpty = vi.fn();
  render(inSession(<HeldWritesSheet onEmpty={onEmpty} />));

  expect(await screen.findByText('Comment · Called it!')).toBeTruthy();
  expect(screen.getByText('Wager · 4 points on yes')).toBeTruthy();
  expect(screen.queryByText(/Not yours to see/)).toBeNull();
  const sends = screen.getAllByRole('button', { name: HELD_TEXT.send });
  expect(sends).toHaveLength(2);
  // Each button says which write it is about.
  expect(sends[0]!.getAttribute('aria-describedby')).toBe(
    screen.getByText('Comment · Called it!').id,
  );

  fireEvent.click(sends[0]!);
  await waitFor(() => expect(screen.queryByText('Comment · Called it!')).toBeNull());
  expect(await db.outbox.get('comment')).toMatchObject({
    userId: me.id,
    mutator: 'postComment',
    args: { text: 'Called it!' },
  });
  expect(onEmpty).not.toHaveBeenCalled();

  fireEvent.click(screen.getByRole('button', { name: HELD_TEXT.discard }));
  await waitFor(() => expect(onEmpty).toHaveBeenCalled());
  expect(await db.outbox.get('wager')).toBeUndefined();
  expect(await db.held.where('userId').equals(me.id).count()).toBe(0);
});
