import { signedOutError } from '../data/api-client';
import {
  dismissDisputeMutator,
  disputeResolutionMutator,
  reResolveBetMutator,
  undoResolutionMutator,
} from '../data/fair-resolution-mutators';
import { localData as defaultLocalData, type LocalData } from '../data/local-data';
import { sessionStore } from '../data/session';
import type { SessionStore } from '../data/session-store';

// The writes of fair resolution the bet page calls: each runs its named mutator
// through the outbox (data/fair-resolution-mutators.ts), shows at once, and is sent now or when
// the network returns. A refusal rejects with the server's message (the screen shows it).

export interface FairResolutionActionsDeps {
  session?: Pick<SessionStore, 'user'>;
  local?: Pick<LocalData, 'run'>;
}

/** Sent, or queued until the network returns (the outbox's toast has said so). */
export type FairWriteStatus = 'sent' | 'queued';

export function createFairResolutionActions({
  session = sessionStore,
  local = defaultLocalData,
}: FairResolutionActionsDeps = {}) {
  const requireUser = () => {
    if (!session.user) throw signedOutError();
  };

  return {
    /** POST /bets/{id}/undo-resolution. */
    async undoResolution(betId: number): Promise<FairWriteStatus> {
      requireUser();
      const result = await local.run(undoResolutionMutator, { betId });
      return result.status;
    },
    /** POST /bets/{id}/dispute. */
    async disputeResolution(betId: number, reason: string): Promise<FairWriteStatus> {
      requireUser();
      const result = await local.run(disputeResolutionMutator, { betId, reason });
      return result.status;
    },
    /** POST /bets/{id}/dispute/dismiss. */
    async dismissDispute(betId: number): Promise<FairWriteStatus> {
      requireUser();
      const result = await local.run(dismissDisputeMutator, { betId });
      return result.status;
    },
    /** PUT /bets/{id}/re-resolve. */
    async reResolveBet(betId: number, correctAnswer: string): Promise<FairWriteStatus> {
      requireUser();
      const result = await local.run(reResolveBetMutator, { betId, correctAnswer });
      return result.status;
    },
  };
}

const defaultActions = createFairResolutionActions();
export const { undoResolution, disputeResolution, dismissDispute, reResolveBet } = defaultActions;
