import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { discordMessage, slackMessage, summarizeWebhookEvent } from './webhook-messages';
import type { WebhookEvent } from '../../domain/schemas/webhook-events';
import { webhookFormatOf, WEBHOOK_LIMITS } from '../../domain/webhooks';
import type { PushEndpointRule } from '../push-endpoints';
import type { GroupWebhookRow, WebhookDeliveryRow } from '../db/webhooks-schema';
import { withLinkOrigin } from './webhook-payloads';
import { webhookSignatureHeader } from './webhook-signing';
import { resolveWebhookDestination, type AddressLookup } from './webhook-urls';

// One try of one delivery: the body in the hook's format (signed JSON, or Discord's or
// Slack's message), Standard Webhooks headers on every format (a chat ignores them), one POST
// to the checked address, 5 s in all, redirects not followed (a 3xx is a failure), the body
// of the answer not read past its status.

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export type SendOutcome =
  { status: number; error: string | null } | { status: null; error: string };

/** The request a delivery makes now (the timestamp is the try's, as the specification has it). */
export function webhookRequestOf(
  hook: Pick<GroupWebhookRow, 'url' | 'secret' | 'previousSecret' | 'previousSecretUntil'>,
  delivery: Pick<WebhookDeliveryRow, 'eventId' | 'body'>,
  origin: string,
  now: Date,
): WebhookRequest {
  const event = withLinkOrigin(JSON.parse(delivery.body) as WebhookEvent, origin);
  const format = webhookFormatOf(hook.url);
  let url = hook.url;
  let body: string;
  if (format === 'standard') body = JSON.stringify(event);
  else {
    const summary = summarizeWebhookEvent(event);
    if (format === 'discord') {
      // Discord drops components (the link button) sent to a channel's webhook without it.
      const withComponents = new URL(hook.url);
      withComponents.searchParams.set('with_components', 'true');
      url = withComponents.toString();
      body = JSON.stringify(discordMessage(summary));
    } else body = JSON.stringify(slackMessage(summary));
  }
  const timestamp = Math.floor(now.getTime() / 1000);
  const secrets =
    hook.previousSecret && hook.previousSecretUntil && hook.previousSecretUntil > now
      ? [hook.secret, hook.previousSecret]
      : [hook.secret];
  return {
    url,
    body,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Hunch-Webhooks/1',
      'webhook-id': delivery.eventId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': webhookSignatureHeader(secrets, delivery.eventId, timestamp, body),
    },
  };
}

export interface WebhookPostOptions {
  rules: readonly PushEndpointRule[];
  timeoutMs?: number;
  lookup?: AddressLookup;
}

/** POSTs the request to its checked address; the receiver's status, or why there is none. */
export async function postWebhook(
  request: WebhookRequest,
  options: WebhookPostOptions,
): Promise<SendOutcome> {
  const destination = await resolveWebhookDestination(request.url, options.rules, options.lookup);
  if ('refusal' in destination) return { status: null, error: destination.refusal };
  const url = new URL(request.url);
  // The connection goes to the address checked above, never to a second lookup's answer.
  const pinned: LookupFunction = (_host, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [destination]);
    else callback(null, destination.address, destination.family);
  };
  const send = url.protocol === 'https:' ? https.request : http.request;
  const timeoutMs = options.timeoutMs ?? WEBHOOK_LIMITS.timeoutMs;
  return new Promise<SendOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: SendOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const req = send(
      url,
      {
        method: 'POST',
        headers: { ...request.headers, 'content-length': Buffer.byteLength(request.body) },
        lookup: pinned,
        agent: false,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        res.resume();
        res.on('error', () => undefined);
        req.destroy();
        if (status >= 200 && status < 300) finish({ status, error: null });
        else if (status >= 300 && status < 400) finish({ status, error: 'redirect not followed' });
        else finish({ status, error: `answered ${status}` });
      },
    );
    // The whole try, connect to answer: a receiver that holds the connection fails at 5 s.
    const timer = setTimeout(() => {
      req.destroy();
      finish({ status: null, error: 'timed out' });
    }, timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) =>
      finish({
        status: null,
        error: error.code ? `connection failed (${error.code})` : 'connection failed',
      }),
    );
    req.end(request.body);
  });
}
