import pg from 'pg';
import { hashPassword } from '../../../src/server/auth/tokens';

// The scale benchmark's data (scale.bench.ts): a whole service's worth of players, groups, bets
// in every state, wagers, the ledger, comments, seasons and inbox entries, written by
// `generate_series` inside PostgreSQL so the largest size takes minutes. The seeding session
// runs with `session_replication_role = replica` (no triggers, no foreign-key checks), so it
// fills by itself what the triggers would: each mirrored row's `version` from the change
// sequence (its `change_txid` defaults to the seeding transaction), a membership's public stamp.
// Every row satisfies the CHECK constraints, and every membership's points are its ledger's sums.
//
// Deterministic: the same size gives the same ids, and the bench finds its subjects by rule:
// - groups 1…big are the large groups (300 members), the rest have 5–12 members;
// - users 1…VIEWERS are the viewers, each also a member of 10 groups of its own
//   (big + (v − 1) × 10 + 1 …), 50 bets each: the "10 × 50 player";
// - the 2 × DUE groups after those hold the jobs' due rows, the same at every size, so a
//   pass that costs in proportion to what is due stays flat as the tables grow.
// Bet slot i (0…49) of every group fixes its state: 0–29 resolved (over the last 60 days),
// 30–37, 48, 49 open, 38 closed and awaiting resolution (one group in five, else resolved),
// 39–43 expired, 44–46 cancelled, 47 a draft.

export interface ScaleSize {
  name: string;
  users: number;
  groups: number;
  /** Groups of 300 members. */
  bigGroups: number;
}

export const BETS_PER_GROUP = 50;
export const BIG_GROUP_MEMBERS = 300;
export const VIEWERS = 20;
export const VIEWER_GROUPS = 10;
/** Due rows of each job (per kind), the same at every size. */
export const DUE = 20;
export const DUE_SEASONS = 5;
export const DEFAULT_POINTS = 1000;
export const BASE_WAGER = 2;
export const PASSWORD = 'bench-password-1';

export function scaleSize(name: string, fraction: number): ScaleSize {
  return {
    name,
    users: Math.round(200_000 * fraction),
    groups: Math.round(40_000 * fraction),
    // The same at every size, so the due rows (after them) are in groups of the same sizes.
    bigGroups: 20,
  };
}

/** The first group of the due rows (after the big groups and the viewers' groups). */
export function firstDueGroup(size: ScaleSize): number {
  return size.bigGroups + VIEWERS * VIEWER_GROUPS + 1;
}

