import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { WebhookDeliveryList, WebhookWithSecret } from '../../../src/domain/schemas/webhooks';
import {
  E2E_METRICS_TOKEN,
  freePort,
  startServerProcess,
  type ServerProcess,
} from '../../e2e/server-process';
import { isSignedBy, startWebhookReceiver, type WebhookReceiver } from '../../webhook-receiver';
import { emptyPostgresDatabase } from '../harness';
import { callProcess } from '../spawned-process';

// Nothing is lost across a crash between an event's commit and its delivery (the outbox,
// src/server/webhooks/webhook-outbox.ts): the real server, as a child process with its
// webhooks job running every second, kills itself with SIGKILL right after a bet's creation
// commits (HUNCH_TEST_CRASH_AFTER_KEYED_WRITE_COMMIT, the bet sent with an Idempotency-Key),
// before it answers and before the job's pass that the bet would start. Started again on the
// same data, the server delivers bet.created to the receiver exactly once.

const isPostgres = process.env.HUNCH_TEST_DB === 'postgres';
const CRASH_TIMEOUT_MS = 300_000;

let dataDir: string;
let databaseUrl: string | undefined;
let dropDatabase = async () => undefined as void;
let server: ServerProcess | undefined;
let receiver: WebhookReceiver;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'hunch-webhook-crash-'));
  receiver = await startWebhookReceiver();
  if (!isPostgres) return;
  const database = await emptyPostgresDatabase('hunch_webhook_crash');
  databaseUrl = database.url;
  dropDatabase = database.drop;
});

afterAll(async () => {
  await server?.stop();
  await receiver.close();
  await dropDatabase();
  rmSync(dataDir, { recursive: true, force: true });
});

const call = <T>(method: string, route: string, token: string, body?: unknown, key?: string) =>
  callProcess<T>(server!.url, method, route, token, body, key);

/** How many passes the server's webhooks job has finished (its metrics). */
async function webhookPasses(): Promise<number> {
  const response = await fetch(`${server!.url}/metrics`, {
    headers: { authorization: `Bearer ${E2E_METRICS_TOKEN}` },
  });
  const pattern = /^hunch_job_pass_duration_seconds_count\{[^}]*job="webhooks"[^}]*\} (\d+)/gm;
  let passes = 0;
  for (const match of (await response.text()).matchAll(pattern)) passes += Number(match[1]);
  return passes;
}

describe('a crash between an event’s commit and its delivery', () => {
  it(
    'delivers the event exactly once after the server starts again',
    async () => {
      const port = await freePort();
      server = await startServerProcess({
        port,
        dataDir,
        databaseUrl,
        env: { HUNCH_TEST_CRASH_AFTER_KEYED_WRITE_COMMIT: 'true' },
      });
      const password = 'Correct-horse-1';
      const admin = await call<{ accessToken: string }>('POST', '/auth/register', '', {
        firstName: 'Ada',
        lastName: 'Lovelace',
        displayName: 'Ada',
        username: `ada_${port}`,
        email: `ada.${port}@example.com`,
        password,
        passwordConfirm: password,
        appName: 'hunch',
      });
      expect(admin.status).toBe(201);
      const token = admin.body.accessToken;
      // Sent without a key: these commit and answer.
      const group = await call<{ id: number }>('POST', '/api/groups', token, {
        name: `Webhook crash ${randomUUID()}`,
        privacy: 'public',
        defaultPoints: 100,
      });
      expect(group.status).toBe(201);
      const hook = await call<WebhookWithSecret>(
        'POST',
        `/api/groups/${group.body.id}/webhooks`,
        token,
        { url: `${receiver.origin}/crash`, events: ['bet.created'] },
      );
      expect(hook.status).toBe(201);

      const bet = {
        title: 'Survives the crash?',
        betType: 'yes_no',
        betTypeConfig: {},
        baseWagerAmount: 1,
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
        groupId: group.body.id,
      };
      // The process dies after the commit: no answer comes, and nothing was sent.
      await expect(call('POST', '/api/bets', token, bet, randomUUID())).rejects.toThrow();
      await server.exited();
      expect(receiver.arrivals).toHaveLength(0);

      // The same data, without the hook: the delivery committed with the bet goes out.
      server = await startServerProcess({ port, dataDir, databaseUrl });
      await vi.waitFor(() => expect(receiver.arrivals).toHaveLength(1), {
        timeout: 60_000,
        interval: 200,
      });
      const [arrival] = receiver.arrivals;
      expect(arrival!.path).toBe('/crash');
      expect(arrival!.json).toMatchObject({
        type: 'bet.created',
        data: { bet: { title: 'Survives the crash?' } },
      });
      expect(isSignedBy(arrival!, hook.body.secret)).toBe(true);

      // Two more passes of the job later, still once.
      const passes = await webhookPasses();
      await vi.waitFor(async () => expect(await webhookPasses()).toBeGreaterThan(passes + 1), {
        timeout: 60_000,
        interval: 200,
      });
      expect(receiver.arrivals).toHaveLength(1);
      const deliveries = await call<WebhookDeliveryList>(
        'GET',
        `/api/groups/${group.body.id}/webhooks/${hook.body.id}/deliveries`,
        token,
      );
      expect(deliveries.body.deliveries).toMatchObject([
        { state: 'delivered', attempts: 1, responseStatus: 200 },
      ]);
    },
    CRASH_TIMEOUT_MS,
  );
});
