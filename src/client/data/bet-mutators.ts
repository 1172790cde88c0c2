import { betTypeRulesOf, normalizeAnswer } from '../../domain/bet-types';
import {
  openBet,
  type Bet,
  type BetBasics,
  type CreateBetRequest,
  type Wager,
} from '../../domain/bets';
import { applyPointsDelta, ledgerDelta } from '../../domain/ledger';
import { emptyTotals, totalOf } from '../../domain/odds';
import type { BetRow, MembershipRow, WagerRow } from './db';
import { withoutMark, type Mutator, type MutatorContext } from './mutators';

// The bet writes as named mutators (data/mutators.ts, docs/architecture.md §8): what each pushes,
// and how it shows at once in the mirror. apply() runs again on top of the server's rows after
// every pull while the write waits, so it reads the rows as they are then and never assumes.
// Points that only the server can work out (a payout) are left to the pull.

export interface CreateBetArgs {
  /** The bet's temporary id until the server numbers it. */
  tempId: number;
  request: CreateBetRequest;
}

export interface PlaceWagerArgs {
  betId: number;
  prediction: string;
  points: number;
  /** A new wager's temporary id. */
  tempId?: number;
}

export interface UpdateWagerArgs {
  /** The wager being changed. */
  wagerId: number;
  /** Its bet (absent in a write stored before version 15 of the local database: the wager names it). */
  betId?: number;
  prediction: string;
  points: number;
}

export interface ResolveBetArgs {
  betId: number;
  correctAnswer: string;
}

export interface CancelBetArgs {
  betId: number;
}

const pointsInWords = (points: number) => `${points} ${points === 1 ? 'point' : 'points'}`;

const myMembership = (
  context: MutatorContext,
  groupId: number,
): Promise<MembershipRow | undefined> => context.db.memberships.get([groupId, context.userId]);
const myWager = (context: MutatorContext, betId: number): Promise<WagerRow | undefined> =>
  context.db.wagers.where('[betId+userId]').equals([betId, context.userId]).first();

export const createBetMutator: Mutator<CreateBetArgs, Bet> = {
  name: 'createBet',
  texts: ({ request }) => ({
    queued: "You're offline. Your bet will be created when you're back.",
    refused: 'Failed to create bet. Please try again.',
    label: 'New bet',
    refusedAs: () => `Your bet '${request.title}' wasn't created`,
  }),
  describe: ({ request }) => request.title,
  push: ({ request }) => ({ body: request }),
  async apply({ tempId, request }, context) {
    const id = context.idFor(tempId);
    // Once numbered, the server's row (if a pull brought it) is the truth.
    if (id > 0 && (await context.db.bets.get(id))) return;
    // The config as the server will store it (its labels' defaults, options trimmed).
    const config = (request.betTypeConfig ?? {}) as Record<string, unknown>;
    const basics = {
      id,
      title: request.title,
      description: request.description ?? null,
      betType: request.betType,
      betTypeConfig: betTypeRulesOf(request.betType)?.withDefaults(config) ?? config,
      baseWagerAmount: request.baseWagerAmount,
      groupId: request.groupId,
      createdBy: context.userId,
      expiresAt: request.expiresAt,
    } as BetBasics;
    const row: BetRow = { ...openBet(basics, context.now), answerTotals: {}, wagerCount: 0 };
    await context.put('bets', row);
  },
  numbered: ({ tempId }, bet) => [tempId, bet.id],
};

/**
 * A wager drawn at once: the wager row, the player's available points by the difference
 * (docs/groups-and-bets.md §4) and the bet's totals (the odds). `previous` is the player's wager
 * on the bet as the mirror holds it (a new wager's own row once the server's has come).
 */
async function drawWager(
  context: MutatorContext,
  {
    betId,
    prediction,
    points,
    id,
  }: { betId: number; prediction: string; points: number; id: number },
  previous: WagerRow | undefined,
) {
  const wager: Wager = previous
    ? { ...withoutMark(previous), prediction, points, updatedAt: context.now }
    : {
        id,
        betId,
        userId: context.userId,
        prediction,
        points,
        createdAt: context.now,
        updatedAt: context.now,
      };
  await context.put('wagers', wager);
  const bet = await context.db.bets.get(betId);
  if (!bet) return;
  // Keyed by the players' own answers ("constructor" is an answer too): no prototype to trip on.
  const totals = Object.assign(emptyTotals(), bet.answerTotals);
  if (previous) {
    const before = normalizeAnswer(bet, previous.prediction);
    totals[before] = Math.max(0, totalOf(totals, before) - previous.points);
    if (totals[before] === 0) delete totals[before];
  }
  const answer = normalizeAnswer(bet, prediction);
  totals[answer] = totalOf(totals, answer) + points;
  await context.put('bets', {
    ...bet,
    answerTotals: totals,
    wagerCount: (bet.wagerCount ?? 0) + (previous ? 0 : 1),
  });
  const membership = await myMembership(context, bet.groupId);
  if (membership) {
    const delta = ledgerDelta(
      previous
        ? { kind: 'wager_changed', previousPoints: previous.points, points }
        : { kind: 'wager_placed', points },
    );
    await context.put('memberships', applyPointsDelta(membership, delta));
  }
}

