// @vitest-environment node
import '../node-browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import type { Bet } from '../../../src/domain/bets';
import { isBettingOpen } from '../../../src/domain/fair-resolution';
import { canDeleteComment, type Comment } from '../../../src/domain/comments';
import type { Group, GroupPrivacy } from '../../../src/domain/groups';
import {
  betPolicy,
  type BetPolicy,
  type BetViewer,
  type Verdict,
} from '../../../src/domain/policies/bet-policy';
import {
  deleteCommentRefusal,
  canManageGroup,
  canMute,
  manageGroupRefusal,
  muteRefusal,
  readGroupRefusal,
  type DeleteCommentRefusal,
  type GroupRole,
  type GroupViewer,
  type MemberRefusal,
} from '../../../src/domain/policies/group-policy';
import {
  createBet,
  DAY,
  expiresIn,
  NO_EXPIRY_TIMER,
  placeWager,
} from '../../server/bets/bet.factories';
import { createGroup, createPlayer, joinGroup } from '../../server/groups/group.factories';
import { useTestServer } from '../../server/harness';
import { refusalError } from '../../../src/server/groups/group-access';
import { createBetActions } from '../../../src/client/bets/bet-actions';
import { betPageFacts, mirrorPolicy } from '../../../src/client/bets/mirror-policy';
import { mirrorRole, rosterOf } from '../../../src/client/groups/use-groups';
import { openDevice, type Device } from './device.fixture';

// One rulebook, three columns: for every bet action × role × bet state, the server accepts
// exactly what the bet policy (src/domain/policies/bet-policy.ts) allows, and refuses the rest
// with the code the policy names; and the device offers exactly what the server accepts: the
// policy asked as the bet page asks it (mirror-policy.ts), from the rows a device pulled as that
// player (or, for a bet its mirror lacks, the page's own load of it). One server, one group and
// its users serve every case; a case the policy allows gets a bet of its own in that state (it
// changes it), the refusals share one.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const ROLES = ['creator', 'admin', 'member', 'former', 'outsider'] as const;
type Role = (typeof ROLES)[number];

const STATES = [
  'open',
  'closedAwaiting',
  'abandoned',
  'settledInUndo',
  'settledAfterUndo',
  'cancelled',
  'disputed',
  'openCreatorGone',
  'closedCreatorGone',
] as const;
type State = (typeof STATES)[number];

/** Each server call and the policy answer it must agree with. */
const ACTIONS = {
  wager: 'wager',
  resolve: 'resolve',
  cancel: 'cancel',
  undo: 'undo',
  dispute: 'dispute',
  dismissDispute: 'judgeDispute',
  reResolve: 'judgeDispute',
  seePicks: 'seePicks',
} as const satisfies Record<string, keyof BetPolicy>;
type Action = keyof typeof ACTIONS;

/**
 * Bets of their own per state for the cases the policy allows: with the member's and the former
 * member's wagers (to wager on, dispute or judge) and bare (to resolve, cancel or undo). All the
 * wagers of one state share one bet: they do not change its state.
 */
const SPARE_BETS: Record<State, { withWagers: number; bare: number }> = {
  open: { withWagers: 1, bare: 3 },
  closedAwaiting: { withWagers: 0, bare: 3 },
  abandoned: { withWagers: 0, bare: 4 },
  settledInUndo: { withWagers: 1, bare: 1 },
  settledAfterUndo: { withWagers: 1, bare: 0 },
  cancelled: { withWagers: 0, bare: 0 },
  disputed: { withWagers: 2, bare: 0 },
  openCreatorGone: { withWagers: 1, bare: 2 },
  closedCreatorGone: { withWagers: 0, bare: 2 },
};
/** The actions whose bet needs the wagers. */
const NEEDS_WAGERS = new Set<Action>(['wager', 'dispute', 'dismissDispute', 'reResolve']);

interface StateBets {
  /** Where refusals are tried: nothing changes it. */
  shared: Bet;
  withWagers: Bet[];
  bare: Bet[];
  /** The one bet every allowed wager of the state goes to. */
  wagerBet?: Bet;
}

const server = useTestServer({
  env: { ...NO_EXPIRY_TIMER.env, PICKS_REVEAL_INTERVAL_MS: '0', REMINDER_INTERVAL_MS: '0' },
});

let group: Group;
const users = {} as Record<Role | 'leaver', AuthResponse>;
const betsOf = {} as Record<State, StateBets>;
/** The member's and the former member's wager id on each bet. */
const wagerIds = new Map<number, Partial<Record<Role, number>>>();

