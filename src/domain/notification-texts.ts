import { cancelledRefundText, wagerOutcome } from './bet-outcome';
import { removedYouText } from './groups';
import type { Notification, NotificationPayload } from './notifications';

// The words of an inbox entry: its title and body, the app path it opens and its push tag,
// built from its kind, count and payload, so the inbox, the push and every device say the same.
// Apart from notifications.ts (the schemas the mirror needs on every screen), so the texts load
// with the inbox screen and not with the dashboard.

function points(count: number): string {
  return `${count} point${count === 1 ? '' : 's'}`;
}

/** "2.5×", "3×": the multiplier as the bet card shows odds, at most one decimal. */
function multiplier(value: number): string {
  return `${Math.round(value * 10) / 10}×`;
}

/** "about 2 hours", "about 45 minutes": how long until `at`, seen from `from`. */
function timeLeft(at: string | undefined, from: string): string {
  if (!at) return 'soon';
  const minutes = Math.max(1, Math.round((Date.parse(at) - Date.parse(from)) / 60000));
  if (minutes < 90) return `in about ${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.round(minutes / 60);
  return `in about ${hours} hours`;
}

/** 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st… */
function ordinal(rank: number): string {
  const tens = rank % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][rank % 10] ?? 'th');
  return `${rank}${suffix}`;
}

/** Where the player finished a season and who won it: "You finished 3rd of 8, +12 points. Maya won it." */
function seasonBody(payload: NotificationPayload): string {
  const reset =
    payload.availablePoints === undefined
      ? ''
      : ` Everyone starts again at ${points(payload.availablePoints)}.`;
  const result = signed(payload.points ?? 0);
  // Without a rank: nobody won or lost a point, so nobody is ahead.
  const place =
    payload.rank === undefined
      ? 'Nobody won or lost points in it.'
      : payload.rank > 1
        ? `You finished ${ordinal(payload.rank)} of ${payload.memberCount ?? payload.rank}, ${result}. ${payload.winnerName ?? 'Someone'} won it.`
        : payload.winnerName === undefined
          ? `You won it, ${result}!`
          : `You shared first place with ${payload.winnerName}, ${result}.`;
  return `${place}${reset}`;
}

function signed(value: number): string {
  return value > 0 ? `+${points(value)}` : value < 0 ? `−${points(-value)}` : points(0);
}

function resultBody(payload: NotificationPayload): string {
  const winnings = payload.winnings ?? 0;
  const stake = payload.wagerAmount ?? 0;
  // The same refund words as the bet page beside the state.
  if (payload.outcome === 'cancelled')
    return `The bet was cancelled. ${cancelledRefundText(stake)}.`;
  if (payload.outcome === 'expired')
    return `Nobody resolved it in time. ${cancelledRefundText(stake)}.`;
  if (payload.outcome === 'undone') return 'The result was taken back. Wait for the new one.';
  return wagerOutcome({ stake, winnings }).text;
}

/** Title and body of an entry, as the inbox shows it and the push says it. */
export function notificationText(
  notification: Pick<Notification, 'kind' | 'count' | 'payload' | 'updatedAt'>,
): { title: string; body: string } {
  const { kind, count, payload } = notification;
  const bet = payload.betTitle ?? 'a bet';
  switch (kind) {
    case 'betCreated':
      return count > 1
        ? { title: `${count} new bets in ${payload.groupName}`, body: `The latest: ${bet}` }
        : {
            title: `New bet in ${payload.groupName}`,
            body: `${payload.actorName ?? 'A member'} asks: ${bet}`,
          };
    case 'closesSoon':
      return {
        title: `Closes soon: ${bet}`,
        body: `You haven't picked yet. Betting closes ${timeLeft(payload.expiresAt, notification.updatedAt)}.`,
      };
    case 'resolveReminder':
      return {
        title: `Time to resolve: ${bet}`,
        body: `Betting has closed. Pick the right answer so ${payload.groupName} gets paid.`,
      };
    case 'betResult': {
      const verb =
        payload.outcome === 'cancelled'
          ? 'Cancelled'
          : payload.outcome === 'expired'
            ? 'Expired'
            : payload.outcome === 'undone'
              ? 'Undone'
              : 'Resolved';
      return { title: `${verb}: ${bet}`, body: resultBody(payload) };
    }
    case 'resultUndone':
      return {
        title: `${payload.actorName ?? 'The resolver'} undid the result of “${bet}”`,
        body: 'Points are back where they were until it is resolved again.',
      };
    case 'disputeOpened':
      return {
        title: `${payload.actorName ?? 'A player'} disputes “${bet}”`,
        body: payload.reason ? `“${payload.reason}”` : 'Take a look at the result.',
      };
    case 'disputeClosed':
      return payload.review === 'reResolved'
        ? {
            title: `New result for “${bet}”`,
            body: `${payload.actorName ?? 'An admin'} re-resolved it${payload.answer ? `: ${payload.answer}` : ''}. It is final.`,
          }
        : {
            title: `The result of “${bet}” stands`,
            body: `${payload.actorName ?? 'An admin'} looked at the dispute and kept the result. It is final.`,
          };
    case 'oddsChanged': {
      const pays =
        payload.multiplier === undefined ? '' : ` pays ${multiplier(payload.multiplier)}`;
      return {
        title: `The odds moved: ${bet}`,
        body: `Your pick ${payload.answer ?? ''}${pays}, with ${points(payload.pool ?? 0)} in the pool now.`,
      };
    }
    case 'floorTopUp':
      return {
        title: `You were topped up to ${points(payload.availablePoints ?? 0)} in ${payload.groupName}`,
        body: `A weekly top-up of ${points(payload.points ?? 0)}, so you can keep playing.`,
      };
    case 'removedFromGroup':
      return {
        title: removedYouText(payload.actorName ?? 'An admin', payload.groupName),
        body: 'Your points and open wagers stay yours. An admin can add you back.',
      };
    case 'webhookPaused':
      return {
        title: `A webhook of ${payload.groupName} was paused`,
        body: 'Its address kept failing for a day. Check it in the group’s Settings, then turn it back on.',
      };
    case 'seasonEnded':
      return {
        title: `${payload.seasonName ?? 'The season'} is over in ${payload.groupName}`,
        body: seasonBody(payload),
      };
    case 'memberJoined':
      return count > 1
        ? {
            title: `${count} players joined ${payload.groupName}`,
            body: `The latest: ${payload.actorName ?? 'a friend'}. Say hello!`,
          }
        : {
            title: `${payload.actorName ?? 'A friend'} joined ${payload.groupName}`,
            body: `${payload.groupName} has ${payload.memberCount ?? 2} players now.`,
          };
    case 'comments': {
      // Without an excerpt: the comment it quoted was deleted.
      const body =
        payload.excerpt === undefined
          ? 'Open the bet to read them.'
          : `${payload.actorName ?? 'Someone'}: ${payload.excerpt}`;
      return count > 1
        ? { title: `${count} new comments on ${bet}`, body }
        : { title: `New comment on ${bet}`, body };
    }
  }
}

