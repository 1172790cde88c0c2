import { eq } from 'drizzle-orm';
import { resolveReminderDueAt } from '../../domain/notifications';
import type { Executor } from '../db/connect';
import { resolveReminders, type BetRow } from '../db/schema';

/**
 * Keeps the bet's row of the resolve reminders' schedule right after a write of its state, in
 * the same transaction: an active bet is due at its close (created, or its resolution undone),
 * a resolved, cancelled or expired one has no row. The reminders job moves it on after that.
 */
export async function scheduleResolveReminder(
  tx: Executor,
  bet: Pick<BetRow, 'id' | 'state' | 'expiresAt'>,
): Promise<void> {
  const dueAt = resolveReminderDueAt(bet);
  if (dueAt === null) {
    await tx.delete(resolveReminders).where(eq(resolveReminders.betId, bet.id));
    return;
  }
  await tx
    .insert(resolveReminders)
    .values({ betId: bet.id, dueAt })
    .onConflictDoUpdate({ target: resolveReminders.betId, set: { dueAt } });
}
