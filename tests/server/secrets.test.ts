import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createUser, openTestDatabase, startTestServer } from './harness';

// Each test restarts a server on the same data, so it starts and stops its servers itself
// (startTestServer, not useTestServer).
describe('the generated JWT secret', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hunch-secrets-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('is kept in DATA_DIR so sessions survive a restart', async () => {
    const database = await openTestDatabase();
    try {
      const first = await startTestServer({ dataDir, database });
      const user = await createUser(first);
      await first.close();
      const file = path.join(dataDir, 'secrets.json');
      expect(statSync(file).mode & 0o777).toBe(0o600);

      const second = await startTestServer({ dataDir, database });
      const response = await second.request('GET', '/auth/users/me', { token: user.accessToken });
      expect(response.status).toBe(200);
      expect(response.body.id).toBe(user.user.id);
      await second.close();
    } finally {
      await database.close();
    }
  });

  it('is not used when JWT_SECRET is set', async () => {
    const database = await openTestDatabase();
    try {
      const first = await startTestServer({
        dataDir,
        database,
        env: { JWT_SECRET: 'a'.repeat(40) },
      });
      const user = await createUser(first);
      await first.close();
      const second = await startTestServer({ dataDir, database });
      expect(
        (await second.request('GET', '/auth/users/me', { token: user.accessToken })).status,
      ).toBe(401);
      await second.close();
    } finally {
      await database.close();
    }
  });
});
