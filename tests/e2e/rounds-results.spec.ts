import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test as base, type Page } from '@playwright/test';
import { startFootballDataStandIn, type FootballDataStandIn } from '../football-data-stand-in';
import {
  authHeaders,
  createGroupViaApi,
  joinViaApi,
  openAs,
  registerPlayer,
  uniqueGroupName,
  type Player,
} from './groups.helpers';
import { tipViaApi } from './rounds.helpers';
import { LOOKED_AT_SIZES, shootIfAsked } from './screens.helpers';
import { freePort, jobPasses, startServerProcess, type ServerProcess } from './server-process';

// Results that fill themselves in (docs/rules.md "Tipping rounds"): a server of this spec's own
// (its own DATA_DIR, so no other spec's server asks a provider) gets full-time scores from the
// local football-data.org stand-in, right at kick-off (ROUND_RESULTS_AFTER_KICKOFF_MINUTES=0)
// and every second (RESULTS_INTERVAL_MS). The round's table scores 4/3/2/0 with its Matchday
// winner, and the match's history says where its result came from.

const test = base.extend<
  object,
  { resultsServer: { server: ServerProcess; standIn: FootballDataStandIn } }
>({
  resultsServer: [
    // Playwright reads a fixture's dependencies from its first parameter: this one has none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const standIn = await startFootballDataStandIn();
      const dataDir = mkdtempSync(path.join(tmpdir(), 'hunch-e2e-results-'));
      const server = await startServerProcess({
        port: await freePort(),
        dataDir,
        env: {
          FOOTBALL_DATA_TOKEN: standIn.token,
          FOOTBALL_DATA_URL: standIn.url,
          RESULTS_INTERVAL_MS: '1000',
          ROUND_RESULTS_AFTER_KICKOFF_MINUTES: '0',
        },
      });
      await use({ server, standIn });
      await server.stop();
      await standIn.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ resultsServer }, use) => use(resultsServer.server.url),
});

test.use({ viewport: { width: 390, height: 844 } });

type RoundAnswer = {
  id: number;
  matches: { betId: number; home: string; kickoff: string; state: string; result: string | null }[];
  table: { userId: number; points: number; exact: number; difference: number; tendency: number }[];
  matchdayWinners: number[];
};

async function shootLightAndDark(page: Page, name: string) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    for (const size of LOOKED_AT_SIZES) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await shootIfAsked(page, `rounds-${name}-${size.name}-${colorScheme}`, true);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 390, height: 844 });
}

test('the stand-in provider reports full time and the round table scores 4/3/2/0', async ({
  browser,
  request,
  resultsServer: { standIn },
}) => {
  const [admin, ana, ben, cat] = await Promise.all([0, 1, 2, 3].map(() => registerPlayer(request)));
  const group = await createGroupViaApi(request, admin!, { name: uniqueGroupName('Results') });
  for (const player of [ana!, ben!, cat!]) await joinViaApi(request, player, group.name);

  // Three matches kicking off in half a minute: two linked by the provider's id, one by its
  // teams and day (the provider calls Ajax "AFC Ajax").
  const kickoff = new Date(Math.ceil((Date.now() + 30_000) / 1000) * 1000).toISOString();
  const created = await request.post(`/api/groups/${group.id}/rounds`, {
    headers: await authHeaders(request, admin!),
    data: {
      name: 'Matchday 13',
      matches: [
        { home: 'Ajax', away: 'PSV', kickoff },
        { home: 'AZ', away: 'Twente', kickoff, providerMatchId: 7002 },
        { home: 'Utrecht', away: 'Heerenveen', kickoff, providerMatchId: 7003 },
      ],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const round = (await created.json()) as RoundAnswer;
  const finished = (id: number, home: string, away: string, goals: [number, number]) => ({
    id,
    utcDate: kickoff,
    status: 'FINISHED' as const,
    home,
    away,
    fullTime: { home: goals[0], away: goals[1] },
  });
  standIn.matches = [
    finished(7001, 'AFC Ajax', 'PSV', [2, 1]),
    finished(7002, 'AZ Alkmaar', 'FC Twente', [0, 0]),
    finished(7003, 'FC Utrecht', 'SC Heerenveen', [1, 3]),
  ];

  // On Ajax – PSV (2-1): Ana exact, Ben the difference, Cat the tendency, the admin wrong.
  const [ajax, az] = round.matches as [RoundAnswer['matches'][0], RoundAnswer['matches'][0]];
  await tipViaApi(request, ana!, ajax.betId, '2-1');
  await tipViaApi(request, ben!, ajax.betId, '3-2');
  await tipViaApi(request, cat!, ajax.betId, '4-0');
  await tipViaApi(request, admin!, ajax.betId, '0-1');
  await tipViaApi(request, admin!, az.betId, '1-0');

  // Kick-off passes and the job asks the stand-in: every match resolves by itself.
  const passesBefore = await jobPasses(request, 'round-results');
  const anaPage = await openAs(browser, ana!, `/group/${group.id}/rounds/${round.id}`);
  const headers = await authHeaders(request, admin!);
  await expect
    .poll(
      async () => {
        const answer = await request.get(`/api/groups/${group.id}/rounds/${round.id}`, { headers });
        const read = (await answer.json()) as RoundAnswer;
        return read.matches.map((match) => match.result);
      },
      { timeout: 90_000 },
    )
    .toEqual(['2-1', '0-0', '1-3']);
  expect(await jobPasses(request, 'round-results')).toBeGreaterThan(passesBefore);
  expect(standIn.requests.some((line) => line.startsWith('/v4/matches?ids='))).toBe(true);
  expect(standIn.requests.some((line) => line.startsWith('/v4/matches?dateFrom='))).toBe(true);

  const scored = (await (
    await request.get(`/api/groups/${group.id}/rounds/${round.id}`, { headers })
  ).json()) as RoundAnswer;
  const lineOf = (player: Player) => scored.table.find((line) => line.userId === player.id);
  expect(lineOf(ana!)).toMatchObject({ points: 4, exact: 1 });
  expect(lineOf(ben!)).toMatchObject({ points: 3, difference: 1 });
  expect(lineOf(cat!)).toMatchObject({ points: 2, tendency: 1 });
  expect(lineOf(admin!)).toMatchObject({ points: 0 });
  expect(scored.matchdayWinners).toEqual([ana!.id]);

  // Ana's phone: the full-time scores, the table and her mark, from her mirror.
  await expect(anaPage.getByText('Full time 1–3')).toBeVisible({ timeout: 30_000 });
  const table = anaPage.getByRole('table', { name: 'Matchday 13 table' });
  const rowOf = (player: Player) =>
    table.getByRole('row', { name: new RegExp(player.person.displayName) });
  await expect(rowOf(ana!)).toContainText('Matchday winner');
  for (const [player, points] of [
    [ana!, '4'],
    [ben!, '3'],
    [cat!, '2'],
    [admin!, '0'],
  ] as const)
    await expect(rowOf(player).getByRole('cell').last()).toHaveText(points);
  await shootLightAndDark(anaPage, 'round-results');

  // The match's history says where the result came from.
  await anaPage.goto(`/bets/${ajax.betId}`);
  await expect(anaPage.getByRole('region', { name: 'History' })).toContainText(
    'Result from football-data.org',
  );
  await anaPage.context().close();
});
