import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from '@playwright/test';
import { test as base } from './fixtures';
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
import { shootRoundScreen, tipViaApi } from './rounds.helpers';
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

test('the stand-in provider reports full time and the round table scores 4/3/2/0', async ({
  browser,
  request,
  resultsServer: { standIn },
}) => {
  const [admin, ana, ben, cat] = await Promise.all([0, 1, 2, 3].map(() => registerPlayer(request)));
  const group = await createGroupViaApi(request, admin!, { name: uniqueGroupName('Results') });
  for (const player of [ana!, ben!, cat!]) await joinViaApi(request, player, group.name);

  // Three matches kicking off in 75 seconds (time for the admin's points and the screenshots):
  // two linked by the provider's id, one by its teams and day (the provider says "AFC Ajax").
  const kickoff = new Date(Math.ceil((Date.now() + 75_000) / 1000) * 1000).toISOString();
  const created = await request.post(`/api/groups/${group.id}/rounds`, {
    headers: await authHeaders(request, admin!),
    data: {
      name: 'Matchday 13',
      scoring: { exact: 3, difference: 2, tendency: 1 },
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

  // Before kick-off the admin sets the round's points to Kicktipp's, from the round's page.
  const adminPage = await openAs(browser, admin!, `/group/${group.id}/rounds/${round.id}`);
  await adminPage.getByRole('button', { name: 'Edit points' }).click();
  const sheet = adminPage.getByRole('dialog', { name: 'Round points' });
  await expect(sheet.getByLabel('Exact result')).toHaveValue('3');
  await sheet.getByLabel('Exact result').fill('4');
  await sheet.getByLabel('Right goal difference').fill('3');
  await sheet.getByLabel('Right tendency').fill('2');
  await shootRoundScreen(adminPage, 'scoring-sheet');
  await sheet.getByRole('button', { name: 'Save points' }).click();
  await expect(sheet).toHaveCount(0);
  await expect(
    adminPage.getByText('Exact result 4 · right difference 3 · right tendency 2'),
  ).toBeVisible();

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
  await shootRoundScreen(anaPage, 'round-results');

  // Once the round started its points are fixed: the admin is no longer offered the change.
  await adminPage.reload();
  await expect(adminPage.getByRole('heading', { name: 'Matchday 13' })).toBeVisible();
  await expect(adminPage.getByRole('button', { name: 'Edit points' })).toHaveCount(0);
  await adminPage.context().close();

  // The rounds list: the season's running total (no season runs: the group's rounds).
  await anaPage.goto(`/group/${group.id}/rounds`);
  const total = anaPage.getByRole('table', { name: 'Season total' });
  await expect(
    total
      .getByRole('row', { name: new RegExp(ana!.person.displayName) })
      .getByRole('cell')
      .last(),
  ).toHaveText('4');
  await shootRoundScreen(anaPage, 'rounds-list');

  // The match's history says where the result came from.
  await anaPage.goto(`/bets/${ajax.betId}`);
  await expect(anaPage.getByRole('region', { name: 'History' })).toContainText(
    'Result from football-data.org',
  );
  await anaPage.context().close();
});
