import { readRoundList } from '../../domain/fixtures';
import { DEFAULT_SCORING, type ScoringTable } from '../../domain/score-tips';
import type { MirrorRound } from '../../domain/rounds';
import type { CreateRoundRequest, Round } from '../../domain/schemas/rounds';
import type { RoundRow } from './db';
import type { Mutator, MutatorContext } from './mutators';

// Tipping rounds' writes as named mutators (data/mutators.ts): a new round shows at once with its
// matches (read from the list by the rule the server reads it with), a new scoring table at once;
// the matches' bets, which tips go on, come with the pull that follows the answer. Tips are
// wagers (bet-mutators.ts placeWager / updateWager).

export interface CreateRoundArgs {
  tempId: number;
  groupId: number;
  request: CreateRoundRequest;
}

/** The scoring a new round shows before the server answers: the group's last round's, else 4/3/2. */
async function scoringShown(context: MutatorContext, groupId: number) {
  const rounds = await context.db.rounds.where('groupId').equals(groupId).toArray();
  const last = rounds.filter((round) => round.id > 0).sort((a, b) => b.id - a.id)[0];
  return last?.scoring ?? DEFAULT_SCORING;
}

export const createRoundMutator: Mutator<CreateRoundArgs, Round> = {
  name: 'createRound',
  texts: {
    queued: "You're offline. The round will be created when you're back.",
    refused: "The round wasn't created. Please try again.",
    label: 'New round',
  },
  describe: ({ request }) => request.name,
  push: ({ groupId, request }) => ({ params: { id: groupId }, body: request }),
  async apply({ tempId, groupId, request }, context) {
    const id = context.idFor(tempId);
    if (id > 0 && (await context.db.rounds.get(id))) return;
    const list = readRoundList(
      {
        ...request,
        timeZone: request.timeZone ?? 'UTC',
        closeMinutesBefore: request.closeMinutesBefore ?? 0,
      },
      Date.parse(context.now),
    );
    const row: MirrorRound = {
      id,
      groupId: context.idFor(groupId),
      name: request.name.trim(),
      createdBy: context.userId,
      createdAt: context.now,
      closeMinutesBefore: request.closeMinutesBefore ?? 0,
      scoring: request.scoring ?? (await scoringShown(context, groupId)),
      // No bets yet: tips open once the server has made them (betId 0 until then).
      matches: list.ok
        ? list.fixtures.map((fixture) => ({
            betId: 0,
            home: fixture.home,
            away: fixture.away,
            kickoff: fixture.kickoff,
            closesAt: fixture.closesAt,
          }))
        : [],
      version: 0,
    };
    await context.put('rounds', row);
  },
  numbered: ({ tempId }, round) => [tempId, round.id],
};

export interface UpdateRoundArgs {
  groupId: number;
  roundId: number;
  scoring: ScoringTable;
}

export const updateRoundMutator: Mutator<UpdateRoundArgs, Round> = {
  name: 'updateRound',
  texts: {
    queued: "You're offline. The new points will be saved when you're back.",
    refused: "The points weren't changed. Please try again.",
    label: 'Round points',
  },
  push: ({ groupId, roundId, scoring }) => ({
    params: { id: groupId, roundId },
    body: { scoring },
  }),
  async apply({ roundId, scoring }, context) {
    const round: RoundRow | undefined = await context.db.rounds.get(context.idFor(roundId));
    if (round) await context.put('rounds', { ...round, scoring });
  },
};

export const ROUND_MUTATORS = [createRoundMutator, updateRoundMutator] as const;
