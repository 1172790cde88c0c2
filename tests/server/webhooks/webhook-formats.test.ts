import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { WebhookWithSecret } from '../../../src/domain/schemas/webhooks';
import { WEBHOOK_LIMITS } from '../../../src/domain/webhooks';
import { groupWebhooks } from '../../../src/server/db/webhooks-schema';
import { discordMessage, DISCORD_MESSAGE_MAX } from '../../../src/server/webhooks/webhook-messages';
import { webhookRequestOf } from '../../../src/server/webhooks/webhook-sender';
import { isSignedBy } from '../../webhook-receiver';
import { createBet } from '../bets/bet.factories';
import { createGroupWithRoles } from '../groups/group.factories';
import { useTestServer } from '../harness';
import { addHook, later, sendWebhooks, useWebhookReceiver } from './webhook.factories';

// What a receiver gets besides the plain signed body: during a secret's rotation both secrets
// sign each delivery (a receiver still on the old one, or already on the new one, accepts it);
// a Discord channel's webhook URL gets one embed of at most 2,000 characters with a link
// button, a Slack one a Block Kit message. The receiver stands in for Discord and Slack on
// loopback: the format is chosen by the URL's path (domain/webhooks.ts webhookFormatOf), so
// the local receiver at Discord's or Slack's path gets their format, with no setting to change.

const server = useTestServer({ env: { BET_EXPIRY_INTERVAL_MS: '0' } });
const hooks = useWebhookReceiver();
const { arrivalsAt } = hooks;

// Messages are read freely in assertions.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Data = Record<string, any>;