export async function seedScale(url: string, size: ScaleSize, log: (m: string) => void) {
  if (size.groups < firstDueGroup(size) + 2 * DUE + 400)
    throw new Error(
      `scale size ${size.name}: at least ${firstDueGroup(size) + 2 * DUE + 400} groups`,
    );
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const passwordHash = await hashPassword(PASSWORD);
  const step = async (label: string, text: string, params: unknown[] = []) => {
    const t0 = performance.now();
    const result = await client.query(text, params);
    log(
      `  ${label}: ${result.rowCount ?? 0} rows, ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
  };
  const U = size.users;
  const G = size.groups;
  const B = size.bigGroups;
  const dueFrom = firstDueGroup(size);
  const dueTo = dueFrom + DUE - 1;
  // The floor top-up's due members are in the next DUE groups, which no other job touches.
  const floorFrom = dueTo + 1;
  const floorTo = dueTo + DUE;
  try {
    await client.query(`set session_replication_role = replica`);
    await client.query(`set synchronous_commit = off`);
    await client.query(`set work_mem = '256MB'`);
    await client.query(`set maintenance_work_mem = '512MB'`);
    // One instant for every relative time, so the slots' states hold for the whole run.
    await client.query(`create temp table t0 as select now() as now`);

    await step(
      'users',
      `insert into users (id, app_name, email, password_hash, display_name, first_name, created_at, updated_at)
       select u, 'hunch', 'p' || u || '@bench.test', $1, 'Player ' || u, 'Player', t0.now - interval '90 days', t0.now - interval '90 days'
       from generate_series(1, ${U}) u, t0`,
      [passwordHash],
    );

    // Who is in which group: member k of group g, k = 0 being its admin and creator.
    await step(
      'members (staging)',
      `create temp table m as
       select g, k, case when g <= ${B} then ((g::bigint * 7919 + k) % ${U}) + 1
                         else ((g::bigint * 12 + k) % ${U}) + 1 end as u
       from generate_series(1, ${G}) g,
            lateral generate_series(0, case when g <= ${B} then ${BIG_GROUP_MEMBERS - 1} else 4 + (g * 37) % 8 end) k`,
    );
    await step(
      'viewers (staging)',
      `insert into m (g, k, u)
       select ${B} + (v - 1) * ${VIEWER_GROUPS} + j, 1000, v
       from generate_series(1, ${VIEWERS}) v, generate_series(1, ${VIEWER_GROUPS}) j
       where not exists (select 1 from m where m.g = ${B} + (v - 1) * ${VIEWER_GROUPS} + j and m.u = v)`,
    );
    await client.query(`create index on m (g, u)`);
    await client.query(`analyze m`);

    await step(
      'groups',
      `insert into groups (id, name, privacy, default_points, created_by_user_id, created_at, updated_at, version)
       select m.g, 'Group ' || m.g, 'public', ${DEFAULT_POINTS}, m.u, t0.now - interval '90 days', t0.now - interval '90 days', nextval('hunch_change_seq')
       from m, t0 where m.k = 0 order by m.g`,
    );

    // Bets: slot i of group g is bet (g − 1) × 50 + i + 1; see the header for the slots.
    await step(
      'bets',
      `insert into bets (id, group_id, title, bet_type, bet_type_config, base_wager_amount, state, expires_at,
                         correct_answer, resolved_at, resolved_by, members_at_resolution, picks_revealed_at,
                         created_by, created_at, updated_at, version)
       select b.id, b.g, 'Will event ' || b.id || ' happen?', 'yes_no', '{}'::jsonb, ${BASE_WAGER}, b.state, b.expires_at,
              case when b.state = 'resolved' then case when b.id % 2 = 0 then 'yes' else 'no' end end,
              case when b.state = 'resolved' then b.expires_at + interval '1 hour' end,
              case when b.state = 'resolved' then a.u end,
              case when b.state = 'resolved' then s.members end,
              case when b.revealed then b.expires_at end,
              a.u, b.created_at, b.created_at, nextval('hunch_change_seq')
       from (
         select (g - 1) * ${BETS_PER_GROUP} + i + 1 as id, g, i, x.*
         from generate_series(1, ${G}) g, generate_series(0, ${BETS_PER_GROUP - 1}) i, t0,
         lateral (select
           case
             when g between ${dueFrom} and ${dueTo} and i in (37, 48, 49) then 'active'
             when i < 30 or (i = 38 and g % 5 <> 0) then 'resolved'
             when i between 39 and 43 then 'expired'
             when i between 44 and 46 then 'cancelled'
             when i = 47 then 'draft'
             else 'active' end as state,
           case
             when g between ${dueFrom} and ${dueTo} and i = 37 then t0.now + interval '1 hour'
             when g between ${dueFrom} and ${dueTo} and i = 48 then t0.now - interval '8 days'
             when g between ${dueFrom} and ${dueTo} and i = 49 then t0.now - interval '1 hour'
             when i < 30 then t0.now - (i * 2 + 1 + g % 2) * interval '1 day' - interval '2 hours'
             when i = 38 and g % 5 <> 0 then t0.now - interval '1 day' - interval '2 hours'
             when i = 38 then t0.now - interval '2 days'
             when i between 39 and 46 then t0.now - (i - 30) * interval '1 day' - interval '7 days'
             else t0.now + (i % 10 + 1) * interval '1 day' + (g % 60) * interval '1 minute' end as expires_at,
           (i < 30 or i between 38 and 46 or (g between ${dueFrom} and ${dueTo} and i = 48)) as revealed
         ) x0,
         lateral (select x0.state, x0.expires_at, x0.revealed,
                         case when x0.expires_at > t0.now then t0.now - interval '3 days'
                              else x0.expires_at - interval '3 days' end as created_at) x
       ) b
       join m a on a.g = b.g and a.k = 0
       join (select g, count(*)::int as members from m group by g) s on s.g = b.g
       order by b.id`,
    );

    // Wagers: a member plays a bet with a chance of 47 % (4 a bet on average), everyone in a
    // big group plays its open bets; drafts have none. Points 2, 4 or 6 (the base × 1, 2, 3).
    await step(
      'wagers',
      `insert into wagers (bet_id, user_id, prediction, points, created_at, updated_at, version)
       select b.id, m.u,
              case when (b.id::bigint * 31 + m.u) % 2 = 0 then 'yes' else 'no' end,
              ${BASE_WAGER} * (1 + (b.id::bigint * 17 + m.u * 13) % 3),
              b.created_at + interval '1 hour', b.created_at + interval '1 hour', nextval('hunch_change_seq')
       from bets b join m on m.g = b.group_id
       where b.state <> 'draft'
         and (   (b.group_id <= ${B} and b.state = 'active' and b.expires_at > (select now from t0))
              or (b.id::bigint * 2654435761 + m.u::bigint * 40503) % 100 < 47)
       order by b.id, m.u`,
    );

    // The ledger: each membership's grant, each wager's stake, and how each settled bet paid
    // (a winner twice the stake, a loser nothing; expired and cancelled bets refund).
    await step(
      'ledger: grants',
      `insert into ledger (group_id, user_id, kind, total_delta, available_delta, created_at)
       select m.g, m.u, 'join_grant', ${DEFAULT_POINTS}, ${DEFAULT_POINTS}, t0.now - interval '90 days' from m, t0 order by m.g, m.u`,
    );
    await step(
      'ledger: stakes',
      `insert into ledger (group_id, user_id, kind, total_delta, available_delta, bet_id, wager_id, created_at)
       select b.group_id, w.user_id, 'wager_placed', 0, -w.points, b.id, w.id, w.created_at
       from wagers w join bets b on b.id = w.bet_id order by w.id`,
    );
    await step(
      'ledger: settlements',
      `insert into ledger (group_id, user_id, kind, total_delta, available_delta, bet_id, wager_id, created_at)
       select b.group_id, w.user_id,
              case when b.state = 'resolved' then 'payout' else 'refund' end,
              case when b.state <> 'resolved' then 0 when w.prediction = b.correct_answer then w.points else -w.points end,
              case when b.state <> 'resolved' then w.points when w.prediction = b.correct_answer then 2 * w.points else 0 end,
              b.id, w.id, coalesce(b.resolved_at, b.expires_at + interval '7 days')
       from wagers w join bets b on b.id = w.bet_id
       where b.state in ('resolved', 'expired', 'cancelled') order by w.id`,
    );
    // The floor top-up's due members: the admins of the next groups, after a season's reset
    // that left them 1 point available.
    await step(
      'ledger: floor top-up due',
      `insert into ledger (group_id, user_id, kind, total_delta, available_delta, created_at)
       select l.group_id, l.user_id, 'season_reset', 1 - sum(l.available_delta), 1 - sum(l.available_delta), t0.now - interval '1 day'
       from ledger l join m on m.g = l.group_id and m.u = l.user_id and m.k = 0, t0
       where l.group_id between ${floorFrom} and ${floorTo}
       group by l.group_id, l.user_id, t0.now`,
    );

    await step(
      'memberships',
      `insert into memberships (group_id, user_id, role, total_points, available_points, joined_at, updated_at, version, public_version)
       select x.g, x.u, x.role, x.total, x.available, x.at, x.at, x.v, x.v
       from (select m.g, m.u, case when m.k = 0 then 'admin' else 'member' end as role,
                    l.total::int, l.available::int, t0.now - interval '90 days' as at, nextval('hunch_change_seq') as v
             from m
             join (select group_id, user_id, sum(total_delta) as total, sum(available_delta) as available
                   from ledger group by group_id, user_id) l on l.group_id = m.g and l.user_id = m.u,
             t0
             order by m.g, m.u) x`,
    );

    // A bet's history: how each settled bet ended (the kinds the jobs and the admins write).
    await step(
      'bet history',
      `insert into bet_history (bet_id, group_id, kind, actor_id, correct_answer, created_at, version)
       select b.id, b.group_id, b.state, case when b.state = 'expired' then null else b.created_by end,
              b.correct_answer, coalesce(b.resolved_at, b.expires_at + interval '7 days'), nextval('hunch_change_seq')
       from bets b where b.state in ('resolved', 'expired', 'cancelled') order by b.id`,
    );
    await step(
      'comments',
      `insert into bet_comments (bet_id, group_id, user_id, text, created_at, version)
       select b.id, b.group_id, b.created_by, 'What do you all think about event ' || b.id || '?',
              b.created_at + interval '2 hours', nextval('hunch_change_seq')
       from bets b where b.id % 4 = 0 and b.state <> 'draft' order by b.id`,
    );

    // The inbox: each player's results of the five latest resolved bets of each group (the
    // older ones read), and the resolve reminders already sent today for bets awaiting one.
    await step(
      'inbox: results',
      `insert into notifications (user_id, kind, group_id, bet_id, key, coalesces, payload, created_at, updated_at, read_at, version)
       select w.user_id, 'betResult', b.group_id, b.id, 'betResult:bet:' || b.id, false,
              jsonb_build_object('groupName', 'Group ' || b.group_id, 'betTitle', b.title, 'outcome', 'resolved',
                                 'answer', b.correct_answer, 'wagerAmount', w.points,
                                 'winnings', case when w.prediction = b.correct_answer then 2 * w.points else 0 end),
              b.resolved_at, b.resolved_at, case when (b.id - 1) % ${BETS_PER_GROUP} >= 2 then b.resolved_at + interval '1 hour' end,
              nextval('hunch_change_seq')
       from bets b join wagers w on w.bet_id = b.id
       where b.state = 'resolved' and (b.id - 1) % ${BETS_PER_GROUP} < 5 order by b.id, w.user_id`,
    );
    await step(
      'inbox: resolve reminders',
      `insert into notifications (user_id, kind, group_id, bet_id, key, coalesces, payload, created_at, updated_at, version)
       select b.created_by, 'resolveReminder', b.group_id, b.id, 'resolveReminder:bet:' || b.id, false,
              jsonb_build_object('groupName', 'Group ' || b.group_id, 'betTitle', b.title),
              t0.now - interval '1 hour', t0.now - interval '1 hour', nextval('hunch_change_seq')
       from bets b, t0
       where b.state = 'active' and b.expires_at <= t0.now and b.picks_revealed_at is not null
         and b.expires_at > t0.now - interval '7 days' order by b.id`,
    );
    // The resolve reminders' schedule, as the bets' writers and the job keep it: each active
    // bet due at its close, or a day after the reminder above (domain resolveReminderDueAt).
    await step(
      'resolve reminders schedule',
      `insert into resolve_reminders (bet_id, due_at)
       select b.id, greatest(b.expires_at, (
         select max(n.updated_at) + interval '1 day' from notifications n
         where n.user_id = b.created_by and n.key = 'resolveReminder:bet:' || b.id and not n.coalesces))
       from bets b where b.state = 'active' order by b.id`,
    );

    // Seasons: one group in four runs one (ending in 10 days); the first due groups' seasons
    // ended an hour ago.
    await step(
      'seasons',
      `insert into seasons (group_id, name, starts_at, ends_at, reset_points, created_by, created_at, version)
       select g.id, 'Season of ' || g.id, t0.now - interval '20 days',
              case when g.id between ${dueFrom} and ${dueFrom + DUE_SEASONS - 1} then t0.now - interval '1 hour' else t0.now + interval '10 days' end,
              g.id % 2 = 0, g.created_by_user_id, t0.now - interval '20 days', nextval('hunch_change_seq')
       from groups g, t0
       where g.id % 4 = 0 or g.id between ${dueFrom} and ${dueFrom + DUE_SEASONS - 1} order by g.id`,
    );

    for (const table of [
      'users',
      'groups',
      'bets',
      'wagers',
      'ledger',
      'bet_history',
      'bet_comments',
      'notifications',
      'seasons',
    ])
      await client.query(
        `select setval(pg_get_serial_sequence('${table}', 'id'), (select coalesce(max(id), 1) from ${table}))`,
      );
    await client.query(`reset session_replication_role`);
    const t0 = performance.now();
    // A live database is vacuumed and analyzed by autovacuum; a freshly filled one is neither.
    await client.query(`vacuum (analyze)`);
    log(`  vacuum analyze: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  } finally {
    await client.end();
  }
}

/** The bench's subjects, found by the seeding's rules. */
export interface ScaleSubjects {
  viewerIds: number[];
  /** A viewer's groups (10 × 50 bets) and one of each group's members besides the viewer. */
  viewerGroups: { groupId: number; friendId: number; openBetIds: number[] }[];
  bigGroups: { groupId: number; adminId: number; memberIds: number[]; openBetIds: number[] }[];
  /** Pairs for a first wager: a member of a small group and an open bet they have not played. */
  wagerPairs: { userId: number; betId: number }[];
  /** Resolved bets with a comment, for the bet page. */
  betPages: { userId: number; betId: number }[];
}

export async function findSubjects(url: string, size: ScaleSize): Promise<ScaleSubjects> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const viewerIds = Array.from({ length: VIEWERS }, (_, index) => index + 1);
    const viewerGroups = (
      await client.query<{ group_id: number; friend_id: number; open: number[] }>(
        `select g.id as group_id,
                (select user_id from memberships where group_id = g.id and user_id <> 1 order by user_id limit 1) as friend_id,
                array(select id from bets where group_id = g.id and state = 'active' and expires_at > now() order by id) as open
         from groups g where g.id between $1 and $2 order by g.id`,
        [size.bigGroups + 1, size.bigGroups + VIEWER_GROUPS],
      )
    ).rows.map((row) => ({ groupId: row.group_id, friendId: row.friend_id, openBetIds: row.open }));
    const bigGroups = (
      await client.query<{ group_id: number; admin_id: number; members: number[]; open: number[] }>(
        `select g.id as group_id, g.created_by_user_id as admin_id,
                array(select user_id from memberships where group_id = g.id order by user_id) as members,
                array(select id from bets where group_id = g.id and state = 'active' and expires_at > now() order by id) as open
         from groups g where g.id <= $1 order by g.id`,
        [size.bigGroups],
      )
    ).rows.map((row) => ({
      groupId: row.group_id,
      adminId: row.admin_id,
      memberIds: row.members,
      openBetIds: row.open,
    }));
    const firstSmall = firstDueGroup(size) + 2 * DUE;
    const wagerPairs = (
      await client.query<{ user_id: number; bet_id: number }>(
        `select m.user_id, b.id as bet_id
         from bets b join memberships m on m.group_id = b.group_id
         where b.group_id between $1 and $1 + 400 and b.state = 'active' and b.expires_at > now() + interval '1 day'
           and not exists (select 1 from wagers w where w.bet_id = b.id and w.user_id = m.user_id)
         order by (b.id * 7 + m.user_id) % 101, b.id, m.user_id limit 400`,
        [firstSmall],
      )
    ).rows.map((row) => ({ userId: row.user_id, betId: row.bet_id }));
    const betPages = (
      await client.query<{ user_id: number; bet_id: number }>(
        `select b.created_by as user_id, b.id as bet_id from bets b
         where b.group_id between $1 and $1 + 200 and b.state = 'resolved' and b.id % 4 = 0 order by b.id limit 200`,
        [firstSmall],
      )
    ).rows.map((row) => ({ userId: row.user_id, betId: row.bet_id }));
    return { viewerIds, viewerGroups, bigGroups, wagerPairs, betPages };
  } finally {
    await client.end();
  }
}
