import { isApiTokenExpired } from '../../domain/api-tokens';

// The dates of Profile → API tokens: made, and when a token stops working ("28 Dec 2026").

export const tokenDateText = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });

export const TOKEN_EXPIRY_TEXT = {
  never: 'No expiry',
  expires: (date: string) => `Expires ${date}`,
  expired: (date: string) => `Expired ${date}`,
};

/** "Expires 28 Dec 2026", "Expired 28 Nov 2026" or "No expiry", at `now` (ms). */
export function tokenExpiryText(expiresAt: string | null, now: number): string {
  if (expiresAt === null) return TOKEN_EXPIRY_TEXT.never;
  const date = tokenDateText(expiresAt);
  return isApiTokenExpired(expiresAt, now)
    ? TOKEN_EXPIRY_TEXT.expired(date)
    : TOKEN_EXPIRY_TEXT.expires(date);
}
