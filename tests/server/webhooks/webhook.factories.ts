import { afterAll, beforeAll } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import type {
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookWithSecret,
} from '../../../src/domain/schemas/webhooks';
import type { WebhookEventType } from '../../../src/domain/webhooks';
import { runWebhooks } from '../../../src/server/jobs/webhooks.job';
import { startWebhookReceiver, type WebhookReceiver } from '../../webhook-receiver';
import type { TestServer } from '../harness';

// Factories for the webhooks tests: hooks are added through HTTP as an admin would; a pass of
// the job is run by the test (the harness keeps the timer off), at the server's clock.

export async function addHook(
  server: TestServer,
  admin: AuthResponse,
  groupId: number,
  url: string,
  events: readonly WebhookEventType[],
  postResults = false,
): Promise<WebhookWithSecret> {
  const response = await server.request<WebhookWithSecret>(
    'POST',
    `/api/groups/${groupId}/webhooks`,
    { token: admin.accessToken, body: { url, events, postResults } },
  );
  if (response.status !== 201)
    throw new Error(`addHook failed: ${response.status} ${response.text}`);
  return response.body;
}

/** One pass of the webhooks job on the app's database and bus. */
export function sendWebhooks(server: TestServer, at = server.clock.now()) {
  return runWebhooks(
    {
      db: server.database.db,
      events: server.app.events,
      origin: server.config.publicUrl,
      hostRules: server.config.webhookHostRules,
      closesSoonMs: server.config.closesSoonReminderMs,
    },
    at,
  );
}

/** The hook's last deliveries, newest first, as its admins read them. */
export async function deliveriesOf(
  server: TestServer,
  admin: AuthResponse,
  hook: Pick<WebhookWithSecret, 'id' | 'groupId'>,
): Promise<WebhookDelivery[]> {
  const response = await server.request<WebhookDeliveryList>(
    'GET',
    `/api/groups/${hook.groupId}/webhooks/${hook.id}/deliveries`,
    { token: admin.accessToken },
  );
  if (response.status !== 200)
    throw new Error(`deliveriesOf failed: ${response.status} ${response.text}`);
  return response.body.deliveries;
}

/** `at` moved `ms` on. */
export const later = (at: Date | string | number, ms: number) =>
  new Date(new Date(at).getTime() + ms);

/** A receiver on loopback for the file's tests (started before them, closed after). */
export function useWebhookReceiver() {
  let receiver: WebhookReceiver | undefined;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });
  const current = () => {
    if (!receiver) throw new Error('The receiver starts in beforeAll');
    return receiver;
  };
  return {
    get receiver() {
      return current();
    },
    get origin() {
      return current().origin;
    },
    /** What arrived at `path` (with its query), in order. */
    arrivalsAt: (path: string) => current().arrivals.filter((arrival) => arrival.path === path),
  };
}
