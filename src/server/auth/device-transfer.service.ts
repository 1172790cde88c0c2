import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { AuthResponse, MessageResponse } from '../../domain/auth';
import { TOKEN_LIFETIME } from '../../domain/constants';
import type { DeviceTransfer, DeviceTransferPreview } from '../../domain/device-transfer';
import type { redeemDeviceTransferRequestSchema } from '../../domain/schemas/device-transfer';
import type { z } from '../../domain/schemas/zod';
import type { Database, Executor } from '../db/connect';
import type { EventBus } from '../events';
import { deviceTransfers, users, type UserRow } from '../db/schema';
import { invalidAccessToken, invalidTransferCode } from '../errors';
import { isoTime } from '../iso-time';
import type { AuthService } from './auth.service';
import type { AuthUser } from './tokens';

// Move to another device or to the installed app. A signed-in player makes a
// one-time code `<id>.<secret>` (32 random bytes); only the secret's SHA-256 is kept. Another
// device redeems it, once, within 10 minutes, for a session of its own (a new refresh token
// family, as a login makes). Making a new code revokes the earlier ones; the player can revoke
// them too, and signing out everywhere or deleting the account ends them.

const REVOKED_MESSAGE = 'The sign-in code was cancelled.';

export interface DeviceTransferServiceDeps {
  db: Database;
  auth: Pick<AuthService, 'startSession' | 'revokeTransfers'>;
  events: EventBus;
  now?: () => Date;
}

export type DeviceTransferService = ReturnType<typeof createDeviceTransferService>;

const hashSecret = (secret: string) => createHash('sha256').update(secret).digest();
// Compared with an unknown id's secret, so every refusal costs the same.
const NO_SECRET_HASH = hashSecret('');

/** `<id>.<secret>`, the shape the domain schema already checked. */
function splitCode(code: string): { id: number; secret: string } {
  const [id, secret] = code.split('.');
  return { id: Number(id), secret: secret ?? '' };
}

export function createDeviceTransferService({
  db,
  auth,
  events,
  now = () => new Date(),
}: DeviceTransferServiceDeps) {
  /**
   * The code's row and its user, if the code is good: known, the secret right (compared in
   * constant time), not used, revoked or expired, and the account not deleted. `lock` holds the
   * row until the transaction ends, so two redemptions of one code take turns and one fails.
   */
  async function findUsable(
    tx: Executor,
    code: string,
    lock: boolean,
  ): Promise<{ transferId: number; expiresAt: Date; user: UserRow }> {
    const { id, secret } = splitCode(code);
    const query = tx
      .select({ transfer: deviceTransfers, user: users })
      .from(deviceTransfers)
      .innerJoin(users, eq(users.id, deviceTransfers.userId))
      .where(eq(deviceTransfers.id, id))
      .limit(1);
    const [row] = lock ? await query.for('update', { of: deviceTransfers }) : await query;
    const stored = row ? Buffer.from(row.transfer.secretHash, 'hex') : NO_SECRET_HASH;
    const isRightSecret =
      stored.length === NO_SECRET_HASH.length && timingSafeEqual(stored, hashSecret(secret));
    if (
      !row ||
      !isRightSecret ||
      row.transfer.usedAt !== null ||
      row.transfer.revokedAt !== null ||
      row.transfer.expiresAt <= now() ||
      row.user.deletedAt !== null
    )
      throw invalidTransferCode();
    return { transferId: row.transfer.id, expiresAt: row.transfer.expiresAt, user: row.user };
  }

  return {
    /** A new code for the caller; their earlier open codes stop working. */
    async create(caller: AuthUser): Promise<DeviceTransfer> {
      const secret = randomBytes(32).toString('base64url');
      const expiresAt = new Date(now().getTime() + TOKEN_LIFETIME.deviceTransferSeconds * 1000);
      return db.transaction(async (tx) => {
        const [user] = await tx
          .select({ deletedAt: users.deletedAt })
          .from(users)
          .where(eq(users.id, caller.id))
          .limit(1);
        if (!user || user.deletedAt !== null) throw invalidAccessToken();
        await auth.revokeTransfers(tx, caller.id);
        const [row] = await tx
          .insert(deviceTransfers)
          .values({
            userId: caller.id,
            secretHash: hashSecret(secret).toString('hex'),
            expiresAt,
          })
          .returning({ id: deviceTransfers.id });
        return { transferCode: `${row!.id}.${secret}`, expiresAt: isoTime(expiresAt) };
      });
    },

    /** The Cancel button: every open code of the caller stops working. */
    async revoke(caller: AuthUser): Promise<MessageResponse> {
      await db.transaction((tx) => auth.revokeTransfers(tx, caller.id));
      return { message: REVOKED_MESSAGE };
    },

    /** Whose account a code opens ("Sign in as Maya?"), without using it. */
    async preview(code: string): Promise<DeviceTransferPreview> {
      const { user, expiresAt } = await findUsable(db, code, false);
      return {
        userId: user.id,
        displayName: user.displayName,
        isTemporary: user.isTemporary,
        expiresAt: isoTime(expiresAt),
      };
    },

    /** Uses the code, once: a new session for its account on this device; the first device hears it. */
    async redeem(input: z.output<typeof redeemDeviceTransferRequestSchema>): Promise<AuthResponse> {
      const usedAt = now();
      const { userId, session } = await db.transaction(async (tx) => {
        const { transferId, user } = await findUsable(tx, input.transferCode, true);
        await tx
          .update(deviceTransfers)
          .set({ usedAt })
          .where(and(eq(deviceTransfers.id, transferId), isNull(deviceTransfers.usedAt)));
        return { userId: user.id, session: await auth.startSession(tx, user, input.appName) };
      });
      events.publish('deviceTransferRedeemed', { redeemedAt: isoTime(usedAt) }, { userId });
      return session;
    },
  };
}
