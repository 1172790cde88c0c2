import { API_BASE } from '../../domain/constants';
import type { BetShare, SharedBet } from '../../domain/schemas/bet-shares';
import { api } from './session';

// A bet's public link (docs/groups-and-bets.md, "Sharing a bet"). Asked straight of the server,
// not queued in the outbox: the link is wanted now, to be sent, and Share needs a connection.

/** The bet's live link, made if it has none. */
export function shareBet(betId: number): Promise<BetShare> {
  return api.post<BetShare>(`${API_BASE}/bets/${betId}/share`);
}

/** Turns the bet's live link off (its sharer or an admin). */
export function stopSharingBet(betId: number): Promise<BetShare> {
  return api.delete<BetShare>(`${API_BASE}/bets/${betId}/share`);
}

/** The one bet a shared link opens, as anyone may read it. */
export function fetchSharedBet(token: string): Promise<SharedBet> {
  return api.get<SharedBet>(`${API_BASE}/shared-bets/${encodeURIComponent(token)}`, {
    auth: false,
  });
}
