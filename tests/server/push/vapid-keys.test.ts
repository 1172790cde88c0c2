import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import webpush from 'web-push';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/server/config';
import { openTestDatabase, startTestServer } from '../harness';

// The web push identity (docs/architecture.md §3): VAPID_* when set, otherwise generated once into
// DATA_DIR, since browsers tie every subscription to the public key.

// Each test starts and stops its own servers (restarts on the same data, other settings)
// (startTestServer, not useTestServer).
describe('the VAPID keys', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hunch-vapid-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const publicKeyOf = async (server: Awaited<ReturnType<typeof startTestServer>>) =>
    (await server.request('GET', '/api/push-subscriptions/vapid-public-key')).body
      .publicKey as string;

  it('are generated once into DATA_DIR and kept across restarts', async () => {
    const database = await openTestDatabase();
    try {
      const first = await startTestServer({ dataDir, database });
      const generated = await publicKeyOf(first);
      await first.close();
      const file = path.join(dataDir, 'secrets.json');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const stored = JSON.parse(readFileSync(file, 'utf8'));
      expect(stored.vapidKeys.publicKey).toBe(generated);
      expect(stored.jwtSecret).toEqual(expect.any(String));

      const second = await startTestServer({ dataDir, database });
      expect(await publicKeyOf(second)).toBe(generated);
      await second.close();
    } finally {
      await database.close();
    }
  });

  it('come from VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY when set, and nothing is generated', async () => {
    const configured = webpush.generateVAPIDKeys();
    const server = await startTestServer({
      env: {
        VAPID_PUBLIC_KEY: configured.publicKey,
        VAPID_PRIVATE_KEY: configured.privateKey,
        JWT_SECRET: 'j'.repeat(40),
      },
    });
    try {
      expect(await publicKeyOf(server)).toBe(configured.publicKey);
      expect(() => statSync(path.join(server.dataDir, 'secrets.json'))).toThrow();
    } finally {
      await server.close();
    }
  });

  it('stop start-up when configured wrongly', async () => {
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: webpush.generateVAPIDKeys().publicKey })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: webpush.generateVAPIDKeys().publicKey })).toThrow(
      /VAPID_PRIVATE_KEY/,
    );
    const database = await openTestDatabase();
    try {
      await expect(
        startTestServer({
          dataDir,
          database,
          env: { VAPID_PUBLIC_KEY: 'not-a-key', VAPID_PRIVATE_KEY: 'nor-this' },
        }),
      ).rejects.toThrow(/VAPID/);
    } finally {
      await database.close();
    }
  });
});
