import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

// The client tests' API: a real HTTP server on loopback answering like our server would for
// the calls a test makes, so the real api-client (fetch, headers, refresh) is exercised.

export interface StandIn {
  baseUrl: string;
  close(): Promise<void>;
}

export async function startStandIn(listener: RequestListener): Promise<StandIn> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The browser's fetch, which fails as it does with no network (a TypeError, no answer) while `isOffline()`. */
export function fetchUnlessOffline(isOffline: () => boolean): typeof fetch {
  return (...args) =>
    isOffline() ? Promise.reject(new TypeError('Failed to fetch')) : globalThis.fetch(...args);
}
