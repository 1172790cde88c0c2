import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { isGroupCreator } from '../../domain/groups';
import {
  ACCOUNT_EXPORT_FORMAT,
  ACCOUNT_EXPORT_VERSION,
  DELETED_PLAYER_NAME,
  type AccountExport,
} from '../../domain/account-data';
import { type deleteAccountRequestSchema } from '../../domain/schemas/account-data';
import type { MessageResponse } from '../../domain/auth';
import type { z } from '../../domain/schemas/zod';
import { readBetsCreatedBy, readWagersOf } from '../bets/bet-data';
import { deleteCommentsOf, readCommentsOf } from '../comments/comment-data';
import { presentNotification, readNotificationsOf } from '../notifications/notification-store';
import { forgetNotificationsOf } from '../notifications/notification-erasure';
import {
  findNotificationSettings,
  presentNotificationSettings,
} from '../notifications/notification-settings';
import type { Database, Executor } from '../db/connect';
import { unnameInStandings } from '../seasons/season-data';
import {
  deviceTransfers,
  emailChanges,
  passwordResets,
  refreshTokens,
  users,
  type UserRow,
} from '../db/schema';
import { invalidAccessToken, invalidCurrentPassword } from '../errors';
import type { EventBus } from '../events';
import { leaveEveryGroup, readLedgerOf, readMembershipsOf } from '../groups/member-data';
import { deleteIdempotencyKeysOf } from '../idempotency/idempotency.service';
import { isoTime } from '../iso-time';
import { deletePushDataOf, readPushSubscriptionsOf } from '../push/subscription-data';
import { readApiTokensOf, revokeApiTokensOf } from './api-tokens.service';
import { type AuthUser, verifyPassword } from './tokens';

// A player's own data: the export of everything Hunch holds about them, and the
// deletion of their account. Deletion keeps the user row as a nameless tombstone: their
// wagers, ledger rows, bets and points stay exactly as they are, so every group's ledger
// still adds up and nobody else's payout changes; what says who they were goes, and so does
// every right of the account (its sessions end, it leaves every group), at once.

const ACCOUNT_DELETED_MESSAGE = 'Your account has been deleted.';

export interface AccountDataServiceDeps {
  db: Database;
  /** Sessions ended are announced after the commit (the realtime gateway drops the user's sockets). */
  events?: EventBus;
  now?: () => Date;
}

export type AccountDataService = ReturnType<typeof createAccountDataService>;

/** The live (not deleted) user row; a deleted account's token is a dead session. */
async function findLiveUser(tx: Executor, id: number, lock = false): Promise<UserRow> {
  const query = tx
    .select()
    .from(users)
    .where(and(eq(users.id, id), isNull(users.deletedAt)))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw invalidAccessToken();
  return row;
}

/** One row per sign-in (a refresh token family): each refresh rotates the token within it. */
async function readSessionsOf(tx: Executor, userId: number, at: Date) {
  return tx
    .select({
      appName: sql<string>`min(${refreshTokens.appName})`,
      createdAt: sql<Date>`min(${refreshTokens.createdAt})`.mapWith(refreshTokens.createdAt),
      lastUsedAt: sql<Date>`max(${refreshTokens.createdAt})`.mapWith(refreshTokens.createdAt),
      expiresAt: sql<Date>`max(${refreshTokens.expiresAt})`.mapWith(refreshTokens.expiresAt),
      isActive: sql<boolean>`bool_or(${refreshTokens.revokedAt} is null and ${refreshTokens.expiresAt} > ${at})`,
    })
    .from(refreshTokens)
    .where(eq(refreshTokens.userId, userId))
    .groupBy(refreshTokens.familyId)
    .orderBy(asc(sql`min(${refreshTokens.createdAt})`));
}

const isoOrNull = (date: Date | null) => (date === null ? null : isoTime(date));

