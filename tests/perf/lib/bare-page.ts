import type { MirrorPullResponse } from '../../../src/client/data/synced-tables';
import { openHunchDb, type BetRow } from '../../../src/client/data/db';
import { SETTINGS_ROW_ID } from '../../../src/client/data/synced-tables';

// The bare reference page of the cold-start and sync benchmarks, bundled by `bundleBarePage`
// (bare-reference.ts) and served by the bench's server at /api/bench/bare: no framework, the
// app's own IndexedDB schema (openHunchDb), the session the app stored. Never part of the
// product's build.
//   ?mode=read&view=dashboard     the dashboard's rows (the player's memberships, the open bets
//                                 of their groups, the groups' names, their wagers), one <li> a bet
//   ?mode=read&view=group&id=…    a group's bets and the player's wagers on them
//   ?mode=read&view=bet&id=…      a bet with its group, the player's membership, wager,
//                                 comments, history and statistics
//   ?mode=write                   the first sync's pull, each page's rows put in one transaction
//                                 (bulkPut into the same stores), a macrotask between pages
// Sets BARE_DONE_MARK when the rows are drawn or written.

const BARE_DONE_MARK = 'hunch:bare-done';
const params = new URLSearchParams(location.search);
const db = openHunchDb();
const accessToken = localStorage.getItem('access_token') ?? '';
const userId = (JSON.parse(localStorage.getItem('user_data') ?? '{}') as { id: number }).id;
const list = document.getElementById('rows')!;

function item(...parts: (string | number | undefined)[]): HTMLLIElement {
  const li = document.createElement('li');
  li.textContent = parts.filter((part) => part !== undefined && part !== '').join(' · ');
  return li;
}

async function readDashboard(): Promise<HTMLLIElement[]> {
  const groupIds = (await db.memberships.where('userId').equals(userId).toArray()).map(
    (membership) => membership.groupId,
  );
  const [bets, groups, wagers] = await Promise.all([
    db.bets.where('groupId').anyOf(groupIds).toArray(),
    db.groups.bulkGet(groupIds),
    db.wagers.where('userId').equals(userId).toArray(),
  ]);
  const names = new Map(groups.flatMap((group) => (group ? [[group.id, group.name]] : [])));
  const wagered = new Map(wagers.map((wager) => [wager.betId, wager.points]));
  const now = new Date().toISOString();
  return bets
    .filter((bet) => bet.state === 'active' && bet.expiresAt > now)
    .sort((a, b) => a.expiresAt.localeCompare(b.expiresAt))
    .map((bet: BetRow) => item(bet.title, names.get(bet.groupId), wagered.get(bet.id)));
}

async function readGroup(groupId: number): Promise<HTMLLIElement[]> {
  const [group, bets, wagers] = await Promise.all([
    db.groups.get(groupId),
    db.bets.where('groupId').equals(groupId).toArray(),
    db.wagers.where('userId').equals(userId).toArray(),
  ]);
  const wagered = new Map(wagers.map((wager) => [wager.betId, wager.points]));
  return bets
    .sort((a, b) => a.expiresAt.localeCompare(b.expiresAt))
    .map((bet) => item(bet.title, group?.name, bet.state, wagered.get(bet.id)));
}

async function readBet(betId: number): Promise<HTMLLIElement[]> {
  const bet = await db.bets.get(betId);
  if (!bet) return [];
  const [group, membership, wager, comments, history, statistics] = await Promise.all([
    db.groups.get(bet.groupId),
    db.memberships.get([bet.groupId, userId]),
    db.wagers.where('[betId+userId]').equals([betId, userId]).first(),
    db.comments.where('betId').equals(betId).toArray(),
    db.betHistory.where('betId').equals(betId).toArray(),
    db.betStatistics.get(betId),
  ]);
  return [
    item(bet.title, group?.name, membership?.availablePoints, wager?.points),
    ...comments.map((comment) => item(comment.text)),
    ...history.map((entry) => item(entry.kind)),
    ...(statistics ? [item(JSON.stringify(statistics.statistics))] : []),
  ];
}

async function writeFirstSync(): Promise<void> {
  for (let cursor = '0'; ;) {
    const response = await fetch(`/api/member/state?cursor=${encodeURIComponent(cursor)}`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    const page = (await response.json()) as MirrorPullResponse;
    await db.transaction('rw', db.tables, async () => {
      await Promise.all([
        db.groups.bulkPut(page.groups),
        db.memberships.bulkPut(page.memberships),
        db.bets.bulkPut(page.bets),
        db.wagers.bulkPut(page.wagers),
        db.betStatistics.bulkPut(page.statistics),
        db.comments.bulkPut(page.comments ?? []),
        db.betHistory.bulkPut(page.betHistory ?? []),
        db.seasons.bulkPut(page.seasons ?? []),
        db.notifications.bulkPut(page.notifications ?? []),
        page.notificationSettings
          ? db.notificationSettings.put({ ...page.notificationSettings, id: SETTINGS_ROW_ID })
          : undefined,
        db.meta.put({ key: 'bareCursor', value: page.cursor }),
      ]);
    });
    cursor = page.cursor;
    if (!page.hasMore) return;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

async function main() {
  if (params.get('mode') === 'write') {
    await writeFirstSync();
  } else {
    const view = params.get('view');
    const id = Number(params.get('id'));
    const items =
      view === 'group'
        ? await readGroup(id)
        : view === 'bet'
          ? await readBet(id)
          : await readDashboard();
    list.append(...items);
  }
  performance.mark(BARE_DONE_MARK);
}

void main();
