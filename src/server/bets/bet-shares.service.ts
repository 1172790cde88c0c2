import { randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { answerLabel } from '../../domain/bet-types';
import { publicBetStateOf } from '../../domain/bet-shares';
import type { BetShare, BetShareLink, SharedBet } from '../../domain/schemas/bet-shares';
import { isShareToken } from '../../domain/schemas/bet-shares';
import { resolvedBetCardOf } from '../../domain/share-cards';
import type { AuthUser } from '../auth/tokens';
import type { Database, Executor } from '../db/connect';
import { bets, groups, users } from '../db/schema';
import { betShareLinks } from '../db/share-schema';
import { shareLinkNotFound, shareLinkTurnedOff } from '../errors';
import { lockGroup } from '../groups/group-access';
import { isoTime } from '../iso-time';
import { requireBetAction } from './bet-access';
import { findBet, loadPicks } from './bet-queries';

// A bet's public link (docs/groups-and-bets.md, "Sharing a bet"). Share makes the bet's one live
// link, or answers the one a member already made; "Stop sharing" turns it off (its sharer or an
// admin: the bet policy's `mayShare` and `mayStopSharing`, asked inside the write's transaction
// after the link's row lock). The public read gives anyone holding a live token that one bet's
// question and state, and its result and who called it only once resolved: never its picks
// while hidden, another bet, or the group's invite code.

export interface BetSharesServiceDeps {
  db: Database;
  now?: () => Date;
}

/** 128 random bits, base64url: 22 characters (SHARE_TOKEN_PATTERN). */
const newShareToken = () => randomBytes(16).toString('base64url');

const linkColumns = {
  id: betShareLinks.id,
  token: betShareLinks.token,
  sharedBy: betShareLinks.sharedBy,
  sharedByName: users.displayName,
  createdAt: betShareLinks.createdAt,
};

/** The bet's live link with its sharer's name, locked FOR UPDATE when asked; undefined when none. */
async function findLiveLink(tx: Executor, betId: number, lock: boolean) {
  const query = tx
    .select(linkColumns)
    .from(betShareLinks)
    .leftJoin(users, eq(users.id, betShareLinks.sharedBy))
    .where(and(eq(betShareLinks.betId, betId), isNull(betShareLinks.revokedAt)))
    .limit(1);
  const [row] = lock ? await query.for('update', { of: betShareLinks }) : await query;
  return row;
}

function presentLink(row: NonNullable<Awaited<ReturnType<typeof findLiveLink>>>): BetShareLink {
  return {
    token: row.token,
    sharedBy: row.sharedBy,
    sharedByName: row.sharedByName,
    createdAt: isoTime(row.createdAt),
  };
}

export type BetSharesService = ReturnType<typeof createBetSharesService>;

export function createBetSharesService({ db, now = () => new Date() }: BetSharesServiceDeps) {
  return {
    /** The bet's live link, made if it has none: any current member of its group. */
    async shareBet(caller: AuthUser, betId: number): Promise<BetShare> {
      return db.transaction(async (tx) => {
        const bet = await findBet(tx, betId);
        // Membership is read under the group's lock: a removal that answered holds.
        await lockGroup(tx, bet.groupId, 'share');
        await requireBetAction(tx, { userId: caller.id, bet, action: 'share', now: now() });
        const live = await findLiveLink(tx, betId, false);
        if (live) return { betId, link: presentLink(live) };
        // Two members sharing at once: the partial unique index keeps one; both answer it.
        await tx
          .insert(betShareLinks)
          .values({ token: newShareToken(), betId, sharedBy: caller.id })
          .onConflictDoNothing();
        const made = await findLiveLink(tx, betId, false);
        return { betId, link: made ? presentLink(made) : null };
      });
    },

    /** Turns the bet's live link off: its sharer or an admin. With none live, nothing changes. */
    async stopSharingBet(caller: AuthUser, betId: number): Promise<BetShare> {
      return db.transaction(async (tx) => {
        const bet = await findBet(tx, betId);
        await lockGroup(tx, bet.groupId, 'share');
        const live = await findLiveLink(tx, betId, true);
        const at = now();
        if (!live) {
          await requireBetAction(tx, { userId: caller.id, bet, action: 'share', now: at });
          return { betId, link: null };
        }
        await requireBetAction(tx, {
          userId: caller.id,
          bet,
          action: 'stopSharing',
          sharedBy: live.sharedBy,
          now: at,
        });
        await tx
          .update(betShareLinks)
          .set({ revokedAt: at, revokedBy: caller.id })
          .where(eq(betShareLinks.id, live.id));
        return { betId, link: null };
      });
    },

    /** What the link's page shows anyone: 404 for a token never made, 410 once turned off. */
    async readSharedBet(token: string): Promise<SharedBet> {
      if (!isShareToken(token)) throw shareLinkNotFound();
      return db.transaction(
        async (tx) => {
          const [found] = await tx
            .select({ revokedAt: betShareLinks.revokedAt, bet: bets, group: groups })
            .from(betShareLinks)
            .innerJoin(bets, eq(bets.id, betShareLinks.betId))
            .innerJoin(groups, eq(groups.id, bets.groupId))
            .where(eq(betShareLinks.token, token))
            .limit(1);
          if (!found) throw shareLinkNotFound();
          if (found.revokedAt) throw shareLinkTurnedOff();
          const { bet, group } = found;
          const at = now();
          const state = publicBetStateOf(bet, at.getTime());
          const shared = {
            betId: bet.id,
            title: bet.title,
            state,
            groupId: group.id,
            groupName: group.name,
            isGroupPublic: group.privacy === 'public',
          };
          if (state !== 'resolved' || bet.correctAnswer === null)
            return { ...shared, result: null };
          // Resolved: its picks are revealed to its group (the bet policy's seePicks), and the
          // card says who called it from them; the page shows the card's words, not the picks.
          const picks = (await loadPicks(tx, [bet], at)).get(bet.id) ?? [];
          const card = resolvedBetCardOf({ ...bet, picks }, group.name);
          return {
            ...shared,
            result: {
              answer: answerLabel(bet, bet.correctAnswer),
              headline: card.headline,
              detail: card.detail,
            },
          };
        },
        { accessMode: 'read only' },
      );
    },
  };
}
