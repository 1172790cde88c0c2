import { and, count, desc, eq } from 'drizzle-orm';
import { addWebhookRefusal } from '../../domain/policies/webhook-policy';
import type {
  CreateWebhookRequest,
  UpdateWebhookRequest,
  Webhook,
  WebhookDelivery,
  WebhookWithSecret,
} from '../../domain/schemas/webhooks';
import { WEBHOOK_LIMITS } from '../../domain/webhooks';
import { requireLiveCaller } from '../auth/session-liveness';
import type { AuthUser } from '../auth/tokens';
import type { Database, Executor } from '../db/connect';
import { groupWebhooks, webhookDeliveries } from '../db/webhooks-schema';
import { notFound, validationFailed, webhookLimit } from '../errors';
import { requireGroupAccess } from '../groups/group-access';
import type { PushEndpointRule } from '../push-endpoints';
import { presentDelivery, presentWebhook } from './webhook.presenter';
import { newWebhookSecret } from './webhook-signing';
import { webhookUrlRefusal } from './webhook-urls';

// A group's webhooks under /api/groups/{id}/webhooks (docs/integrations.md): its admins add
// (at most 5), list, change, pause and resume, rotate the secret of, and delete hooks, and read
// and resend a hook's last 50 deliveries. Each write is one transaction: the caller's session
// checked under their account's lock, then who may act decided under the group's lock
// (group-access.ts 'manageWebhooks', the webhook policy), then the change. The secret leaves
// the server twice only: in the answers of creation and of rotation.