async function ok(method: string, path: string, user: AuthResponse, body?: unknown) {
  const response = await server.request(method, path, { token: user.accessToken, body });
  if (response.status >= 300)
    throw new Error(`${method} ${path}: ${response.status} ${response.text}`);
  return response.body;
}

/** Bets by `creator`: the shared one and the spares of `state`, the member and the former member wagering where needed. */
async function makeBets(state: State, creator: AuthResponse, expiresAt: string): Promise<Bet[]> {
  const { withWagers, bare } = SPARE_BETS[state];
  return Promise.all(
    Array.from({ length: 1 + withWagers + bare }, async (_, index) => {
      const bet = await createBet(server, creator, group, { expiresAt });
      if (index > withWagers) return bet;
      const [memberWager, formerWager] = await Promise.all([
        placeWager(server, users.member, bet, 'yes', 1),
        placeWager(server, users.former, bet, 'no', 1),
      ]);
      wagerIds.set(bet.id, { member: memberWager.id, former: formerWager.id });
      return bet;
    }),
  );
}

const resolveAll = (made: Bet[], answer = 'yes') =>
  Promise.all(
    made.map((bet) =>
      ok('PUT', `/api/bets/${bet.id}/resolve`, users.creator, { correctAnswer: answer }),
    ),
  );

beforeAll(async () => {
  const players = await Promise.all(
    (['admin', 'creator', 'member', 'former', 'outsider', 'leaver'] as const).map(
      async (role) => [role, await createPlayer(server, role)] as const,
    ),
  );
  for (const [role, user] of players) users[role] = user;
  // The group's creator is its admin; the bet's creator is a plain member.
  group = await createGroup(server, users.admin, { privacy: 'private', inviteCode: 'RULEBOOK1' });
  for (const role of ['creator', 'member', 'former', 'leaver'] as const)
    await joinGroup(server, users[role], group, 'RULEBOOK1');

  // T0: bets that stay open, and bets that close within the hour (abandoned by the end).
  const made = {} as Record<State, Bet[]>;
  const later = expiresIn(server, 3 * DAY);
  const atFirst = [
    ['open', users.creator, later],
    ['settledInUndo', users.creator, later],
    ['settledAfterUndo', users.creator, later],
    ['cancelled', users.creator, later],
    ['disputed', users.creator, later],
    ['openCreatorGone', users.leaver, later],
    ['abandoned', users.creator, expiresIn(server, HOUR)],
  ] as const;
  await Promise.all(
    atFirst.map(async ([state, creator, expiresAt]) => {
      made[state] = await makeBets(state, creator, expiresAt);
    }),
  );

  // T0 + 25 h: results to dispute, and bets that close in five minutes.
  server.clock.advance(DAY + HOUR);
  await resolveAll([...made.settledAfterUndo, ...made.disputed]);
  await Promise.all(
    made.disputed.map((bet) =>
      ok('POST', `/api/bets/${bet.id}/dispute`, users.member, { reason: 'It said no.' }),
    ),
  );
  const soon = expiresIn(server, 5 * MINUTE);
  [made.closedAwaiting, made.closedCreatorGone] = await Promise.all([
    makeBets('closedAwaiting', users.creator, soon),
    makeBets('closedCreatorGone', users.leaver, soon),
  ]);

  // T0 + 25 h 20 min, when every case runs: fresh results, cancels, and the leavers gone.
  server.clock.advance(20 * MINUTE);
  await resolveAll(made.settledInUndo);
  await Promise.all(
    made.cancelled.map((bet) => ok('POST', `/api/bets/${bet.id}/cancel`, users.creator)),
  );
  for (const role of ['former', 'leaver'] as const)
    await ok('POST', `/api/groups/${group.id}/leave`, users[role]);

  group = (await ok('GET', `/api/groups/${group.id}`, users.admin)) as Group;
  for (const state of STATES) {
    const [first, ...spare] = made[state];
    const withWagers = spare.slice(0, SPARE_BETS[state].withWagers);
    const bare = spare.slice(withWagers.length);
    // As a client sees it: the server's own answer, read by a member.
    const shared = (await ok('GET', `/api/bets/${first!.id}`, users.member)) as Bet;
    betsOf[state] = { shared, withWagers, bare };
  }
  // Each player's device pulls its mirror now, before any case changes a bet.
  const now = server.clock.now().getTime();
  for (const role of ['admin', 'creator', 'member', 'former', 'outsider', 'leaver'] as const) {
    const device = await openDevice(server, users[role]);
    devices.push(device);
    await device.local.sync();
    await device.local.whenIdle();
    for (const state of STATES) {
      const betId = betsOf[state].shared.id;
      offeredBy.set(
        `${role} ${betId}`,
        await devicePolicy(device, users[role].user.id, betId, now),
      );
    }
  }
});

