import { and, desc, eq } from 'drizzle-orm';
import { readRoundList } from '../../domain/fixtures';
import {
  firstKickoffOf,
  hasRoundStarted,
  isRoundInSeason,
  runningTotal,
} from '../../domain/rounds';
import { DEFAULT_SCORING, type ScoringTable } from '../../domain/score-tips';
import { type CreateRoundRequest, type Round, type RoundList } from '../../domain/schemas/rounds';
import type { AuthUser } from '../auth/tokens';
import type { Database, Executor } from '../db/connect';
import { roundMatches, rounds, type RoundRow } from '../db/rounds-schema';
import { seasons } from '../db/seasons-schema';
import type { BetRow } from '../db/schema';
import { notFound, roundStarted, validationFailed } from '../errors';
import type { EventBus } from '../events';
import { betCreatedPayload, openBet } from '../bets/bet-repeats';
import { requireGroupAccess } from '../groups/group-access';
import { listActiveMemberIds } from '../groups/membership-queries';
import { findRound, listGroupRounds, presentRound, scoreRounds, scoringOf } from './round-data';

// Tipping rounds (docs/rules.md "Tipping rounds", docs/groups-and-bets.md "Tipping rounds"):
// an admin creates a round from a fixture list, each match a score-tip bet of the group made in
// the same transaction (all or nothing); tips are those bets' wagers, results their
// resolutions. Who may create it and change its scoring is decided under the group's lock.

export interface RoundsServiceDeps {
  db: Database;
  events: EventBus;
  now?: () => Date;
}

export type RoundsService = ReturnType<typeof createRoundsService>;

type CreateRoundInput = Omit<CreateRoundRequest, 'timeZone' | 'closeMinutesBefore'> & {
  timeZone: string;
  closeMinutesBefore: number;
};

const roundNotFound = () => notFound('Round');

/** The scoring a new round takes when none is given: the group's last round's, else Kicktipp's. */
async function groupScoring(tx: Executor, groupId: number): Promise<ScoringTable> {
  const [last] = await tx
    .select()
    .from(rounds)
    .where(eq(rounds.groupId, groupId))
    .orderBy(desc(rounds.id))
    .limit(1);
  return last ? scoringOf(last) : DEFAULT_SCORING;
}

export function createRoundsService({ db, events, now = () => new Date() }: RoundsServiceDeps) {
  async function readRound(tx: Executor, round: RoundRow): Promise<Round> {
    const players = await listActiveMemberIds(tx, round.groupId);
    const [scored] = await scoreRounds(tx, [round], players);
    return presentRound(scored!);
  }

  return {
    /** POST /groups/{id}/rounds: a list with a bad line is refused whole (400, naming line and field). */
    async createRound(caller: AuthUser, groupId: number, input: CreateRoundInput): Promise<Round> {
      const at = now();
      const list = readRoundList(input, at.getTime());
      if (!list.ok)
        throw validationFailed(list.problem.message, { [list.inputField]: list.problem.message });
      const { round, created } = await db.transaction(async (tx) => {
        await requireGroupAccess(tx, { userId: caller.id, groupId, permission: 'manageRounds' });
        const scoring = input.scoring ?? (await groupScoring(tx, groupId));
        const [row] = await tx
          .insert(rounds)
          .values({
            groupId,
            name: input.name,
            createdBy: caller.id,
            scoringExact: scoring.exact,
            scoringDifference: scoring.difference,
            scoringTendency: scoring.tendency,
            closeMinutes: input.closeMinutesBefore,
            createdAt: at,
          })
          .returning();
        const made: BetRow[] = [];
        for (const [position, fixture] of list.fixtures.entries()) {
          // Never null: a match is no slot of a repeating series.
          const bet = (await openBet(
            tx,
            {
              groupId,
              title: `${fixture.home} – ${fixture.away}`,
              description: input.name,
              expiresAt: new Date(fixture.closesAt),
              // Unused: a score tip stakes nothing; the column wants a positive base.
              baseWagerAmount: 1,
              betType: 'score_tip',
              betTypeConfig: { home: fixture.home, away: fixture.away },
              createdBy: caller.id,
            },
            at,
          ))!;
          await tx.insert(roundMatches).values({
            roundId: row!.id,
            betId: bet.id,
            position,
            home: fixture.home,
            away: fixture.away,
            kickoff: new Date(fixture.kickoff),
            providerMatchId: fixture.providerMatchId,
          });
          made.push(bet);
        }
        return { round: await readRound(tx, row!), created: made };
      });
      for (const bet of created)
        events.publish('betCreated', betCreatedPayload(bet), { groupId: bet.groupId });
      return round;
    },

    /** GET /groups/{id}/rounds/{roundId}: the round, its matches and its table. */
    async getRound(caller: AuthUser, groupId: number, roundId: number): Promise<Round> {
      await requireGroupAccess(db, { userId: caller.id, groupId, permission: 'read' });
      const round = await findRound(db, groupId, roundId);
      if (!round) throw roundNotFound();
      return readRound(db, round);
    },

    /**
     * GET /groups/{id}/rounds: the rounds, newest first, and the season's running total (the
     * running season's rounds; with none running, all of them).
     */
    async listRounds(caller: AuthUser, groupId: number): Promise<RoundList> {
      await requireGroupAccess(db, { userId: caller.id, groupId, permission: 'read' });
      const rows = await listGroupRounds(db, groupId);
      const scored = await scoreRounds(db, rows, await listActiveMemberIds(db, groupId));
      const [season] = await db
        .select({ startsAt: seasons.startsAt, endsAt: seasons.endsAt })
        .from(seasons)
        .where(and(eq(seasons.groupId, groupId), eq(seasons.state, 'active')))
        .limit(1);
      return {
        rounds: scored.map(({ round, matches, winners }) => ({
          id: round.id,
          name: round.name,
          firstKickoff: firstKickoffOf(matches)?.toISOString() ?? null,
          matchCount: matches.length,
          matchdayWinners: winners,
        })),
        totals: runningTotal(
          scored
            .filter(({ matches }) => isRoundInSeason(firstKickoffOf(matches), season))
            .map(({ table }) => table),
        ),
      };
    },

    /** PATCH /groups/{id}/rounds/{roundId}: an admin changes the scoring before the first kick-off (422 after). */
    async updateScoring(
      caller: AuthUser,
      groupId: number,
      roundId: number,
      scoring: ScoringTable,
    ): Promise<Round> {
      const at = now();
      return db.transaction(async (tx) => {
        await requireGroupAccess(tx, { userId: caller.id, groupId, permission: 'manageRounds' });
        const round = await findRound(tx, groupId, roundId, 'update');
        if (!round) throw roundNotFound();
        const kickoffs = await tx
          .select({ kickoff: roundMatches.kickoff })
          .from(roundMatches)
          .where(eq(roundMatches.roundId, round.id));
        if (hasRoundStarted(kickoffs, at.getTime())) throw roundStarted();
        const [updated] = await tx
          .update(rounds)
          .set({
            scoringExact: scoring.exact,
            scoringDifference: scoring.difference,
            scoringTendency: scoring.tendency,
          })
          .where(eq(rounds.id, round.id))
          .returning();
        return readRound(tx, updated!);
      });
    },
  };
}
