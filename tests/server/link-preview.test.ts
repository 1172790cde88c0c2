import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createBet } from './bets/bet.factories';
import { createGroup, createPlayer, uniqueGroupName } from './groups/group.factories';
import { useTestServer } from './harness';

// A bet link pasted in a chat app shows a preview from the page's Open Graph tags: a public
// group's bet names its title and group, any other bet (or none) the generic "A bet on Hunch".

const INDEX_HTML =
  '<!doctype html><html><head><title>Hunch</title></head><body><div id="root"></div></body></html>';

let clientDir: string;
afterAll(() => rmSync(clientDir, { recursive: true, force: true }));
const server = useTestServer(() => {
  clientDir = mkdtempSync(path.join(os.tmpdir(), 'hunch-client-'));
  writeFileSync(path.join(clientDir, 'index.html'), INDEX_HTML);
  return { clientDir };
});

/** The page a crawler gets for a bet link, and its meta tags by property or name (entities decoded). */
async function previewOf(url: string) {
  const response = await server.request('GET', url, { headers: { accept: 'text/html' } });
  expect(response.status).toBe(200);
  const tags = new Map<string, string>();
  for (const match of response.text.matchAll(
    /<meta (?:property|name)="([^"]+)" content="([^"]*)" \/>/g,
  ))
    tags.set(
      match[1]!,
      match[2]!
        .replaceAll('&lt;', '<')
        .replaceAll('&gt;', '>')
        .replaceAll('&quot;', '"')
        .replaceAll('&#39;', "'")
        .replaceAll('&amp;', '&'),
    );
  return { response, tags };
}

describe('link previews of a bet', () => {
  it("shows a public group's bet with its title and group, on the page the app runs", async () => {
    const owner = await createPlayer(server, 'Maya');
    const group = await createGroup(server, owner, { name: uniqueGroupName('Open Mic') });
    const bet = await createBet(server, owner, group, { title: 'Will Sam sing tonight?' });

    const { response, tags } = await previewOf(`/bets/${bet.id}`);
    expect(tags.get('og:title')).toBe('Will Sam sing tonight?');
    expect(tags.get('og:description')).toContain(group.name);
    expect(tags.get('og:description')).toContain('virtual points, no money');
    expect(tags.get('og:url')).toBe(`${server.config.publicUrl}/bets/${bet.id}`);
    expect(tags.get('og:image')).toBe(`${server.config.publicUrl}/og-image.png`);
    expect(tags.get('twitter:card')).toBe('summary_large_image');
    // Still the app's page, revalidated on every load like index.html.
    expect(response.text).toContain('<div id="root"></div>');
    expect(response.text.indexOf('og:title')).toBeLessThan(response.text.indexOf('</head>'));
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('content-type')).toContain('text/html');
  });

  it("never shows a private group's bet title or group name", async () => {
    const owner = await createPlayer(server, 'Maya');
    const group = await createGroup(server, owner, {
      name: 'Secret Santa planners',
      privacy: 'private',
    });
    const bet = await createBet(server, owner, group, { title: 'Will Jo guess the gift?' });

    const { response, tags } = await previewOf(`/bets/${bet.id}`);
    expect(tags.get('og:title')).toBe('A bet on Hunch');
    expect(tags.get('og:description')).toContain('Virtual points, no money.');
    expect(response.text).not.toContain('Will Jo guess the gift?');
    expect(response.text).not.toContain('Secret Santa planners');
  });

  it('gives an unknown bet the generic preview', async () => {
    const { tags } = await previewOf('/bets/2147483000');
    expect(tags.get('og:title')).toBe('A bet on Hunch');
    expect(tags.get('og:url')).toBe(`${server.config.publicUrl}/bets/2147483000`);
    expect(tags.get('og:image')).toBe(`${server.config.publicUrl}/og-image.png`);
  });

  it('escapes a title and a group name full of markup and quotes', async () => {
    const owner = await createPlayer(server, 'Maya');
    const groupName = uniqueGroupName(`"Quotes" & <b>friends</b>`);
    const group = await createGroup(server, owner, { name: groupName });
    const title = `</title><script>alert("hi")</script> Sam's "big" night?`;
    const bet = await createBet(server, owner, group, { title });

    const { response, tags } = await previewOf(`/bets/${bet.id}`);
    expect(response.text).not.toContain('<script>');
    expect(response.text).not.toContain('<b>');
    expect(response.text).not.toContain(`"big"`);
    expect(response.text).toContain('&lt;script&gt;alert(&quot;hi&quot;)&lt;/script&gt;');
    // Decoded, each says exactly what the players wrote.
    expect(tags.get('og:title')).toBe(title);
    expect(tags.get('og:description')).toContain(groupName);
  });

  it('leaves other pages and bad bet ids without a bet preview', async () => {
    for (const url of ['/dashboard', '/bets/abc', '/bets/-3', '/bets/1/edit']) {
      const response = await server.request('GET', url, { headers: { accept: 'text/html' } });
      expect(response.status, url).toBe(200);
      expect(response.text, url).toBe(INDEX_HTML);
    }
  });

  it("shows a shared bet's question while its link is on, whatever its group", async () => {
    const owner = await createPlayer(server, 'Maya');
    const group = await createGroup(server, owner, {
      name: uniqueGroupName('Book club'),
      privacy: 'private',
    });
    const bet = await createBet(server, owner, group, { title: 'Will we finish the book?' });
    const share = (method: string) =>
      server.request(method, `/api/bets/${bet.id}/share`, { token: owner.accessToken });
    const { token } = (await share('POST')).body.link as { token: string };

    const { tags } = await previewOf(`/s/${token}`);
    expect(tags.get('og:title')).toBe('Will we finish the book?');
    expect(tags.get('twitter:title')).toBe('Will we finish the book?');
    expect(tags.get('og:url')).toBe(`${server.config.publicUrl}/s/${token}`);
    expect((await share('DELETE')).status).toBe(200);
    const off = await previewOf(`/s/${token}`);
    expect(off.tags.get('og:title')).toBe('A bet on Hunch');
    expect(off.response.text).not.toContain('Will we finish the book?');
    expect((await previewOf('/s/not-a-token')).tags.get('og:title')).toBe('A bet on Hunch');
  });
});
