import type { AuthResponse } from '../../../src/domain/auth';
import type { Notification } from '../../../src/domain/notifications';
import { runReminders } from '../../../src/server/jobs/reminders.job';
import type { TestServer } from '../harness';

/** The reminders job and the inbox recorder off: tests run them when they mean to. */
export const NO_TIMERS = { env: { BET_EXPIRY_INTERVAL_MS: '0', REMINDER_INTERVAL_MS: '0' } };

/** The player's inbox as GET /api/notifications answers it, once pending entries are written. */
export async function inboxOf(
  server: TestServer,
  user: AuthResponse,
): Promise<{ notifications: Notification[]; unreadCount: number }> {
  await server.app.push.idle();
  const response = await server.request('GET', '/api/notifications', { token: user.accessToken });
  if (response.status !== 200) throw new Error(`inbox failed: ${response.status} ${response.text}`);
  return response.body;
}

/** One pass of the reminders job on the server's database and bus, at `at`. */
export function sendReminders(server: TestServer, at: Date) {
  return runReminders(
    { db: server.database.db, events: server.app.events, closesSoonMs: 2 * 60 * 60 * 1000 },
    at,
  );
}

export function mute(
  server: TestServer,
  user: AuthResponse,
  target: { groupId: number } | { betId: number },
  muted = true,
) {
  const path =
    'groupId' in target ? `/api/groups/${target.groupId}/mute` : `/api/bets/${target.betId}/mute`;
  return server.request('PUT', path, { token: user.accessToken, body: { muted } });
}
