import { answerLabel, type BetRules } from '../../domain/bet-types';
import { totalOf } from '../../domain/odds';
import type { Distribution } from '../../domain/payout';
import type { PushNotification } from '../../domain/push';

// What each push says (ARCHITECTURE.md §7): a title, a body telling what happened in plain
// words, and the app path to open. The tag makes a newer notice about the same thing replace
// the older one on the device instead of piling up.

function points(count: number): string {
  return `${count} point${count === 1 ? '' : 's'}`;
}

/** "2.5×", "3×": the multiplier as the bet card shows odds, at most one decimal. */
function multiplier(value: number): string {
  return `${Math.round(value * 10) / 10}×`;
}

export function betCreatedMessage(input: {
  betId: number;
  betTitle: string;
  groupName: string;
  creatorName: string;
}): PushNotification {
  return {
    title: `New bet in ${input.groupName}`,
    body: `${input.creatorName} asks: ${input.betTitle}`,
    url: `/bets/${input.betId}`,
    tag: `bet-${input.betId}`,
  };
}

/** To someone with a wager on the bet: how their own pick pays now. */
export function oddsChangedMessage(input: {
  betId: number;
  betTitle: string;
  bet: BetRules;
  prediction: string;
  answerTotals: Record<string, number>;
  pool: number;
}): PushNotification {
  const onPick = totalOf(input.answerTotals, input.prediction);
  const pays = onPick > 0 ? ` pays ${multiplier(input.pool / onPick)}` : '';
  return {
    title: `The odds moved: ${input.betTitle}`,
    body: `Your pick ${answerLabel(input.bet, input.prediction)}${pays}, with ${points(input.pool)} in the pool now.`,
    url: `/bets/${input.betId}`,
    tag: `bet-${input.betId}-odds`,
  };
}

/** To one participant: what they got back (winnings is everything paid back, the stake included). */
export function betResolvedMessage(input: {
  betId: number;
  betTitle: string;
  distribution: Distribution;
}): PushNotification {
  const { winnings, wagerAmount } = input.distribution;
  const body =
    winnings > wagerAmount
      ? `You won ${points(winnings)}`
      : winnings === wagerAmount
        ? `You got your ${points(wagerAmount)} back`
        : 'Better luck next time';
  return {
    title: `Resolved: ${input.betTitle}`,
    body,
    url: `/bets/${input.betId}`,
    tag: `bet-${input.betId}`,
  };
}

export function memberJoinedMessage(input: {
  groupId: number;
  groupName: string;
  userName: string;
  memberCount: number;
}): PushNotification {
  return {
    title: `${input.userName} joined ${input.groupName}`,
    body: `${input.groupName} has ${input.memberCount} players now.`,
    url: `/group/${input.groupId}`,
    tag: `group-${input.groupId}-members`,
  };
}
