import type { StartSeasonRequest } from '../../domain/seasons';
import { signedOutError } from '../data/api-client';
import { localData } from '../data/local-data';
import { OUTBOX_TEXT } from '../data/outbox';
import { endSeasonMutator, startSeasonMutator } from '../data/season-mutators';
import { sessionStore } from '../data/session';
import { toast } from '../shell/toast-store';

// The seasons' writes, through the outbox's named mutators (data/season-mutators.ts): shown at
// once, sent now or when the network returns. A refusal rejects with the server's message.

export async function startSeason(groupId: number, request: StartSeasonRequest): Promise<void> {
  if (!sessionStore.user) throw signedOutError();
  const tempId = localData.outbox.tempId();
  const result = await localData.run(startSeasonMutator, { tempId, groupId, request });
  if (result.status === 'queued') toast.info(OUTBOX_TEXT.queued.startSeason);
}

export async function endSeason(groupId: number, seasonId: number): Promise<void> {
  if (!sessionStore.user) throw signedOutError();
  const result = await localData.run(endSeasonMutator, { groupId, seasonId });
  if (result.status === 'queued') toast.info(OUTBOX_TEXT.queued.endSeason);
}
