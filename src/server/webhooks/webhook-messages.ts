import type { WebhookEvent, WebhookEventData } from '../../domain/schemas/webhook-events';
import type { WebhookEventType } from '../../domain/webhooks';

// What a chat channel reads when a hook's URL is Discord's or Slack's: one short summary of
// the event (a title, a few lines, a link), written as a Discord embed with a link button or
// as Slack blocks. Built from the very event a signed receiver gets, so it can never say more
// than that does (no picks while betting is open, no answer without "Post results").

export interface WebhookSummary {
  title: string;
  lines: string[];
  link: string;
  linkLabel: string;
}

/** Discord refuses an embed description past 4,096 characters; the brief caps the message at 2,000. */
export const DISCORD_MESSAGE_MAX = 2_000;

const plural = (count: number, one: string, many = `${one}s`) =>
  `${count} ${count === 1 ? one : many}`;

const SUMMARIES: { [T in WebhookEventType]: (data: WebhookEventData[T]) => WebhookSummary } = {
  'bet.created': ({ group, bet, createdBy }) => ({
    title: `New bet in ${group.name}: ${bet.title}`,
    lines: [
      `${createdBy} asks. Betting closes ${bet.expiresAt}.`,
      ...(bet.options ? [`Answers: ${bet.options.join(' · ')}`] : []),
    ],
    link: bet.url,
    linkLabel: 'Place a bet',
  }),
  'bet.closing_soon': ({ group, bet }) => ({
    title: `Closing soon in ${group.name}: ${bet.title}`,
    lines: [
      `Betting closes ${bet.expiresAt}.`,
      `${plural(bet.wagerCount, 'wager')} so far, ${plural(bet.pool, 'point')} in the pool.`,
    ],
    link: bet.url,
    linkLabel: 'Place a bet',
  }),
  'bet.closed': ({ group, bet, picks }) => ({
    title: `Betting closed in ${group.name}: ${bet.title}`,
    lines: [
      `${plural(bet.wagerCount, 'wager')}, ${plural(bet.pool, 'point')} in the pool.`,
      ...picks.map((pick) => `${pick.name}: ${pick.pick} (${pick.points})`),
    ],
    link: bet.url,
    linkLabel: 'Open the bet',
  }),
  'bet.resolved': ({ group, bet, result }) => ({
    title: `Resolved in ${group.name}: ${bet.title}`,
    lines: result
      ? [
          `Answer: ${result.answer}`,
          result.winners.length === 0
            ? 'Nobody called it: every wager came back.'
            : `Called it: ${result.winners.map((w) => `${w.name} (+${w.won})`).join(', ')}`,
        ]
      : ['The result is in. Open the bet to see it.'],
    link: bet.url,
    linkLabel: 'See the result',
  }),
  'bet.cancelled': ({ group, bet, reason }) => ({
    title: `${reason === 'expired' ? 'Expired' : 'Cancelled'} in ${group.name}: ${bet.title}`,
    lines: ['Every wager went back to its owner.'],
    link: bet.url,
    linkLabel: 'Open the bet',
  }),
  'member.joined': ({ group, member, memberCount }) => ({
    title: `${member.name} joined ${group.name}`,
    lines: [`${plural(memberCount, 'member')} now.`],
    link: group.url,
    linkLabel: 'Open the group',
  }),
  'leaderboard.weekly': ({ group, table }) => ({
    title: `This week in ${group.name}`,
    lines:
      table.length === 0
        ? ['No results this week.']
        : table.map((row) => `${row.rank}. ${row.name}: ${row.points > 0 ? '+' : ''}${row.points}`),
    link: group.url,
    linkLabel: 'Open the leaderboard',
  }),
};

export function summarizeWebhookEvent(event: WebhookEvent): WebhookSummary {
  const summarize = SUMMARIES[event.type] as (data: WebhookEvent['data']) => WebhookSummary;
  return summarize(event.data);
}

/** `text` cut to `max` characters, an ellipsis marking the cut. */
function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A Discord message: one embed (title, lines, link) and a link button, ≤ 2,000 characters in all. */
export function discordMessage(summary: WebhookSummary) {
  const title = clip(summary.title, 256);
  const description = clip(summary.lines.join('\n'), DISCORD_MESSAGE_MAX - title.length);
  return {
    embeds: [{ title, description, url: summary.link, color: 0x6d5efc }],
    components: [
      {
        type: 1,
        components: [{ type: 2, style: 5, label: summary.linkLabel, url: summary.link }],
      },
    ],
    allowed_mentions: { parse: [] as string[] },
  };
}

/** A Slack message in Block Kit: a header, the lines, a button; `text` for notifications. */
export function slackMessage(summary: WebhookSummary) {
  const body = clip(summary.lines.join('\n'), 3_000);
  return {
    text: clip(summary.title, 150),
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: clip(summary.title, 150) } },
      ...(body ? [{ type: 'section', text: { type: 'plain_text', text: body } }] : []),
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            text: { type: 'plain_text', text: summary.linkLabel },
            url: summary.link,
          },
        ],
      },
    ],
  };
}