afterAll(async () => {
  await Promise.all(devices.splice(0).map((device) => device.close()));
});

const devices: Device[] = [];
/** What each player's device offers on each shared bet, by "role betId" (null: it shows no bet). */
const offeredBy = new Map<string, BetPolicy | null>();

/**
 * The policy as the bet page asks it on `device`: from the mirror's rows, or, for a bet the
 * mirror lacks, from the page's own load of it; null where that load is refused (the page then
 * shows no bet, and offers nothing).
 */
async function devicePolicy(
  device: Device,
  userId: number,
  betId: number,
  now: number,
): Promise<BetPolicy | null> {
  if (!(await device.db.bets.get(betId))) {
    const actions = createBetActions({
      db: device.db,
      api: device.api,
      session: device.session,
      local: device.local,
    });
    const loaded = await actions.loadBetContext(betId).then(
      () => true,
      () => false,
    );
    if (!loaded) return null;
  }
  const bet = (await device.db.bets.get(betId))!;
  const rows = {
    wager: await device.db.wagers.where('[betId+userId]').equals([betId, userId]).first(),
    membership: await device.db.memberships.get([bet.groupId, userId]),
    group: await device.db.groups.get(bet.groupId),
  };
  return mirrorPolicy(bet, betPageFacts(userId, bet, rows), now);
}

/** What `role`'s device offers for `action` on the shared bet of `state`. */
function deviceOffers(action: Action, role: Role, state: State): boolean {
  const who = role === 'creator' && state.endsWith('CreatorGone') ? 'leaver' : role;
  const policy = offeredBy.get(`${who} ${betsOf[state].shared.id}`);
  return Boolean(policy?.[ACTIONS[action]].allowed);
}

/** Who plays `role` on a bet in `state`: a departed creator's bets are the leaver's. */
function userOf(role: Role, state: State): AuthResponse {
  return role === 'creator' && state.endsWith('CreatorGone') ? users.leaver : users[role];
}

/** The policy, asked with what a client knows: the bet and the group as the server sends them. */
function policyOf(role: Role, state: State): BetPolicy {
  const bet = betsOf[state].shared;
  const user = userOf(role, state);
  const id = user.user.id;
  const viewer: BetViewer = {
    userId: id,
    role: group.admins.includes(id) ? 'admin' : group.memberUserIds.includes(id) ? 'member' : null,
    hasWagered: role === 'member' || role === 'former',
  };
  return betPolicy(
    viewer,
    bet,
    {
      isPublic: group.privacy === 'public',
      creatorIsMember: group.memberUserIds.includes(bet.createdBy),
      memberIds: group.memberUserIds,
      adminIds: group.admins,
      stakeholderIds: [users.member.user.id, users.former.user.id],
    },
    server.clock.now().getTime(),
  );
}

function callFor(action: Action, role: Role, bet: Bet) {
  const own = wagerIds.get(bet.id)?.[role];
  switch (action) {
    case 'wager':
      return own
        ? { method: 'PUT', path: `/api/bets/wagers/${own}`, body: { prediction: 'no', points: 2 } }
        : {
            method: 'POST',
            path: '/api/bets/wagers',
            body: { betId: bet.id, prediction: 'yes', points: 1 },
          };
    case 'resolve':
      return { method: 'PUT', path: `/api/bets/${bet.id}/resolve`, body: { correctAnswer: 'no' } };
    case 'cancel':
      return { method: 'POST', path: `/api/bets/${bet.id}/cancel` };
    case 'undo':
      return { method: 'POST', path: `/api/bets/${bet.id}/undo-resolution` };
    case 'dispute':
      return { method: 'POST', path: `/api/bets/${bet.id}/dispute`, body: { reason: 'Wrong.' } };
    case 'dismissDispute':
      return { method: 'POST', path: `/api/bets/${bet.id}/dispute/dismiss` };
    case 'reResolve':
      return {
        method: 'PUT',
        path: `/api/bets/${bet.id}/re-resolve`,
        body: { correctAnswer: 'no' },
      };
    case 'seePicks':
      return { method: 'GET', path: `/api/bets/${bet.id}/picks` };
  }
}