describe('rotating a secret', () => {
  it('signs with both secrets during the rotation, then with the new one alone', async () => {
    const { group, creator, member } = await createGroupWithRoles(server);
    const hook = await addHook(server, creator, group.id, `${hooks.origin}/rotating`, [
      'bet.created',
    ]);
    const rotate = (token: string) =>
      server.request<WebhookWithSecret>(
        'POST',
        `/api/groups/${group.id}/webhooks/${hook.id}/rotate-secret`,
        { token },
      );
    const refused = await rotate(member.accessToken);
    expect([refused.status, refused.text]).toEqual([
      403,
      expect.stringContaining('not_group_admin'),
    ]);
    const rotatedAt = server.clock.now();
    const rotated = await rotate(creator.accessToken);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(hook.secret);
    const until = new Date(rotated.body.previousSecretUntil!).getTime();
    expect(until - rotatedAt.getTime()).toBeGreaterThanOrEqual(WEBHOOK_LIMITS.previousSecretMs);
    expect(until - rotatedAt.getTime()).toBeLessThan(WEBHOOK_LIMITS.previousSecretMs + 60_000);

    await createBet(server, creator, group);
    await sendWebhooks(server);
    const [arrival] = arrivalsAt('/rotating');
    expect(String(arrival!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(isSignedBy(arrival!, hook.secret)).toBe(true);
    expect(isSignedBy(arrival!, rotated.body.secret)).toBe(true);
    expect(isSignedBy(arrival!, 'whsec_' + Buffer.alloc(32).toString('base64'))).toBe(false);

    // Once the rotation ends, the old secret signs no more (the request as a try then makes it).
    const [row] = await server.database.db
      .select()
      .from(groupWebhooks)
      .where(eq(groupWebhooks.id, hook.id));
    const delivery = { eventId: arrival!.headers['webhook-id'] as string, body: arrival!.body };
    const after = later(rotated.body.previousSecretUntil!, 1000);
    const request = webhookRequestOf(row!, delivery, server.config.publicUrl, after);
    const afterArrival = { ...arrival!, headers: request.headers, body: request.body };
    expect(request.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(isSignedBy(afterArrival, rotated.body.secret, after.getTime())).toBe(true);
    expect(isSignedBy(afterArrival, hook.secret, after.getTime())).toBe(false);
    // The list shows the rotation's end while it lasts, never a secret.
    const list = await server.request('GET', `/api/groups/${group.id}/webhooks`, {
      token: creator.accessToken,
    });
    expect(list.body.webhooks[0].previousSecretUntil).toBe(rotated.body.previousSecretUntil);
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
  });
});

describe("a chat's own format", () => {
  it('sends Discord one embed of at most 2,000 characters and a link button', async () => {
    const { group, creator } = await createGroupWithRoles(server);
    const hook = await addHook(
      server,
      creator,
      group.id,
      `${hooks.origin}/api/webhooks/1234567890/abc-DEF_ghi`,
      ['bet.created'],
    );
    expect(hook.format).toBe('discord');
    // The longest bet.created there is: a 100-character title, 10 options of 100 characters.
    const options = Array.from({ length: 10 }, (_, i) => `${i}`.repeat(100));
    const bet = await createBet(server, creator, group, {
      title: 'T'.repeat(100),
      betType: 'multiple_choice',
      betTypeConfig: { options },
    });
    await sendWebhooks(server);
    const [arrival] = arrivalsAt('/api/webhooks/1234567890/abc-DEF_ghi?with_components=true');
    expect(arrival!.headers['content-type']).toBe('application/json');
    const message = arrival!.json as Data;
    expect(message.embeds).toHaveLength(1);
    const [embed] = message.embeds;
    expect(embed.title).toContain('T'.repeat(100));
    expect(embed.title.length + embed.description.length).toBeLessThanOrEqual(DISCORD_MESSAGE_MAX);
    expect(embed.description).toContain(options[9]);
    expect(message.components).toEqual([
      {
        type: 1,
        components: [
          { type: 2, style: 5, label: 'Place a bet', url: `http://hunch.test/bets/${bet.id}` },
        ],
      },
    ]);
    // Mentions never ping anyone, whatever a name says.
    expect(message.allowed_mentions).toEqual({ parse: [] });
    // Nothing of the plain body's shape reaches a chat.
    expect(message.type).toBeUndefined();
  });

  it('cuts a longer Discord text to 2,000 characters, marking the cut', () => {
    const message = discordMessage({
      title: 'A title',
      lines: Array.from({ length: 100 }, (_, i) => `Line ${i}: ${'x'.repeat(40)}`),
      link: 'http://hunch.test/groups/1',
      linkLabel: 'Open the group',
    });
    const [embed] = message.embeds;
    expect(embed!.title.length + embed!.description.length).toBe(DISCORD_MESSAGE_MAX);
    expect(embed!.description.endsWith('…')).toBe(true);
  });

  it('sends Slack a Block Kit message: a header, the lines and a button', async () => {
    const { group, creator } = await createGroupWithRoles(server);
    const path = '/services/T0001/B0002/XXXXXXXXXXXXXXXXXXXXXXXX';
    const hook = await addHook(server, creator, group.id, `${hooks.origin}${path}`, [
      'bet.created',
    ]);
    expect(hook.format).toBe('slack');
    const bet = await createBet(server, creator, group, { title: 'Rain on Saturday?' });
    await sendWebhooks(server);
    const [arrival] = arrivalsAt(path);
    expect(isSignedBy(arrival!, hook.secret)).toBe(true);
    const message = arrival!.json as Data;
    expect(message.text).toBe(`New bet in ${group.name}: Rain on Saturday?`);
    expect(message.blocks.map((block: { type: string }) => block.type)).toEqual([
      'header',
      'section',
      'actions',
    ]);
    expect(message.blocks[0].text).toEqual({ type: 'plain_text', text: message.text });
    expect(message.blocks[1].text.text).toMatch(/asks\. Betting closes /);
    expect(message.blocks[2].elements).toEqual([
      {
        type: 'button',
        text: { type: 'plain_text', text: 'Place a bet' },
        url: `http://hunch.test/bets/${bet.id}`,
      },
    ]);
  });

  it('sends the plain signed body to any other path of the same host', async () => {
    const { group, creator } = await createGroupWithRoles(server);
    const hook = await addHook(server, creator, group.id, `${hooks.origin}/api/webhooks/x`, [
      'bet.created',
    ]);
    expect(hook.format).toBe('standard');
    await createBet(server, creator, group);
    await sendWebhooks(server);
    const [arrival] = arrivalsAt('/api/webhooks/x');
    expect(arrival!.json).toMatchObject({ type: 'bet.created', data: { group: { id: group.id } } });
  });
});
