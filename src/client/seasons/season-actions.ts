import type { StartSeasonRequest } from '../../domain/seasons';
import { signedOutError } from '../data/api-client';
import { localData } from '../data/local-data';
import { endSeasonMutator, startSeasonMutator } from '../data/season-mutators';
import { sessionStore } from '../data/session';

// The seasons' writes, through the outbox's named mutators (data/season-mutators.ts): shown at
// once, sent now or when the network returns (the outbox says so). A refusal rejects with the
// server's message.

export async function startSeason(groupId: number, request: StartSeasonRequest): Promise<void> {
  if (!sessionStore.user) throw signedOutError();
  const tempId = localData.outbox.tempId();
  await localData.run(startSeasonMutator, { tempId, groupId, request });
}

export async function endSeason(groupId: number, seasonId: number): Promise<void> {
  if (!sessionStore.user) throw signedOutError();
  await localData.run(endSeasonMutator, { groupId, seasonId });
}