export function createAccountDataService({
  db,
  events,
  now = () => new Date(),
}: AccountDataServiceDeps) {
  /**
   * Deletes the account of `userId` (see deleteAccount), once `mayErase` has accepted its row,
   * locked in the deletion's own transaction.
   */
  async function eraseAccount(
    userId: number,
    mayErase: (user: UserRow) => Promise<void>,
  ): Promise<MessageResponse> {
    const at = now();
    const groupsLeft = await db.transaction(async (tx) => {
      const user = await findLiveUser(tx, userId, true);
      await mayErase(user);
      // A new display name restamps the user's memberships (migration 0005's trigger), so
      // every member's device pulls "Deleted player" into its mirror.
      await tx
        .update(users)
        .set({
          displayName: DELETED_PLAYER_NAME,
          firstName: '',
          lastName: '',
          email: null,
          username: null,
          passwordHash: null,
          profilePictureUrl: null,
          roles: [],
          deletedAt: at,
          updatedAt: at,
        })
        .where(eq(users.id, user.id));
      await tx.delete(refreshTokens).where(eq(refreshTokens.userId, user.id));
      await revokeApiTokensOf(tx, user.id);
      await tx.delete(passwordResets).where(eq(passwordResets.userId, user.id));
      await tx.delete(deviceTransfers).where(eq(deviceTransfers.userId, user.id));
      await tx.delete(emailChanges).where(eq(emailChanges.userId, user.id));
      await deletePushDataOf(tx, user.id);
      await deleteIdempotencyKeysOf(tx, user.id);
      await deleteCommentsOf(tx, user.id, at);
      await forgetNotificationsOf(tx, user.id);
      await unnameInStandings(tx, user.id);
      return leaveEveryGroup(tx, user.id, at);
    });
    // Sessions first: from here no request or socket of the account gets in.
    events?.publish('sessionsRevoked', { userId }, { userId });
    for (const groupId of groupsLeft)
      events?.publish('membershipEnded', { groupId, userId }, { userId });
    return { message: ACCOUNT_DELETED_MESSAGE };
  }

  return {
    /** Everything Hunch holds about the caller, read in one consistent snapshot; nothing secret. */
    async exportAccount(auth: AuthUser): Promise<AccountExport> {
      const at = now();
      return db.transaction(
        async (tx) => {
          const user = await findLiveUser(tx, auth.id);
          // One after the other: a transaction is one connection.
          const memberships = await readMembershipsOf(tx, user.id);
          const wagers = await readWagersOf(tx, user.id);
          const comments = await readCommentsOf(tx, user.id);
          const betsCreated = await readBetsCreatedBy(tx, user.id);
          const ledger = await readLedgerOf(tx, user.id);
          const pushSubscriptions = await readPushSubscriptionsOf(tx, user.id);
          const sessions = await readSessionsOf(tx, user.id, at);
          const tokens = await readApiTokensOf(tx, user.id);
          const inbox = await readNotificationsOf(tx, user.id);
          const settings = presentNotificationSettings(await findNotificationSettings(tx, user.id));
          return {
            format: ACCOUNT_EXPORT_FORMAT,
            version: ACCOUNT_EXPORT_VERSION,
            exportedAt: isoTime(at),
            profile: {
              id: user.id,
              displayName: user.displayName,
              firstName: user.firstName,
              lastName: user.lastName,
              email: user.email ?? '',
              username: user.username ?? '',
              isTemporary: user.isTemporary,
              appName: user.appName,
              profilePictureUrl: user.profilePictureUrl,
              createdAt: isoTime(user.createdAt),
              updatedAt: isoTime(user.updatedAt),
            },
            memberships: memberships.map(({ membership, groupName, createdByUserId }) => ({
              groupId: membership.groupId,
              groupName,
              role: membership.role,
              isCreator: isGroupCreator({ createdByUserId }, user.id),
              totalPoints: membership.totalPoints,
              availablePoints: membership.availablePoints,
              joinedAt: isoTime(membership.joinedAt),
              leftAt: isoOrNull(membership.leftAt),
            })),
            wagers: wagers.map(({ wager, betTitle, groupId }) => ({
              id: wager.id,
              betId: wager.betId,
              betTitle,
              groupId,
              prediction: wager.prediction,
              points: wager.points,
              createdAt: isoTime(wager.createdAt),
              updatedAt: isoTime(wager.updatedAt),
            })),
            comments: comments.map(({ comment, betTitle }) => ({
              id: comment.id,
              betId: comment.betId,
              betTitle,
              groupId: comment.groupId,
              text: comment.text,
              createdAt: isoTime(comment.createdAt),
            })),
            betsCreated: betsCreated.map((bet) => ({
              id: bet.id,
              groupId: bet.groupId,
              title: bet.title,
              description: bet.description,
              betType: bet.betType,
              state: bet.state,
              baseWagerAmount: bet.baseWagerAmount,
              expiresAt: isoTime(bet.expiresAt),
              correctAnswer: bet.correctAnswer,
              resolvedAt: isoOrNull(bet.resolvedAt),
              createdAt: isoTime(bet.createdAt),
            })),
            ledger: ledger.map((row) => ({
              id: row.id,
              groupId: row.groupId,
              kind: row.kind,
              totalDelta: row.totalDelta,
              availableDelta: row.availableDelta,
              betId: row.betId,
              wagerId: row.wagerId,
              createdAt: isoTime(row.createdAt),
            })),
            pushSubscriptions: pushSubscriptions.map(({ active, ...row }) => ({
              deviceName: row.deviceName,
              userAgent: row.userAgent,
              appName: row.appName,
              endpointHost: row.endpointHost,
              isActive: active,
              createdAt: isoTime(row.createdAt),
              lastSuccessAt: isoOrNull(row.lastSuccessAt),
            })),
            sessions: sessions.map((session) => ({
              appName: session.appName,
              createdAt: isoTime(session.createdAt),
              lastUsedAt: isoTime(session.lastUsedAt),
              expiresAt: isoTime(session.expiresAt),
              isActive: Boolean(session.isActive),
            })),
            apiTokens: tokens.map(({ id: _id, ...token }) => token),
            notifications: inbox.map((row) => {
              const { version: _version, ...entry } = presentNotification(row);
              return entry;
            }),
            notificationSettings: {
              pushOff: settings.pushOff,
              mutedGroupIds: settings.mutedGroupIds,
              mutedBetIds: settings.mutedBetIds,
            },
          };
        },
        { isolationLevel: 'repeatable read', accessMode: 'read only' },
      );
    },

    /**
     * Deletes the caller's account at once, in one transaction: the user row becomes a
     * tombstone ("Deleted player", no email, username, names, password or picture, marked
     * deleted), their comments become tombstones, the inbox entries they caused no longer name
     * them, and their own inbox, push subscriptions, sessions, reset links, email changes and
     * stored idempotent answers are deleted. They leave every group as leaving does (wagers,
     * ledger rows, bets and points stay; open wagers still settle); a group left without a live
     * admin gets its longest-standing member as admin. After the commit their tokens and open
     * sockets stop working, as at sign-out everywhere, and their sockets leave the groups' rooms.
     */
    async deleteAccount(
      auth: AuthUser,
      input: z.output<typeof deleteAccountRequestSchema>,
    ): Promise<MessageResponse> {
      return eraseAccount(auth.id, async (user) => {
        // As for a password change: a stolen access token alone must not end the account.
        if (!user.isTemporary) {
          const isCorrect =
            input.currentPassword !== undefined &&
            (await verifyPassword(user.passwordHash, input.currentPassword));
          if (!isCorrect) throw invalidCurrentPassword();
        }
      });
    },

    /** The same deletion, asked by the server's operator (`npm run admin -- delete <email>`): no password. */
    async deleteAccountAsOperator(userId: number): Promise<MessageResponse> {
      return eraseAccount(userId, async () => {});
    },
  };
}
