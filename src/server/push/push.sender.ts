import webpush from 'web-push';
import type { PushNotification } from '../../domain/push';
import type { Config } from '../config';
import { loadOrCreateVapidKeys } from '../secrets';
import type { Destination } from './push-subscriptions.service';

// One web push request (RFC 8030) to one subscription: web-push encrypts the payload
// (RFC 8291, aes128gcm) and signs the VAPID header (RFC 8292); the request itself goes out
// with fetch. Why not webpush.sendNotification: it speaks https only, with a socket idle
// timeout; fetch gives one deadline for the whole request and also reaches the plain-http
// stand-in push service that development and the tests run on loopback.

/** The server's web push identity (docs/architecture.md §3). */
export interface VapidIdentity {
  publicKey: string;
  privateKey: string;
  /** Who the push service can contact about our traffic: a mailto: or https: URL. */
  subject: string;
}

const DEFAULT_VAPID_SUBJECT = 'mailto:hello@hunch.app';

/** A push service that has not answered by then is given up on (logged; the subscription is kept). */
export const PUSH_SEND_TIMEOUT_MS = 10_000;

/**
 * VAPID_* when set; otherwise keys generated once into DATA_DIR, and as subject the public
 * https origin, or a mailto: address while the app runs on http (push services such as
 * Apple's refuse an http or localhost subject).
 */
export function resolveVapidIdentity(
  config: Pick<Config, 'vapid' | 'dataDir' | 'publicUrl'>,
): VapidIdentity {
  const keys =
    config.vapid.publicKey && config.vapid.privateKey
      ? { publicKey: config.vapid.publicKey, privateKey: config.vapid.privateKey }
      : loadOrCreateVapidKeys(config.dataDir);
  const subject =
    config.vapid.subject ??
    (config.publicUrl.startsWith('https://') ? config.publicUrl : DEFAULT_VAPID_SUBJECT);
  const identity = { ...keys, subject };
  try {
    // Signs one header now, so a malformed key stops start-up instead of every later send.
    webpush.getVapidHeaders(
      'https://push.invalid',
      identity.subject,
      identity.publicKey,
      identity.privateKey,
      'aes128gcm',
    );
  } catch (error) {
    throw new Error(
      `Invalid VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY / VAPID_SUBJECT: ${(error as Error).message}`,
      { cause: error },
    );
  }
  return identity;
}

/** sent: the push service took it; gone: it answered 404/410, the subscription is dead; failed: anything else (logged, kept). */
type SendOutcome =
  | { outcome: 'sent' }
  | { outcome: 'gone'; status: number }
  | { outcome: 'failed'; status?: number; error?: unknown };

export interface PushSender {
  send(
    destination: Destination,
    notification: PushNotification,
    options: { ttlSeconds: number },
  ): Promise<SendOutcome>;
}

export function createPushSender({
  vapid,
  timeoutMs,
  isAllowedEndpoint,
}: {
  vapid: VapidIdentity;
  timeoutMs: number;
  /** Checked again before each request: a row saved under another allow-list is never requested (it is deactivated as gone). */
  isAllowedEndpoint: (endpoint: string) => boolean;
}): PushSender {
  return {
    async send(destination, notification, { ttlSeconds }) {
      if (!isAllowedEndpoint(destination.endpoint)) return { outcome: 'gone', status: 0 };
      let status: number | undefined;
      try {
        const request = webpush.generateRequestDetails(
          {
            endpoint: destination.endpoint,
            keys: { p256dh: destination.p256dh, auth: destination.auth },
          },
          JSON.stringify(notification),
          { vapidDetails: vapid, TTL: ttlSeconds, contentEncoding: 'aes128gcm' },
        );
        const headers = Object.fromEntries(
          Object.entries(request.headers)
            // fetch sets Content-Length from the body itself.
            .filter(([name]) => name.toLowerCase() !== 'content-length')
            .map(([name, value]) => [name, String(value)]),
        );
        const response = await fetch(request.endpoint, {
          method: request.method,
          headers,
          body: request.body ? new Uint8Array(request.body) : undefined,
          redirect: 'error',
          signal: AbortSignal.timeout(timeoutMs),
        });
        status = response.status;
        // The body says nothing we act on; read it so the connection can be reused.
        await response.arrayBuffer().catch(() => undefined);
        if (response.ok) return { outcome: 'sent' };
        if (status === 404 || status === 410) return { outcome: 'gone', status };
        return { outcome: 'failed', status };
      } catch (error) {
        return { outcome: 'failed', status, error };
      }
    },
  };
}
