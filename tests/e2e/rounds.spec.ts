import { expect, type APIRequestContext } from '@playwright/test';
import { test } from './fixtures';
import { resolveViaApi } from './bets.helpers';
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

// A tipping round as players walk it (docs/rules.md "Tipping rounds"): an admin imports a
// 9-match round from CSV in the New round sheet, three players tip (one on a train: offline,
// then back, the tips land once), kick-off passes, the results come in, and the round's table
// scores 4/3/2/0 with its Matchday winner, also marked on the leaderboard. Other players' tips
// are seeded through the API: the walk-through is the admin's import and one player's tips.

test.use({ viewport: { width: 390, height: 844 } });

const TEAMS = [
  ['Ajax', 'PSV'],
  ['AZ', 'Twente'],
  ['Utrecht', 'Heerenveen'],
  ['Feyenoord', 'Vitesse'],
  ['Sparta', 'NEC'],
  ['Groningen', 'Willem II'],
  ['Go Ahead', 'Heracles'],
  ['Fortuna', 'Almere'],
  ['Zwolle', 'Waalwijk'],
] as const;

/** The next whole minute at least 40 s away, as the CSV's UTC date and time cells. */
function nearKickoff(): { date: string; time: string; at: number } {
  const at = Math.ceil((Date.now() + 40_000) / 60_000) * 60_000;
  const iso = new Date(at).toISOString();
  return { date: iso.slice(0, 10), time: iso.slice(11, 16), at };
}

type RoundAnswer = {
  id: number;
  matches: { betId: number; home: string }[];
  table: { userId: number; points: number; exact: number; difference: number; tendency: number }[];
  matchdayWinners: number[];
};

async function readRound(request: APIRequestContext, player: Player, groupId: number) {
  const headers = await authHeaders(request, player);
  const list = (await (await request.get(`/api/groups/${groupId}/rounds`, { headers })).json()) as {
    rounds: { id: number }[];
  };
  expect(list.rounds).toHaveLength(1);
  const response = await request.get(`/api/groups/${groupId}/rounds/${list.rounds[0]!.id}`, {
    headers,
  });
  return (await response.json()) as RoundAnswer;
}

test('an imported round is tipped (offline too), closes at kick-off and crowns its Matchday winner', async ({
  browser,
  request,
}) => {
  const [admin, ana, ben, cat] = await Promise.all([0, 1, 2, 3].map(() => registerPlayer(request)));
  const group = await createGroupViaApi(request, admin!, { name: uniqueGroupName('Tippers') });
  for (const player of [ana!, ben!, cat!]) await joinViaApi(request, player, group.name);

  // The admin imports the fixture list; a bad line first is refused, naming line and field.
  const adminPage = await openAs(browser, admin!, `/group/${group.id}/rounds`);
  await adminPage.getByRole('button', { name: 'New round' }).click();
  const sheet = adminPage.getByRole('dialog', { name: 'New round' });
  await sheet.getByLabel('Round name').fill('Matchday 12');
  const kickoff = nearKickoff();
  const lines = TEAMS.map(([home, away]) => `${kickoff.date},${kickoff.time},${home},${away}`);
  const csv = sheet.getByLabel('Paste CSV');
  await csv.fill(['date,time,home,away', ...lines.slice(0, 2), '2026-13-40,15:30,A,B'].join('\n'));
  await sheet.getByRole('button', { name: 'Create round' }).click();
  await expect(sheet.getByText('Line 4, date:')).toBeVisible();
  await shootRoundScreen(adminPage, 'new-round-sheet');
  await csv.fill(['date,time,home,away', ...lines].join('\n'));
  await sheet.getByRole('button', { name: 'Create round' }).click();
  await expect(sheet).toHaveCount(0);
  const round = await readRound(request, admin!, group.id);
  expect(round.matches).toHaveLength(9);

  // Ben and Cat tip through the API; Ana on her phone, offline on a train.
  for (const match of round.matches) await tipViaApi(request, ben!, match.betId, '1-0');
  await tipViaApi(request, cat!, round.matches[0]!.betId, '3-0');
  await tipViaApi(request, cat!, round.matches[1]!.betId, '0-2');
  const anaPage = await openAs(browser, ana!, `/group/${group.id}/rounds/${round.id}`);
  await expect(anaPage.getByRole('heading', { name: 'Matchday 12' })).toBeVisible();
  await anaPage.context().setOffline(true);
  for (const [home, away] of TEAMS) {
    await anaPage.getByLabel(`${home} goals`, { exact: true }).fill('2');
    await anaPage.getByLabel(`${away} goals`, { exact: true }).fill('1');
  }
  await shootRoundScreen(anaPage, 'round-tips');
  await anaPage.getByRole('button', { name: 'Save tips' }).click();
  await expect(
    anaPage.getByText("You're offline. Your tip will be sent when you're back.").first(),
  ).toBeVisible();
  await anaPage.context().setOffline(false);

  // Kick-off passes: the matches close, and everyone's tips show (Ana's once each).
  await expect(anaPage.getByText('Closed').first()).toBeVisible({ timeout: 120_000 });
  const firstTips = anaPage.getByRole('list', { name: 'Tips on Ajax – PSV' });
  await expect
    .poll(async () => (await firstTips.textContent()) ?? '', { timeout: 30_000 })
    .toContain('2-1');
  await expect(firstTips.getByRole('listitem')).toHaveCount(3);

  // Full time: every match 2-1.
  for (const match of round.matches) await resolveViaApi(request, admin!, match.betId, '2-1');
  const scored = await readRound(request, admin!, group.id);
  const lineOf = (player: Player) => scored.table.find((line) => line.userId === player.id);
  expect(lineOf(ana!)).toMatchObject({ points: 36, exact: 9, difference: 0, tendency: 0 });
  expect(lineOf(ben!)).toMatchObject({ points: 27, exact: 0, difference: 9, tendency: 0 });
  expect(lineOf(cat!)).toMatchObject({ points: 2, exact: 0, difference: 0, tendency: 1 });
  expect(lineOf(admin!)).toMatchObject({ points: 0 });
  expect(scored.matchdayWinners).toEqual([ana!.id]);

  // The round's table on Ana's phone, from her mirror: the same points, and her mark.
  const table = anaPage.getByRole('table', { name: 'Matchday 12 table' });
  const anaRow = table.getByRole('row', { name: new RegExp(ana!.person.displayName) });
  await expect(anaRow).toContainText('Matchday winner');
  await expect(anaRow.getByRole('cell').last()).toHaveText('36');
  await expect(table.getByRole('row', { name: new RegExp(ben!.person.displayName) })).toContainText(
    '27',
  );
  await expect(table.getByRole('row', { name: new RegExp(cat!.person.displayName) })).toContainText(
    '2',
  );
  await shootRoundScreen(anaPage, 'round-table');

  await anaPage.goto('/leaderboard');
  const board = anaPage.getByRole('row', { name: new RegExp(ana!.person.displayName) });
  await expect(board).toContainText('Matchday winner');
  await shootRoundScreen(anaPage, 'leaderboard');
});
