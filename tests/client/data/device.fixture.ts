import { afterEach } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import {
  createActiveGroupStore,
  type ActiveGroupStore,
} from '../../../src/client/data/active-group-store';
import { createApiClient, type ApiClient } from '../../../src/client/data/api-client';
import { openHunchDb, type HunchDb } from '../../../src/client/data/db';
import { createLocalData, type LocalData } from '../../../src/client/data/local-data';
import { createSessionStore, type SessionStore } from '../../../src/client/data/session-store';
import { createSocketService, type SocketService } from '../../../src/client/data/socket-service';
import { MIRROR_TABLES } from '../../../src/client/data/synced-tables';
import { showRealtimeAnnouncements } from '../../../src/client/shell/realtime-announcements';
import {
  useTestServer,
  type SharedTestServer,
  type TestServer,
  type TestServerOptions,
} from '../../server/harness';
import { MemoryStorage } from '../node-browser';
import { SYNC_PROTOCOL_HEADER } from '../../../src/domain/sync-protocol';

// One simulated device of a player against the REAL server (tests/server/harness.ts): its own
// fake-indexeddb database, session, API client (whose fetch fails like the browser's while the
// device is offline) and the app's local data (sync engine, outbox, realtime) built on them.
// A test file says `const { server, openDevice } = useDeviceServer(...)`.

let devices = 0;

export interface Device {
  db: HunchDb;
  /** The device's localStorage: the remembered session, the active group, the local data's owner. */
  storage: MemoryStorage;
  session: SessionStore;
  api: ApiClient;
  activeGroup: ActiveGroupStore;
  local: LocalData;
  socket: SocketService | null;
  toasts: { infos: string[]; errors: string[] };
  /** Every request that left the device (online), as "METHOD path". */
  requests: string[];
  setOffline(isOffline: boolean): void;
  /** From now on the device says it speaks this sync protocol (an older or newer build's). */
  setProtocolVersion(version: number): void;
  close(): Promise<void>;
}

export interface DeviceOptions {
  /** A real socket.io connection to the server (realtime tests). */
  withSocket?: boolean;
  /** The device's local database, when a test wrote one already (an older app's). */
  dbName?: string;
}

/**
 * `server` is read at every request, so a test may point the devices at a restarted server
 * (`{ url }` of the new one): their requests and socket reconnections follow.
 */
export async function openDevice(
  server: Pick<TestServer, 'url'>,
  user: AuthResponse,
  { withSocket = false, dbName }: DeviceOptions = {},
): Promise<Device> {
  devices += 1;
  const db = openHunchDb(dbName ?? `hunch-device-${process.pid}-${devices}`);
  const storage = new MemoryStorage();
  const session = createSessionStore({
    storages: { persistent: storage, temporary: new MemoryStorage() },
  });
  session.signIn(user, true);
  let isOffline = false;
  let protocolVersion: number | undefined;
  const requests: string[] = [];
  const api = createApiClient({
    session,
    // Relative paths, resolved against wherever `server` is now.
    fetch: (input, init) => {
      // The browser's fetch with no network: a TypeError before any answer.
      if (isOffline) return Promise.reject(new TypeError('Failed to fetch'));
      requests.push(`${init?.method ?? 'GET'} ${String(input)}`);
      const headers = { ...(init?.headers as Record<string, string>) };
      if (protocolVersion !== undefined) headers[SYNC_PROTOCOL_HEADER] = String(protocolVersion);
      return globalThis.fetch(server.url + String(input), { ...init, headers });
    },
  });
  const activeGroup = createActiveGroupStore(storage);
  const toasts = { infos: [] as string[], errors: [] as string[] };
  const toastStore = {
    info: (message: string) => void toasts.infos.push(message),
    error: (message: string) => void toasts.errors.push(message),
  };
  const socket = withSocket
    ? createSocketService({
        session,
        refreshToken: () => api.refreshTokens(),
        url: () => server.url,
        onlineEvents: null,
        toasts: { show: () => 0, update: () => true, dismiss: () => true },
      })
    : null;
  let keys = 0;
  let temp = 0;
  const local = createLocalData({
    db,
    api,
    session,
    activeGroup,
    storage,
    socket,
    toasts: toastStore as never,
    newKey: () => `device-${devices}-key-${(keys += 1)}`,
    tempId: () => (temp -= 1),
    retryDelayMs: 10,
    debounceMs: 10,
  });
  // As the shell does: what realtime events tell the player shows as toasts.
  if (local.realtime) showRealtimeAnnouncements(local.realtime, toastStore);
  return {
    db,
    storage,
    session,
    api,
    activeGroup,
    local,
    socket,
    toasts,
    requests,
    setOffline(value) {
      isOffline = value;
    },
    setProtocolVersion(version) {
      protocolVersion = version;
    },
    async close() {
      local.stop();
      await local.whenIdle();
      db.close();
      await db.delete();
    },
  };
}

/**
 * The server of a device test file (useTestServer: started before the tests, ledger checked,
 * closed after) and `openDevice(user)` for devices on it, each closed after its test.
 */
export function useDeviceServer(options: TestServerOptions = {}): {
  server: SharedTestServer;
  openDevice(user: AuthResponse, options?: DeviceOptions): Promise<Device>;
} {
  const server = useTestServer(options);
  const opened: Device[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((device) => device.close()));
  });
  return {
    server,
    async openDevice(user, deviceOptions) {
      const device = await openDevice(server, user, deviceOptions);
      opened.push(device);
      return device;
    },
  };
}

/** Every mirror table's rows as JSON, sorted: what a device shows. */
export async function snapshotOf(db: HunchDb): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of MIRROR_TABLES) {
    const rows = (await db.table(table).toArray()) as Array<Record<string, unknown>>;
    out[table] = rows.map((row) => JSON.stringify(row)).sort();
  }
  return out;
}