const wagerTexts = (isChange: boolean, points: number) =>
  // A score tip stakes nothing (a tipping round's match): it is a tip, not points.
  points === 0
    ? {
        queued: "You're offline. Your tip will be sent when you're back.",
        refused: "Your tip wasn't saved",
        label: isChange ? 'Changed tip' : 'Tip',
        refusedAs: (bet: string) => `Your tip on ${bet} wasn't saved`,
      }
    : {
        queued: "You're offline. Your wager will be sent when you're back.",
        refused: 'Failed to submit wager',
        label: isChange ? 'Changed wager' : 'Wager',
        // A changed wager that is refused leaves the one before in place: nothing came back.
        refusedAs: (bet: string) =>
          isChange
            ? `Your change to ${pointsInWords(points)} on ${bet} wasn't saved`
            : `Your ${pointsInWords(points)} on ${bet} came back`,
      };

const describeWager = ({ points, prediction }: { points: number; prediction: string }) =>
  points === 0 ? `Tip ${prediction}` : `${points} points on ${prediction}`;

/** A new wager (POST /bets/wagers), shown at once under its temporary id. */
export const placeWagerMutator: Mutator<PlaceWagerArgs, Wager> = {
  name: 'placeWager',
  texts: ({ points }) => wagerTexts(false, points),
  betIdOf: ({ betId }) => betId,
  describe: describeWager,
  push: ({ betId, prediction, points }) => ({ body: { betId, prediction, points } }),
  async apply({ betId, prediction, points, tempId }, context) {
    const previous = await myWager(context, betId);
    const id = previous?.id ?? context.idFor(tempId ?? 0);
    await drawWager(context, { betId, prediction, points, id }, previous);
  },
  numbered: ({ tempId }, wager) => (tempId !== undefined ? [tempId, wager.id] : undefined),
};

/** A changed wager (PUT /bets/wagers/{id}): the one it changes moves at once. */
export const updateWagerMutator: Mutator<UpdateWagerArgs, Wager> = {
  name: 'updateWager',
  texts: ({ points }) => wagerTexts(true, points),
  betIdOf: ({ betId }) => betId,
  describe: describeWager,
  push: ({ wagerId, prediction, points }) => ({
    params: { wagerId },
    body: { prediction, points },
  }),
  async apply({ wagerId, betId, prediction, points }, context) {
    const previous =
      (betId === undefined ? undefined : await myWager(context, betId)) ??
      (await context.db.wagers.get(context.idFor(wagerId)));
    if (!previous) return;
    await drawWager(
      context,
      { betId: previous.betId, prediction, points, id: previous.id },
      previous,
    );
  },
};

/** The bet shows resolved at once; the payout is the server's and comes with the pull. */
export const resolveBetMutator: Mutator<ResolveBetArgs, Bet> = {
  name: 'resolveBet',
  texts: {
    queued: "You're offline. The result will be sent when you're back.",
    refused: 'Failed to resolve bet. Please try again.',
    label: 'Bet result',
    refusedAs: (bet) => `Your result for ${bet} wasn't saved`,
  },
  betIdOf: ({ betId }) => betId,
  describe: ({ correctAnswer }) => correctAnswer,
  push: ({ betId, correctAnswer }) => ({ params: { id: betId }, body: { correctAnswer } }),
  async apply({ betId, correctAnswer }, context) {
    const bet = await context.db.bets.get(betId);
    if (!bet || bet.state === 'resolved') return;
    await context.put('bets', {
      ...bet,
      state: 'resolved',
      correctAnswer: normalizeAnswer(bet, correctAnswer),
      resolvedAt: context.now,
      resolvedBy: context.userId,
      updatedAt: context.now,
      // Everyone sees the picks now: an undo leaves the bet closed, as the server does.
      picksRevealedAt: bet.picksRevealedAt ?? context.now,
    });
  },
};

/** The bet shows cancelled and the player's own stake comes back at once. */
export const cancelBetMutator: Mutator<CancelBetArgs, Bet> = {
  name: 'cancelBet',
  texts: {
    queued: "You're offline. The cancellation will be sent when you're back.",
    refused: 'Failed to cancel bet. Please try again.',
    label: 'Bet cancellation',
    refusedAs: (bet) => `Cancelling ${bet} didn't go through`,
  },
  betIdOf: ({ betId }) => betId,
  push: ({ betId }) => ({ params: { id: betId } }),
  async apply({ betId }, context) {
    const bet = await context.db.bets.get(betId);
    if (!bet || bet.state === 'cancelled' || bet.state === 'resolved') return;
    await context.put('bets', { ...bet, state: 'cancelled', updatedAt: context.now });
    const [wager, membership] = await Promise.all([
      myWager(context, betId),
      myMembership(context, bet.groupId),
    ]);
    if (wager && membership)
      await context.put(
        'memberships',
        applyPointsDelta(membership, ledgerDelta({ kind: 'refund', wagerAmount: wager.points })),
      );
  },
};

export const BET_MUTATORS = [
  createBetMutator,
  placeWagerMutator,
  updateWagerMutator,
  resolveBetMutator,
  cancelBetMutator,
] as const;
