import { isBettingOpen, type TimedBet } from './fair-resolution';

// A bet's public link (docs/groups-and-bets.md, "Sharing a bet"): /s/<token> opens that one bet,
// read-only, for anyone holding the link. What the page may say is decided here, by the same
// rules the game uses: the result and who called it only once the bet is resolved.

/** The path of a shared bet's public page. */
export const SHARED_BET_PATH = '/s';

/** The shared bet's public page for `token`. */
export const sharedBetPath = (token: string) => `${SHARED_BET_PATH}/${encodeURIComponent(token)}`;

/** A share token: 22 base64url characters (128 random bits). */
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** What an outsider is told of a bet's state: open for picks, closed to them, resolved or cancelled. */
export const PUBLIC_BET_STATES = ['open', 'closed', 'resolved', 'cancelled'] as const;
export type PublicBetState = (typeof PUBLIC_BET_STATES)[number];

export const PUBLIC_BET_STATE_LABELS: Record<PublicBetState, string> = {
  open: 'Open',
  closed: 'Closed',
  resolved: 'Resolved',
  cancelled: 'Cancelled',
};

/** The public state of a bet at `now` (an expired bet waiting for its result is closed). */
export function publicBetStateOf(bet: TimedBet, now: number): PublicBetState {
  if (bet.state === 'resolved') return 'resolved';
  if (bet.state === 'cancelled') return 'cancelled';
  return isBettingOpen(bet, now) ? 'open' : 'closed';
}
