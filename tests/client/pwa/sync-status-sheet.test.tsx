import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { clearLocalData, db, LAST_SYNCED_KEY } from '../../../src/client/data/db';
import { sessionStore } from '../../../src/client/data/session';
import { SessionContext } from '../../../src/client/data/use-session';
import { SyncStatusSheet } from '../../../src/client/pwa/sync-status-sheet';
import { SYNC_TEXT } from '../../../src/client/pwa/sync-text';

// The sync status sheet: each write waiting or refused, with its reason, Retry
// and Discard, and when the data was last updated.

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
      error: 'Expiry must be in the future',
    },
  ]);
});

afterEach(async () => {
  cleanup();
  await clearLocalData(db);
});

it('lists each waiting or refused write with its reason, and when the data was last updated', async () => {
  render(
    <SessionContext value={sessionStore}>
      <SyncStatusSheet />
    </SessionContext>,
  );

  expect(await screen.findByText('Wager · 4 points on yes')).toBeTruthy();
  expect(screen.getByText(SYNC_TEXT.waiting)).toBeTruthy();
  expect(screen.getByText('New bet · Rain tomorrow?')).toBeTruthy();
  expect(screen.getByText('Expiry must be in the future')).toBeTruthy();
  expect(screen.getByText(/^Last updated/)).toBeTruthy();
  // Retry only for the refused one; Discard for both.
  expect(screen.getAllByRole('button', { name: SYNC_TEXT.retry })).toHaveLength(1);
  expect(screen.getAllByRole('button', { name: SYNC_TEXT.discard })).toHaveLength(2);
});

it('discards a refused write', async () => {
  render(
    <SessionContext value={sessionStore}>
      <SyncStatusSheet />
    </SessionContext>,
  );
  await screen.findByText('New bet · Rain tomorrow?');

  fireEvent.click(screen.getAllByRole('button', { name: SYNC_TEXT.discard })[1]!);

  await waitFor(() => expect(screen.queryByText('New bet · Rain tomorrow?')).toBeNull());
  expect(await db.outbox.get('refused')).toBeUndefined();
  expect(await db.outbox.get('waiting')).toBeDefined();
});