/** The app path an entry opens: its bet, its group (gathered new bets, joins, top-ups) or the group's seasons. */
export function notificationLink(
  notification: Pick<Notification, 'kind' | 'count' | 'groupId' | 'betId'>,
): string {
  const { kind, count, groupId, betId } = notification;
  // Removed: the group is no longer theirs to open.
  if (kind === 'removedFromGroup') return '/dashboard';
  if (
    betId === null ||
    kind === 'memberJoined' ||
    kind === 'floorTopUp' ||
    kind === 'webhookPaused' ||
    (kind === 'betCreated' && count > 1)
  )
    return kind === 'seasonEnded' ? `/group/${groupId}/seasons` : `/group/${groupId}`;
  return `/bets/${betId}`;
}

/** The push tag: a newer push about the same thing replaces the older one on the device. */
export function notificationTag(
  notification: Pick<Notification, 'kind' | 'groupId' | 'betId'>,
): string {
  const { kind, groupId, betId } = notification;
  if (kind === 'memberJoined') return `group-${groupId}-members`;
  if (kind === 'removedFromGroup') return `group-${groupId}-removed`;
  if (kind === 'betCreated') return `group-${groupId}-bets`;
  if (kind === 'closesSoon' || kind === 'resolveReminder') return `bet-${betId}-reminder`;
  if (kind === 'floorTopUp') return `group-${groupId}-top-up`;
  if (kind === 'webhookPaused') return `group-${groupId}-webhooks`;
  if (kind === 'seasonEnded') return `group-${groupId}-season`;
  if (kind === 'oddsChanged') return `bet-${betId}-odds`;
  return `bet-${betId}`;
}
