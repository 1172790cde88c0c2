import type { ScoringTable } from '../../domain/score-tips';
import type { CreateRoundRequest } from '../../domain/schemas/rounds';
import { refusalText, signedOutError } from '../data/api-client';
import { placeWagerMutator, updateWagerMutator } from '../data/bet-mutators';
import { db } from '../data/db';
import { localData } from '../data/local-data';
import { createRoundMutator, updateRoundMutator } from '../data/round-mutators';
import { sessionStore } from '../data/session';

// The rounds' writes, through the outbox's named mutators: a round (data/round-mutators.ts), and
// a whole round's tips at once, each a 0-point wager on its match's bet (data/bet-mutators.ts),
// so each is sent once, offline too, and a match that kicked off meanwhile refuses its own tip
// alone (the outbox says so). A refusal rejects with the server's message.

export async function createRound(groupId: number, request: CreateRoundRequest): Promise<void> {
  if (!sessionStore.user) throw signedOutError();
  const tempId = localData.outbox.tempId();
  await localData.run(createRoundMutator, { tempId, groupId, request });
}

/** An admin's new points for a round, before its first kick-off (the server refuses after). */
export async function updateScoring(
  groupId: number,
  roundId: number,
  scoring: ScoringTable,
): Promise<void> {
  if (!sessionStore.user) throw signedOutError();
  await localData.run(updateRoundMutator, { groupId, roundId, scoring });
}

export type TipInput = { betId: number; prediction: string };

/** Saves every changed tip; answers the refusals' texts (none: all saved or queued). */
export async function saveTips(tips: readonly TipInput[]): Promise<string[]> {
  const user = sessionStore.user;
  if (!user) throw signedOutError();
  const sent = await Promise.allSettled(
    tips.map(async ({ betId, prediction }) => {
      const mine = await db.wagers.where('[betId+userId]').equals([betId, user.id]).first();
      if (mine?.prediction === prediction) return;
      if (mine)
        await localData.run(updateWagerMutator, { wagerId: mine.id, betId, prediction, points: 0 });
      else
        await localData.run(placeWagerMutator, {
          betId,
          prediction,
          points: 0,
          tempId: localData.outbox.tempId(),
        });
    }),
  );
  return sent.flatMap((result) =>
    result.status === 'rejected' ? [refusalText(result.reason)] : [],
  );
}
