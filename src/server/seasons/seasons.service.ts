import { eq } from 'drizzle-orm';
import {
  endsAtProblem,
  type Season,
  type SeasonList,
  type StartSeasonRequest,
} from '../../domain/seasons';
import type { AuthUser } from '../auth/tokens';
import type { Database } from '../db/connect';
import { seasons, type SeasonRow } from '../db/schema';
import { notFound, seasonActive, seasonOver, validationFailed } from '../errors';
import type { EventBus } from '../events';
import { requireGroupAccess } from '../groups/group-access';
import { announceNotifications } from '../notifications/notification.recorder';
import {
  endSeason,
  type EndedSeason,
  listSeasons,
  lockActiveSeason,
  presentSeason,
  readStandings,
} from './season-data';

// POST /groups/{id}/seasons, GET /groups/{id}/seasons and POST /groups/{id}/seasons/{seasonId}/end.
// Each change runs in one transaction and announces itself to the group once committed.

export interface SeasonsServiceDeps {
  db: Database;
  events: EventBus;
  now?: () => Date;
}

export type SeasonsService = ReturnType<typeof createSeasonsService>;

/** Tells the group's open pages that a season started or ended (they pull it). */
function announceSeason(events: EventBus, event: 'seasonStarted' | 'seasonEnded', row: SeasonRow) {
  events.publish(
    event,
    { groupId: row.groupId, seasonId: row.id, name: row.name, version: row.version },
    { groupId: row.groupId },
  );
}

/** After the commit: the season's end to the group, each member's inbox entry to them (and push). */
export function announceSeasonEnded(events: EventBus, ended: EndedSeason) {
  announceSeason(events, 'seasonEnded', ended.row);
  announceNotifications(events, ended.notices);
}

export function createSeasonsService({ db, events, now = () => new Date() }: SeasonsServiceDeps) {
  return {
    /** An admin starts a season; one whose end date passed while the job had not run yet ends first. */
    async startSeason(
      caller: AuthUser,
      groupId: number,
      input: StartSeasonRequest,
    ): Promise<Season> {
      const at = now();
      const endsAt = new Date(input.endsAt);
      const problem = endsAtProblem(endsAt, at);
      if (problem) throw validationFailed(problem, { endsAt: problem });
      const { ended, started } = await db.transaction(async (tx) => {
        // Locks the group's row (NO KEY UPDATE) before deciding: starts in one group take turns,
        // so "at most one running" is checked, not raced. Not FOR UPDATE: the seasons job, ending
        // a season, inserts inbox entries naming the group (a foreign key, so a KEY SHARE lock
        // on its row) while it holds the season this start waits for; the two would deadlock.
        await requireGroupAccess(tx, { userId: caller.id, groupId, permission: 'manageSeasons' });
        const running = await lockActiveSeason(tx, groupId);
        if (running && running.endsAt.getTime() > at.getTime()) throw seasonActive();
        const ended = running ? await endSeason(tx, running, at) : undefined;
        const [started] = await tx
          .insert(seasons)
          .values({
            groupId,
            name: input.name.trim(),
            startsAt: at,
            endsAt,
            resetPoints: input.resetPoints ?? false,
            createdBy: caller.id,
          })
          .returning();
        return { ended, started: started! };
      });
      if (ended) announceSeasonEnded(events, ended);
      announceSeason(events, 'seasonStarted', started);
      return presentSeason(started, []);
    },

    /** The group's seasons, running and archived, by the group's read rule (as its leaderboard). */
    async listSeasons(caller: AuthUser, groupId: number): Promise<SeasonList> {
      await requireGroupAccess(db, { userId: caller.id, groupId, permission: 'read' });
      return { seasons: await listSeasons(db, groupId) };
    },

    /** An admin ends the running season now: standings archived, points reset if chosen. */
    async endSeasonNow(caller: AuthUser, groupId: number, seasonId: number): Promise<Season> {
      const { ended, standings } = await db.transaction(async (tx) => {
        await requireGroupAccess(tx, { userId: caller.id, groupId, permission: 'manageSeasons' });
        const [season] = await tx
          .select()
          .from(seasons)
          .where(eq(seasons.id, seasonId))
          .limit(1)
          .for('update');
        if (!season || season.groupId !== groupId) throw notFound('Season');
        if (season.state !== 'active') throw seasonOver();
        const ended = await endSeason(tx, season, now());
        const standings = await readStandings(tx, [ended.row.id]);
        return { ended, standings: standings.get(ended.row.id) ?? [] };
      });
      announceSeasonEnded(events, ended);
      return presentSeason(ended.row, standings);
    },
  };
}
