import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { clearLocalData, db, LAST_SYNCED_KEY } from '../../../src/client/data/db';
import { sessionStore } from '../../../src/client/data/session';
import { SessionContext } from '../../../src/client/data/use-session';
import { SyncStatusSheet } from '../../../src/client/pwa/sync-status-sheet';
import { SYNC_TEXT } from '../../../src/client/pwa/sync-text';

// The sync status sheet: each write waiting (Discard) or refused (its sentence, Dismiss, and
// Retry only where a retry may get through), and when the data was last updated.

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
  await db.meta.put({ key: LAST_SYNCED_KEY, value: Date.now() - 5 * 60_000 });
  await db.outbox.bulkPut([
    {
      id: 'waiting',
      userId: me.id,
      mutator: 'placeWager',
      args: { betId: 3, prediction: 'yes', points: 4, tempId: -1 },
      createdAt: 1,
      status: 'pending',
      attempts: 1,
    },
    {
      id: 'refused',
      userId: me.id,
      mutator: 'createBet',
      args: { tempId: -2, request: { title: 'Rain tomorrow?' } },
      createdAt: 2,
      status: 'failed',
      attempts: 1,
      error: "Your bet 'Rain tomorrow?' wasn't created. Expiry must be in the future",
      errorCode: 'validation_failed',
    },
    {
      id: 'short',
      userId: me.id,
      mutator: 'placeWager',
      args: { betId: 4, prediction: 'no', points: 9, tempId: -3 },
      createdAt: 3,
      status: 'failed',
      attempts: 1,
      error: "Your 9 points on 'Pizza Friday?' came back: not enough points",
      errorCode: 'insufficient_points',
    },
  ]);
});

afterEach(async () => {
  cleanup();
  await clearLocalData(db);
});

it('lists each waiting or refused write in words, Retry only where it may succeed, and when the data was last updated', async () => {
  render(
    <SessionContext value={sessionStore}>
      <SyncStatusSheet />
    </SessionContext>,
  );

  expect(await screen.findByText('Wager · 4 points on yes')).toBeTruthy();
  expect(screen.getByText(SYNC_TEXT.waiting)).toBeTruthy();
  expect(
    screen.getByText("Your bet 'Rain tomorrow?' wasn't created. Expiry must be in the future"),
  ).toBeTruthy();
  const short = screen.getByText("Your 9 points on 'Pizza Friday?' came back: not enough points");
  expect(screen.getByText(/^Last updated/)).toBeTruthy();
  // The same values fail the same way: only the points one (points can come back) has Retry.
  expect(screen.getAllByRole('button', { name: SYNC_TEXT.retry })).toHaveLength(1);
  expect(short.closest('li')?.textContent).toContain(SYNC_TEXT.retry);
  expect(screen.getAllByRole('button', { name: SYNC_TEXT.dismiss })).toHaveLength(2);
  expect(screen.getAllByRole('button', { name: SYNC_TEXT.discard })).toHaveLength(1);
});

it('dismisses a refused write', async () => {
  render(
    <SessionContext value={sessionStore}>
      <SyncStatusSheet />
    </SessionContext>,
  );
  const said = "Your bet 'Rain tomorrow?' wasn't created. Expiry must be in the future";
  await screen.findByText(said);

  fireEvent.click(screen.getAllByRole('button', { name: SYNC_TEXT.dismiss })[0]!);

  await waitFor(() => expect(screen.queryByText(said)).toBeNull());
  expect(await db.outbox.get('refused')).toBeUndefined();
  expect(await db.outbox.get('waiting')).toBeDefined();
});
