import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// The client tests' API: a real HTTP server on loopback answering like our server would for
// the calls a test makes, so the real api-client (fetch, headers, refresh) is exercised.

export interface StandIn {
  baseUrl: string;
  close(): Promise<void>;
}

/** Answers one request; it may be async. */
export type StandInListener = (request: IncomingMessage, response: ServerResponse) => unknown;

export async function startStandIn(listener: StandInListener): Promise<StandIn> {
  const server = createServer((request, response) => {
    // A listener that throws is the test's bug: logged (which fails the test) and answered,
    // so the client under test never waits on a request left open.
    new Promise((resolve) => resolve(listener(request, response))).catch((error: unknown) => {
      console.error('The stand-in failed to answer', request.url, error);
      response.destroy();
    });
  });
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
