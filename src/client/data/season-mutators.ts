import type { Season, StartSeasonRequest } from '../../domain/seasons';
import type { Mutator } from './mutators';

// Seasons' writes as named mutators (data/mutators.ts): starting one shows its banner at
// once, ending one marks it ended at once; the standings come with the pull that follows.

export interface StartSeasonArgs {
  tempId: number;
  groupId: number;
  request: StartSeasonRequest;
}

export const startSeasonMutator: Mutator<StartSeasonArgs, Season> = {
  name: 'startSeason',
  texts: {
    queued: "You're offline. The season will start when you're back.",
    refused: "The season didn't start. Please try again.",
    label: 'New season',
  },
  describe: ({ request }) => request.name,
  push: ({ groupId, request }) => ({ params: { id: groupId }, body: request }),
  async apply({ tempId, groupId, request }, context) {
    const id = context.idFor(tempId);
    if (id > 0 && (await context.db.seasons.get(id))) return;
    const row: Season = {
      id,
      groupId: context.idFor(groupId),
      name: request.name.trim(),
      startsAt: context.now,
      endsAt: request.endsAt,
      resetPoints: request.resetPoints ?? false,
      createdBy: context.userId,
      state: 'active',
      endedAt: null,
      standings: [],
    };
    await context.put('seasons', row);
  },
  numbered: ({ tempId }, season) => [tempId, season.id],
};

export interface EndSeasonArgs {
  groupId: number;
  seasonId: number;
}

export const endSeasonMutator: Mutator<EndSeasonArgs, Season> = {
  name: 'endSeason',
  texts: {
    queued: "You're offline. The season will end when you're back.",
    refused: "The season didn't end. Please try again.",
    label: 'Ending a season',
  },
  push: ({ groupId, seasonId }) => ({ params: { id: groupId, seasonId } }),
  async apply({ seasonId }, context) {
    const season = await context.db.seasons.get(context.idFor(seasonId));
    if (season?.state === 'active')
      await context.put('seasons', { ...season, state: 'ended', endedAt: context.now });
  },
};

export const SEASON_MUTATORS = [startSeasonMutator, endSeasonMutator] as const;
