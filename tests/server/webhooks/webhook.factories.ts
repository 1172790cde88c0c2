import type { AuthResponse } from '../../../src/domain/auth';
import type { WebhookWithSecret } from '../../../src/domain/schemas/webhooks';
import type { WebhookEventType } from '../../../src/domain/webhooks';
import { runWebhooks } from '../../../src/server/jobs/webhooks.job';
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
