import { createHmac, randomBytes } from 'node:crypto';

// Standard Webhooks signatures (docs/integrations.md, "Verifying a delivery"): the secret is
// `whsec_` and the base64 of 32 random bytes; the HMAC key is those bytes (the base64-decoded
// part, as the specification says), the signed content `<webhook-id>.<webhook-timestamp>.<body>`,
// the header `v1,<base64 HMAC-SHA256>`, several of them space-separated while a rotated-out
// secret still signs.

const PREFIX = 'whsec_';

export function newWebhookSecret(): string {
  return `${PREFIX}${randomBytes(32).toString('base64')}`;
}

/** One `v1,…` signature of the message with `secret`. */
export function webhookSignature(
  secret: string,
  eventId: string,
  timestampSeconds: number,
  body: string,
): string {
  const key = Buffer.from(
    secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret,
    'base64',
  );
  const mac = createHmac('sha256', key).update(`${eventId}.${timestampSeconds}.${body}`);
  return `v1,${mac.digest('base64')}`;
}

/** The `webhook-signature` header: one signature per secret still signing, newest first. */
export function webhookSignatureHeader(
  secrets: readonly string[],
  eventId: string,
  timestampSeconds: number,
  body: string,
): string {
  return secrets
    .map((secret) => webhookSignature(secret, eventId, timestampSeconds, body))
    .join(' ');
}
