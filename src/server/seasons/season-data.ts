import { and, asc, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import { DELETED_PLAYER_NAME } from '../../domain/account-data';
import { RESULT_LEDGER_KINDS } from '../../domain/leaderboard-periods';
import {
  namesPhrase,
  seasonStandingsOf,
  type Season,
  type SeasonStanding,
} from '../../domain/seasons';
import type { Executor } from '../db/connect';
import { groups, ledger, seasonStandings, seasons, users, type SeasonRow } from '../db/schema';
import { applyLedgerEvent } from '../groups/ledger-writer';
import { lockGroupMemberships } from '../groups/membership.service';
import { isoTime } from '../iso-time';
import {
  saveNotifications,
  type NotificationEntry,
  type SavedNotification,
} from '../notifications/notification-store';

// What starting, ending and reading a season do in the caller's transaction, shared by the
// routes' service and the seasons job, so a season ends the same way whoever ends it.

/** A season row with its standings, as every caller answers it. */
export function presentSeason(
  row: SeasonRow,
  standings: ReadonlyArray<Season['standings'][number]>,
): Season {
  return {
    id: row.id,
    groupId: row.groupId,
    name: row.name,
    startsAt: isoTime(row.startsAt),
    endsAt: isoTime(row.endsAt),
    resetPoints: row.resetPoints,
    createdBy: row.createdBy,
    state: row.state,
    endedAt: row.endedAt ? isoTime(row.endedAt) : null,
    standings: [...standings],
  };
}

/** The standings of these seasons, by season, each by rank then name. */
export async function readStandings(
  tx: Executor,
  seasonIds: readonly number[],
): Promise<Map<number, Season['standings']>> {
  const bySeason = new Map<number, Season['standings']>();
  if (seasonIds.length === 0) return bySeason;
  const rows = await tx
    .select()
    .from(seasonStandings)
    .where(inArray(seasonStandings.seasonId, [...seasonIds]))
    .orderBy(asc(seasonStandings.rank), asc(seasonStandings.userName), asc(seasonStandings.userId));
  for (const row of rows) {
    const list = bySeason.get(row.seasonId) ?? [];
    list.push({
      userId: row.userId,
      userName: row.userName,
      rank: row.rank,
      points: row.points,
      totalPoints: row.totalPoints,
    });
    bySeason.set(row.seasonId, list);
  }
  return bySeason;
}

/** A group's seasons, the running one first, then the past ones newest first. */
export async function listSeasons(tx: Executor, groupId: number): Promise<Season[]> {
  const rows = await tx
    .select()
    .from(seasons)
    .where(eq(seasons.groupId, groupId))
    .orderBy(sql`${seasons.state} = 'active' desc`, desc(seasons.startsAt), desc(seasons.id));
  const standings = await readStandings(
    tx,
    rows.map((row) => row.id),
  );
  return rows.map((row) => presentSeason(row, standings.get(row.id) ?? []));
}

/** The group's running season, locked for the caller's transaction. */
export async function lockActiveSeason(
  tx: Executor,
  groupId: number,
): Promise<SeasonRow | undefined> {
  const [row] = await tx
    .select()
    .from(seasons)
    .where(and(eq(seasons.groupId, groupId), eq(seasons.state, 'active')))
    .limit(1)
    .for('update');
  return row;
}

/**
 * Ends a running season the caller locked: its standings are what each current member won or
 * lost in it (result entries of the ledger from its start until it ends, at `now` or at its end
 * date if that passed first), written with their names and total points as they are now; then,
 * if chosen, every member's available points go back to the group's starting points (ledger
 * kind season_reset), former members' too: leaving before a reset and joining after it gives
 * back what staying would have, never the old balance. Points held in open wagers are left
 * held: those bets settle as usual later. The group's memberships, former ones included, are
 * locked first (by user id, the one lock order), so no wager, payout or rejoin moves points
 * between the standings and the reset.
 */
/** A season just ended in the caller's transaction, and the inbox entries it wrote (announce both after the commit). */
export interface EndedSeason {
  row: SeasonRow;
  notices: SavedNotification[];
}

export async function endSeason(tx: Executor, season: SeasonRow, now: Date): Promise<EndedSeason> {
  const endedAt = season.endsAt.getTime() < now.getTime() ? season.endsAt : now;
  const everyone = await lockGroupMemberships(tx, season.groupId);
  const members = everyone.filter((member) => member.leftAt === null);
  const names =
    members.length === 0
      ? []
      : await tx
          .select({ userId: users.id, userName: users.displayName })
          .from(users)
          .where(
            inArray(
              users.id,
              members.map((member) => member.userId),
            ),
          );
  const nameOf = new Map(names.map((row) => [row.userId, row.userName]));
  // The season's result entries, summed by the rule a device follows with its mirror's.
  const entries = await tx
    .select({ userId: ledger.userId, totalDelta: ledger.totalDelta, at: ledger.createdAt })
    .from(ledger)
    .where(
      and(
        eq(ledger.groupId, season.groupId),
        inArray(ledger.kind, [...RESULT_LEDGER_KINDS]),
        gte(ledger.createdAt, season.startsAt),
        lt(ledger.createdAt, endedAt),
      ),
    );
  const standings = seasonStandingsOf(
    members.map((member) => ({
      userId: member.userId,
      userName: nameOf.get(member.userId) ?? '',
      totalPoints: member.totalPoints,
    })),
    entries,
    { startsAt: season.startsAt, until: endedAt },
  );
  if (standings.length > 0)
    await tx
      .insert(seasonStandings)
      .values(standings.map((standing) => ({ ...standing, seasonId: season.id })));

  const [group] = await tx
    .select({ name: groups.name, defaultPoints: groups.defaultPoints })
    .from(groups)
    .where(eq(groups.id, season.groupId));
  const startingPoints = group?.defaultPoints ?? 0;
  if (season.resetPoints) {
    for (const member of everyone) {
      const points = startingPoints - member.availablePoints;
      if (points === 0) continue;
      await applyLedgerEvent(tx, {
        groupId: season.groupId,
        userId: member.userId,
        event: { kind: 'season_reset', points },
        now,
      });
    }
  }

  const [ended] = await tx
    .update(seasons)
    .set({ state: 'ended', endedAt })
    .where(eq(seasons.id, season.id))
    .returning();
  const notices = await saveNotifications(
    tx,
    'seasonEnded',
    seasonEndedEntries(ended!, standings, {
      groupName: group?.name ?? 'your group',
      ...(season.resetPoints ? { availablePoints: startingPoints } : {}),
    }),
    now,
  );
  return { row: ended!, notices };
}

/** Who came first, as `recipient` reads it: the others sharing first place, or the winner. */
function winners(first: readonly SeasonStanding[], recipient: number) {
  const others = first.filter((standing) => standing.userId !== recipient);
  if (others.length === 0) return {};
  return {
    winnerName: namesPhrase(others.map((standing) => standing.userName)),
    winnerIds: others.map((standing) => standing.userId),
  };
}

/**
 * Each ranked member's inbox entry: where they finished and who came first. When nobody won or
 * lost a point nobody is ahead, so the entry names no rank.
 */
function seasonEndedEntries(
  season: SeasonRow,
  standings: readonly SeasonStanding[],
  facts: { groupName: string; availablePoints?: number },
): Array<Omit<NotificationEntry, 'kind'>> {
  const anyonePlayed = standings.some((standing) => standing.points !== 0);
  const first = standings.filter((standing) => standing.rank === 1);
  return standings.map((standing) => ({
    userId: standing.userId,
    groupId: season.groupId,
    betId: null,
    eventKey: season.id,
    payload: {
      ...facts,
      seasonName: season.name,
      points: standing.points,
      memberCount: standings.length,
      ...(anyonePlayed ? { rank: standing.rank, ...winners(first, standing.userId) } : {}),
    },
  }));
}

/**
 * A deleted account (auth/account-data.service.ts): the archived standings no longer name it,
 * and its seasons are restamped so every mirror pulls them again.
 */
export async function unnameInStandings(tx: Executor, userId: number): Promise<void> {
  const touched = await tx
    .update(seasonStandings)
    .set({ userName: DELETED_PLAYER_NAME })
    .where(eq(seasonStandings.userId, userId))
    .returning({ seasonId: seasonStandings.seasonId });
  if (touched.length === 0) return;
  await tx
    .update(seasons)
    .set({ version: 0 })
    .where(
      inArray(
        seasons.id,
        touched.map((row) => row.seasonId),
      ),
    );
}