export interface WebhooksServiceDeps {
  db: Database;
  /** WEBHOOK_HOSTS: hosts a hook may name whatever their address. */
  hostRules: readonly PushEndpointRule[];
  /** Called after a resend commits, so the jobs runner sends it now. */
  onQueued?: () => void;
  now?: () => Date;
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;

export function createWebhooksService({
  db,
  hostRules,
  onQueued = () => undefined,
  now = () => new Date(),
}: WebhooksServiceDeps) {
  function requireAllowedUrl(url: string): void {
    const refusal = webhookUrlRefusal(url, hostRules);
    if (refusal) throw validationFailed(refusal, { url: refusal });
  }

  /** The caller's session, then their standing under the group's lock. */
  async function requireAdmin(tx: Executor, caller: AuthUser, groupId: number, at: Date) {
    await requireLiveCaller(tx, caller, at);
    return requireGroupAccess(tx, { userId: caller.id, groupId, permission: 'manageWebhooks' });
  }

  async function findHook(tx: Executor, groupId: number, hookId: number) {
    const [hook] = await tx
      .select()
      .from(groupWebhooks)
      .where(and(eq(groupWebhooks.id, hookId), eq(groupWebhooks.groupId, groupId)))
      .limit(1);
    if (!hook) throw notFound('Webhook');
    return hook;
  }

  return {
    async createWebhook(
      caller: AuthUser,
      groupId: number,
      input: CreateWebhookRequest,
    ): Promise<WebhookWithSecret> {
      requireAllowedUrl(input.url);
      const at = now();
      return db.transaction(async (tx) => {
        await requireAdmin(tx, caller, groupId, at);
        // Under the group's lock: two admins adding at once are counted one after the other.
        const [existing] = await tx
          .select({ hooks: count() })
          .from(groupWebhooks)
          .where(eq(groupWebhooks.groupId, groupId));
        if (addWebhookRefusal(existing?.hooks ?? 0)) throw webhookLimit();
        const [row] = await tx
          .insert(groupWebhooks)
          .values({
            groupId,
            url: input.url,
            events: [...input.events],
            postResults: input.postResults ?? false,
            timeZone: input.timeZone ?? 'UTC',
            secret: newWebhookSecret(),
            createdBy: caller.id,
            createdAt: at,
          })
          .returning();
        return { ...presentWebhook(row!, at), secret: row!.secret };
      });
    },

    async listWebhooks(caller: AuthUser, groupId: number): Promise<Webhook[]> {
      await requireGroupAccess(db, { userId: caller.id, groupId, permission: 'readWebhooks' });
      const rows = await db
        .select()
        .from(groupWebhooks)
        .where(eq(groupWebhooks.groupId, groupId))
        .orderBy(groupWebhooks.id);
      const at = now();
      return rows.map((row) => presentWebhook(row, at));
    },

    async updateWebhook(
      caller: AuthUser,
      groupId: number,
      hookId: number,
      input: UpdateWebhookRequest,
    ): Promise<Webhook> {
      if (input.url !== undefined) requireAllowedUrl(input.url);
      const at = now();
      return db.transaction(async (tx) => {
        await requireAdmin(tx, caller, groupId, at);
        const hook = await findHook(tx, groupId, hookId);
        const [row] = await tx
          .update(groupWebhooks)
          .set({
            ...(input.url !== undefined ? { url: input.url } : {}),
            ...(input.events !== undefined ? { events: [...input.events] } : {}),
            ...(input.postResults !== undefined ? { postResults: input.postResults } : {}),
            // Resumed: its failures start counting afresh; what waited is sent again.
            ...(input.paused === false && hook.pausedAt
              ? { pausedAt: null, failingSince: null }
              : {}),
            ...(input.paused === true && !hook.pausedAt ? { pausedAt: at } : {}),
          })
          .where(eq(groupWebhooks.id, hook.id))
          .returning();
        return presentWebhook(row!, at);
      });
    },

    async deleteWebhook(caller: AuthUser, groupId: number, hookId: number): Promise<void> {
      const at = now();
      await db.transaction(async (tx) => {
        await requireAdmin(tx, caller, groupId, at);
        const hook = await findHook(tx, groupId, hookId);
        // Its deliveries go with it (the foreign key cascades): nothing more is sent.
        await tx.delete(groupWebhooks).where(eq(groupWebhooks.id, hook.id));
      });
    },

    /** A new secret; the old one signs beside it for a day, so receivers can switch over. */
    async rotateSecret(
      caller: AuthUser,
      groupId: number,
      hookId: number,
    ): Promise<WebhookWithSecret> {
      const at = now();
      return db.transaction(async (tx) => {
        await requireAdmin(tx, caller, groupId, at);
        const hook = await findHook(tx, groupId, hookId);
        const [row] = await tx
          .update(groupWebhooks)
          .set({
            secret: newWebhookSecret(),
            previousSecret: hook.secret,
            previousSecretUntil: new Date(at.getTime() + WEBHOOK_LIMITS.previousSecretMs),
          })
          .where(eq(groupWebhooks.id, hook.id))
          .returning();
        return { ...presentWebhook(row!, at), secret: row!.secret };
      });
    },

    /** The hook's last 50 deliveries, newest first. */
    async listDeliveries(
      caller: AuthUser,
      groupId: number,
      hookId: number,
    ): Promise<WebhookDelivery[]> {
      await requireGroupAccess(db, { userId: caller.id, groupId, permission: 'readWebhooks' });
      const hook = await findHook(db, groupId, hookId);
      const rows = await db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.hookId, hook.id))
        .orderBy(desc(webhookDeliveries.id))
        .limit(WEBHOOK_LIMITS.deliveriesShown);
      return rows.map(presentDelivery);
    },

    /**
     * "Send again": a new delivery of the same event (the same `webhook-id` and body, so a
     * receiver that has it already can drop it), due now, with 8 tries of its own.
     */
    async retryDelivery(
      caller: AuthUser,
      groupId: number,
      hookId: number,
      deliveryId: number,
    ): Promise<WebhookDelivery> {
      const at = now();
      const row = await db.transaction(async (tx) => {
        await requireAdmin(tx, caller, groupId, at);
        const hook = await findHook(tx, groupId, hookId);
        const [original] = await tx
          .select()
          .from(webhookDeliveries)
          .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.hookId, hook.id)))
          .limit(1);
        if (!original) throw notFound('Delivery');
        const [copy] = await tx
          .insert(webhookDeliveries)
          .values({
            hookId: hook.id,
            eventId: original.eventId,
            eventType: original.eventType,
            body: original.body,
            nextAttemptAt: at,
            createdAt: at,
          })
          .returning();
        return copy!;
      });
      onQueued();
      return presentDelivery(row);
    },
  };
}