/** A bet in `state` for the case: one of its own when the policy lets it change the bet. */
function betFor(state: State, verdict: Verdict, action: Action): Bet {
  const bets = betsOf[state];
  if (!verdict.allowed || action === 'seePicks') return bets.shared;
  if (action === 'wager' && bets.wagerBet) return bets.wagerBet;
  const bet = (NEEDS_WAGERS.has(action) ? bets.withWagers : bets.bare).shift();
  if (!bet) throw new Error(`SPARE_BETS.${state} has too few bets for ${action}`);
  if (action === 'wager') bets.wagerBet = bet;
  return bet;
}

const outcome = (accepted: boolean, code: string | undefined) =>
  accepted ? 'accepted' : `refused ${code}`;

describe.each(Object.keys(ACTIONS) as Action[])('%s', (action) => {
  it('the server accepts exactly what the policy allows, for every role and bet state', async () => {
    const cases = STATES.flatMap((state) => ROLES.map((role) => ({ state, role })));
    const results = await Promise.all(
      cases.map(async ({ state, role }) => {
        const policy = policyOf(role, state);
        const verdict = policy[ACTIONS[action]];
        const bet = betFor(state, verdict, action);
        const { method, path, body } = callFor(action, role, bet);
        const response = await server.request(method, path, {
          token: userOf(role, state).accessToken,
          body,
        });
        expect(response.status, `${response.status} ${response.text}`).toBeLessThan(500);
        const accepted = response.status < 300;
        if (action === 'resolve') {
          // The "close betting now" step is offered exactly when resolving would settle an open bet.
          const wasOpen = isBettingOpen(betsOf[state].shared, server.clock.now().getTime());
          expect(policy.closeEarly.allowed, `closeEarly ${role} ${state}`).toBe(
            accepted && wasOpen,
          );
        }
        return {
          case: `${role} on ${state}`,
          server: outcome(accepted, (response.body as { code?: string }).code),
          policy: outcome(verdict.allowed, verdict.allowed ? undefined : verdict.code),
          device: deviceOffers(action, role, state) ? 'offered' : 'not offered',
          accepted,
        };
      }),
    );
    expect(results.filter((result) => result.server !== result.policy)).toEqual([]);
    expect(results.filter((result) => (result.device === 'offered') !== result.accepted)).toEqual(
      [],
    );
    // The table means something: every action is allowed somewhere and refused somewhere.
    expect(results.some((result) => result.policy === 'accepted')).toBe(true);
    expect(results.some((result) => result.policy !== 'accepted')).toBe(true);
  });
});

// The group's own rules, asked by the group page and the bet page alike
// (src/domain/policies/group-policy.ts, through the bet policy for a bet): reading a private and
// a public group and its bets, a bet's comments (reading them, writing one, deleting one's own
// and another's), muting the group or one of its bets, sharing a bet's public link, managing its
// seasons (starting one; ending one asks the same rule on both sides). Each for a
// current admin and member, a member who left, one an admin removed, and someone who never
// joined; the policy asked with the group as the server sends it, and each player's device
// offering exactly what the server accepts, from the mirror it pulled as that player.

const GROUP_ROLES = ['admin', 'member', 'former', 'removed', 'outsider'] as const;
type GroupRoleName = (typeof GROUP_ROLES)[number];

const GROUP_ACTIONS = [
  'readGroup',
  'readBet',
  'readComments',
  'comment',
  'deleteOwnComment',
  'deleteOthersComment',
  'muteGroup',
  'muteBet',
  'shareBet',
  'startSeason',
] as const;
type GroupAction = (typeof GROUP_ACTIONS)[number];

describe('group rules', () => {
  const people = {} as Record<GroupRoleName, AuthResponse>;
  const places = {} as Record<GroupPrivacy, { group: Group; bet: Bet }>;
  /** Per group, a comment of each role's own (written while a member) and one of another's, for each role to delete. */
  const comments = {} as Record<
    GroupPrivacy,
    { own: Partial<Record<GroupRoleName, Comment>>; others: Record<GroupRoleName, Comment> }
  >;

  beforeAll(async () => {
    for (const role of GROUP_ROLES) people[role] = await createPlayer(server, role);
    for (const privacy of ['private', 'public'] as const) {
      const made = await createGroup(server, people.admin, { privacy });
      for (const role of ['member', 'former', 'removed'] as const)
        await joinGroup(server, people[role], made);
      const bet = await createBet(server, people.member, made, {
        expiresAt: expiresIn(server, 3 * DAY),
      });
      const write = async (author: AuthResponse) =>
        (await ok('POST', `/api/bets/${bet.id}/comments`, author, { text: 'Mine.' })) as Comment;
      comments[privacy] = { own: {}, others: {} as Record<GroupRoleName, Comment> };
      for (const role of GROUP_ROLES) {
        if (role !== 'outsider') comments[privacy].own[role] = await write(people[role]);
        comments[privacy].others[role] = await write(
          role === 'member' ? people.admin : people.member,
        );
      }
      await ok('POST', `/api/groups/${made.id}/leave`, people.former);
      await ok('DELETE', `/api/groups/${made.id}/members/${people.removed.user.id}`, people.admin);
      places[privacy] = {
        group: (await ok('GET', `/api/groups/${made.id}`, people.admin)) as Group,
        bet,
      };
    }
    // Each player's device pulls its mirror, then answers as its screens ask.
    const now = server.clock.now().getTime();
    for (const role of GROUP_ROLES) {
      const device = await openDevice(server, people[role]);
      devices.push(device);
      await device.local.sync();
      await device.local.whenIdle();
      const userId = people[role].user.id;
      for (const privacy of ['private', 'public'] as const) {
        const { group: known, bet } = places[privacy];
        const rows = {
          membership: await device.db.memberships.get([known.id, userId]),
          group: await device.db.groups.get(known.id),
        };
        groupOffers.set(`${role} ${privacy}`, {
          // The group page's role badge, Mute group and each comment's Delete.
          role: mirrorRole({ userId, ...rows }),
          // The bet page's: from the mirror, or from its own load of a bet the mirror lacks.
          bet: await devicePolicy(device, userId, bet.id, now),
          // The seasons page's Start and End (and the group page's settings).
          manages: Boolean(rows.group && canManageGroup(rosterOf(rows.group), userId)),
        });
      }
    }
  });

  /** What each role's device offers in each group, by "role privacy". */
  const groupOffers = new Map<
    string,
    { role: GroupRole; bet: BetPolicy | null; manages: boolean }
  >();

  /**
   * What `role`'s device offers for `action`; undefined where the device decides nothing
   * (reading a group: it shows what the server sent).
   */
  function groupDeviceOffers(
    action: GroupAction,
    role: GroupRoleName,
    privacy: GroupPrivacy,
  ): boolean | undefined {
    const offers = groupOffers.get(`${role} ${privacy}`)!;
    const userId = people[role].user.id;
    switch (action) {
      case 'readGroup':
        return undefined;
      case 'readBet':
        return Boolean(offers.bet?.read.allowed);
      case 'readComments':
      case 'comment':
        return Boolean(offers.bet?.comment.allowed);
      case 'deleteOwnComment':
      case 'deleteOthersComment':
        return canDeleteComment(commentFor(action, role, privacy), { userId, role: offers.role });
      case 'muteGroup':
        return canMute({ role: offers.role });
      case 'muteBet':
        return Boolean(offers.bet?.mute.allowed);
      case 'shareBet':
        return Boolean(offers.bet?.share.allowed);
      case 'startSeason':
        return offers.manages;
    }
  }

  const groupOutcome = (refusal: MemberRefusal | DeleteCommentRefusal | null) =>
    refusal ? `refused ${refusal}` : 'accepted';

  /** The policy's answer, asked with what a client knows: the group as the server sends it. */
  function groupPolicyOutcome(action: GroupAction, role: GroupRoleName, privacy: GroupPrivacy) {
    const { group: known, bet } = places[privacy];
    const id = people[role].user.id;
    const viewer: GroupViewer = {
      role: known.admins.includes(id)
        ? 'admin'
        : known.memberUserIds.includes(id)
          ? 'member'
          : null,
    };
    const visibility = { isPublic: known.privacy === 'public' };
    const policy = betPolicy(
      { userId: id, role: viewer.role, hasWagered: false },
      bet,
      {
        ...visibility,
        creatorIsMember: known.memberUserIds.includes(bet.createdBy),
        memberIds: known.memberUserIds,
        adminIds: known.admins,
        stakeholderIds: [],
      },
      server.clock.now().getTime(),
    );
    const verdictOutcome = (verdict: Verdict) =>
      outcome(verdict.allowed, verdict.allowed ? undefined : verdict.code);
    switch (action) {
      case 'readGroup':
        return groupOutcome(readGroupRefusal(viewer, visibility));
      case 'readBet':
        return verdictOutcome(policy.read);
      case 'readComments':
      case 'comment':
        return verdictOutcome(policy.comment);
      case 'deleteOwnComment':
      case 'deleteOthersComment': {
        const comment = commentFor(action, role, privacy);
        // The thread's Delete, as the bet page asks it.
        const isOffered = canDeleteComment(comment, { userId: id, role: viewer.role });
        return isOffered
          ? 'accepted'
          : groupOutcome(deleteCommentRefusal(viewer, comment.userId === id));
      }
      case 'muteGroup':
        return groupOutcome(muteRefusal(viewer));
      case 'muteBet':
        return verdictOutcome(policy.mute);
      case 'shareBet':
        return verdictOutcome(policy.share);
      case 'startSeason': {
        // The policy names why; the server answers with the code every client knows for it.
        const refusal = manageGroupRefusal(known, id);
        return refusal ? `refused ${refusalError(refusal).code}` : 'accepted';
      }
    }
  }

  function commentFor(action: GroupAction, role: GroupRoleName, privacy: GroupPrivacy): Comment {
    const comment =
      action === 'deleteOwnComment' ? comments[privacy].own[role] : comments[privacy].others[role];
    if (!comment) throw new Error(`no comment for ${action} by ${role}`);
    return comment;
  }

  function groupCallFor(
    action: GroupAction,
    role: GroupRoleName,
    privacy: GroupPrivacy,
    group: Group,
    bet: Bet,
  ) {
    switch (action) {
      case 'readGroup':
        return { method: 'GET', path: `/api/groups/${group.id}` };
      case 'readBet':
        return { method: 'GET', path: `/api/bets/${bet.id}` };
      case 'readComments':
        return { method: 'GET', path: `/api/bets/${bet.id}/comments` };
      case 'comment':
        return {
          method: 'POST',
          path: `/api/bets/${bet.id}/comments`,
          body: { text: 'By the book.' },
        };
      case 'deleteOwnComment':
      case 'deleteOthersComment': {
        return { method: 'DELETE', path: `/api/comments/${commentFor(action, role, privacy).id}` };
      }
      case 'muteGroup':
        return { method: 'PUT', path: `/api/groups/${group.id}/mute`, body: { muted: true } };
      case 'muteBet':
        return { method: 'PUT', path: `/api/bets/${bet.id}/mute`, body: { muted: true } };
      case 'shareBet':
        return { method: 'POST', path: `/api/bets/${bet.id}/share` };
      case 'startSeason':
        return {
          method: 'POST',
          path: `/api/groups/${group.id}/seasons`,
          body: {
            name: 'By the book',
            endsAt: new Date(server.clock.now().getTime() + 7 * DAY).toISOString(),
          },
        };
    }
  }

  it.each(GROUP_ACTIONS)(
    '%s: the server accepts exactly what the policy allows, for every role in a private and a public group',
    async (action) => {
      const cases = (['private', 'public'] as const).flatMap((privacy) =>
        GROUP_ROLES.flatMap((role) =>
          // Someone who never joined has no comment of their own.
          action === 'deleteOwnComment' && role === 'outsider' ? [] : [{ privacy, role }],
        ),
      );
      const results = await Promise.all(
        cases.map(async ({ privacy, role }) => {
          const { group: known, bet } = places[privacy];
          const { method, path, body } = groupCallFor(action, role, privacy, known, bet);
          const response = await server.request(method, path, {
            token: people[role].accessToken,
            body,
          });
          expect(response.status, `${response.status} ${response.text}`).toBeLessThan(500);
          const offered = groupDeviceOffers(action, role, privacy);
          return {
            case: `${role} of a ${privacy} group`,
            server: outcome(response.status < 300, (response.body as { code?: string }).code),
            policy: groupPolicyOutcome(action, role, privacy),
            device: offered === undefined ? 'decides nothing' : offered ? 'offered' : 'not offered',
          };
        }),
      );
      expect(results.filter((result) => result.server !== result.policy)).toEqual([]);
      expect(
        results.filter(
          (result) =>
            result.device !== 'decides nothing' &&
            (result.device === 'offered') !== (result.server === 'accepted'),
        ),
      ).toEqual([]);
      expect(results.some((result) => result.policy === 'accepted')).toBe(true);
      expect(results.some((result) => result.policy !== 'accepted')).toBe(true);
    },
  );
});
