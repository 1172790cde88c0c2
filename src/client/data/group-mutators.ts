import type {
  CreateGroupInput,
  Group,
  InviteCodeResponse,
  UpdateGroupRequest,
} from '../../domain/groups';
import type { AnswerContext, Mutator, MutatorContext } from './mutators';
import { stakeTiersOf } from '../../domain/stakes';

// The group writes as named mutators (data/mutators.ts, docs/architecture.md §8). Creating a group
// shows it at once under a temporary id with the creator holding the starting points; joining
// a group this device knows shows the membership; leaving takes the group and everything in it
// out of the mirror. The active group follows the answer (docs/groups-and-bets.md §4).

export interface CreateGroupArgs {
  tempId: number;
  input: CreateGroupInput;
}

export interface JoinPublicGroupArgs {
  privacy: 'public';
  groupName: string;
  /** The group, when this device knows it. */
  groupId?: number;
}

export interface JoinPrivateGroupArgs {
  privacy: 'private';
  groupId: number;
  inviteCode: string;
}

export type JoinGroupArgs = JoinPublicGroupArgs | JoinPrivateGroupArgs;

export interface LeaveGroupArgs {
  groupId: number;
}

export interface UpdateGroupArgs {
  groupId: number;
  changes: UpdateGroupRequest;
}

export interface RemoveMemberArgs {
  groupId: number;
  userId: number;
  /** For the sync status sheet. */
  userName: string;
}

export interface SetFloorTopUpArgs {
  groupId: number;
  floorTopUp: boolean;
}

export interface RotateInviteCodeArgs {
  groupId: number;
}

export interface AddBackMemberArgs {
  groupId: number;
  userId: number;
  /** For the sync status sheet and the member's row drawn at once. */
  userName: string;
}

/** The joined or created group becomes the active group (docs/groups-and-bets.md §4), with the points the mirror knows. */
async function activate(group: Group, context: AnswerContext) {
  const membership = await context.db.memberships.get([group.id, context.userId]);
  context.activeGroup.set({
    id: group.id,
    name: group.name,
    availablePoints: membership?.availablePoints ?? group.defaultPoints,
  });
}

export const createGroupMutator: Mutator<CreateGroupArgs, Group> = {
  name: 'createGroup',
  texts: {
    queued: "You're offline. Your group will be created when you're back.",
    refused: 'Failed to create group. Please try again.',
    label: 'New group',
  },
  describe: ({ input }) => input.name,
  push: ({ input }) => ({ body: input }),
  async apply({ tempId, input }, context) {
    const id = context.idFor(tempId);
    const group: Group = {
      id,
      name: input.name,
      description: input.description ?? null,
      privacy: input.privacy,
      ...(input.inviteCode !== undefined ? { inviteCode: input.inviteCode } : {}),
      defaultPoints: input.defaultPoints,
      stakeTiers: [...stakeTiersOf(input)],
      createdByUserId: context.userId,
      admins: [context.userId],
      memberUserIds: [context.userId],
      createdAt: context.now,
      updatedAt: context.now,
    };
    // Once numbered, the server's rows (if a pull brought them) are the truth.
    if (id > 0 && (await context.db.groups.get(id))) return;
    await context.put('groups', group);
    await context.put('memberships', {
      groupId: id,
      userId: context.userId,
      userName: context.userName,
      totalPoints: input.defaultPoints,
      availablePoints: input.defaultPoints,
      role: 'admin',
    });
  },
  numbered: ({ tempId }, group) => [tempId, group.id],
  async afterAnswer({ tempId }, group, context) {
    const active = context.activeGroup.getSnapshot();
    if (!active || active.id === tempId || active.id === group.id) await activate(group, context);
  },
};

/** A join: the membership shows at once when this device knows the group (a rejoin's old points come with the pull). */
async function drawJoin(args: JoinGroupArgs, context: MutatorContext) {
  const group =
    args.groupId !== undefined
      ? await context.db.groups.get(args.groupId)
      : args.privacy === 'public'
        ? await context.db.groups.where('name').equals(args.groupName).first()
        : undefined;
  if (
    !group ||
    group.defaultPoints === undefined ||
    (await context.db.memberships.get([group.id, context.userId]))
  )
    return;
  // A rejoin restores the old points: the server says so with the pull; until then, the starting points.
  await context.put('memberships', {
    groupId: group.id,
    userId: context.userId,
    userName: context.userName,
    totalPoints: group.defaultPoints,
    availablePoints: group.defaultPoints,
    role: 'member',
  });
}

const joinTexts = {
  queued: "You're offline. You'll join the group when you're back.",
  refused: 'Failed to join group. Please try again.',
  label: 'Joining a group',
};

/** Joining a public group by its name. */
export const joinPublicGroupMutator: Mutator<JoinPublicGroupArgs, Group> = {
  name: 'joinPublicGroup',
  texts: joinTexts,
  describe: ({ groupName }) => groupName,
  push: ({ groupName }) => ({ body: { groupName } }),
  apply: drawJoin,
  afterAnswer: (_args, group, context) => activate(group, context),
};

/** Joining a group by its id and invite code. */
export const joinPrivateGroupMutator: Mutator<JoinPrivateGroupArgs, Group> = {
  name: 'joinPrivateGroup',
  texts: joinTexts,
  describe: ({ groupId }) => `#${groupId}`,
  push: ({ groupId, inviteCode }) => ({ body: { groupId, inviteCode } }),
  apply: drawJoin,
  afterAnswer: (_args, group, context) => activate(group, context),
};

/** The group leaves the mirror at once, with its members, bets, wagers and statistics. */
export const leaveGroupMutator: Mutator<LeaveGroupArgs, unknown> = {
  name: 'leaveGroup',
  texts: {
    queued: "You're offline. You'll leave the group when you're back.",
    refused: 'Could not leave the group. Please try again.',
    label: 'Leaving a group',
  },
  push: ({ groupId }) => ({ params: { id: groupId } }),
  async apply({ groupId }, context) {
    const { db } = context;
    const bets = await db.bets.where('groupId').equals(groupId).primaryKeys();
    for (const wager of await db.wagers.where('betId').anyOf(bets).primaryKeys())
      await context.remove('wagers', wager);
    for (const betId of await db.betStatistics.where('betId').anyOf(bets).primaryKeys())
      await context.remove('betStatistics', betId);
    for (const betId of bets) await context.remove('bets', betId);
    for (const key of await db.memberships.where('groupId').equals(groupId).primaryKeys())
      await context.remove('memberships', key);
    await context.remove('groups', groupId);
  },
};

/** An admin turns the group's weekly top-up on or off: the flag on the group row changes at once. */
export const setFloorTopUpMutator: Mutator<SetFloorTopUpArgs, unknown> = {
  name: 'updateGroupSettings',
  texts: {
    queued: "You're offline. Your choice will be saved when you're back.",
    refused: "The top-up setting wasn't saved. Please try again.",
    label: 'Top-ups setting',
  },
  push: ({ groupId, floorTopUp }) => ({ params: { id: groupId }, body: { floorTopUp } }),
  async apply({ groupId, floorTopUp }, context) {
    const group = await context.db.groups.get(context.idFor(groupId));
    if (group) await context.put('groups', { ...group, floorTopUp });
  },
};

/** An admin renames the group or changes its description: the group row shows it at once. */
export const updateGroupMutator: Mutator<UpdateGroupArgs, Group> = {
  name: 'updateGroup',
  texts: {
    queued: "You're offline. The group's new details will be saved when you're back.",
    refused: "The group's details weren't saved. Please try again.",
    label: 'Group name and description',
  },
  describe: ({ changes }) => changes.name ?? '',
  push: ({ groupId, changes }) => ({ params: { id: groupId }, body: changes }),
  async apply({ groupId, changes }, context) {
    const group = await context.db.groups.get(context.idFor(groupId));
    if (!group) return;
    await context.put('groups', {
      ...group,
      ...(changes.name !== undefined ? { name: changes.name.trim() } : {}),
      ...(changes.description !== undefined
        ? { description: changes.description?.trim() || null }
        : {}),
      ...(changes.stakeTiers !== undefined ? { stakeTiers: [...stakeTiersOf(changes)] } : {}),
    });
  },
};

/**
 * An admin removes a member: their row leaves the group's member list at once. On the removed
 * member's own devices the group goes with the pull their removal triggers.
 */
export const removeMemberMutator: Mutator<RemoveMemberArgs, Group> = {
  name: 'removeMember',
  texts: {
    queued: "You're offline. The member will be removed when you're back.",
    refused: "The member wasn't removed. Please try again.",
    label: 'Removed member',
  },
  describe: ({ userName }) => userName,
  push: ({ groupId, userId }) => ({ params: { id: groupId, userId } }),
  async apply({ groupId, userId, userName }, context) {
    const id = context.idFor(groupId);
    if (await context.db.memberships.get([id, userId]))
      await context.remove('memberships', [id, userId]);
    const group = await context.db.groups.get(id);
    if (!group) return;
    const removed = (group.removedMembers ?? []).filter((member) => member.userId !== userId);
    await context.put('groups', {
      ...group,
      // Listed under "Removed" for the admins at once (the server's list comes with the pull).
      ...(group.admins?.includes(context.userId)
        ? { removedMembers: [...removed, { userId, userName }] }
        : {}),
      ...(group.admins ? { admins: group.admins.filter((admin) => admin !== userId) } : {}),
      ...(group.memberUserIds
        ? { memberUserIds: group.memberUserIds.filter((member) => member !== userId) }
        : {}),
    });
  },
};

/**
 * An admin gives a private group a new invite code: the code is the server's, so nothing is
 * drawn before the answer, which the group row then takes (the share link shows it); the
 * group's new version brings it to the other members' devices with their next pull.
 */
export const rotateInviteCodeMutator: Mutator<RotateInviteCodeArgs, InviteCodeResponse> = {
  name: 'rotateInviteCode',
  texts: {
    queued: "You're offline. The group will get a new invite code when you're back.",
    refused: "The invite code wasn't changed. Please try again.",
    label: 'New invite code',
  },
  push: ({ groupId }) => ({ params: { id: groupId } }),
  apply: async () => undefined,
  async afterAnswer({ groupId }, { inviteCode }, context) {
    await context.db.groups.update(groupId, { inviteCode });
  },
};

/**
 * An admin adds back a player an admin removed: they leave the removed list and join the
 * member list at once; their membership (with the points they had) comes with the pull.
 */
export const addBackMemberMutator: Mutator<AddBackMemberArgs, Group> = {
  name: 'addBackMember',
  texts: {
    queued: "You're offline. The player will be added back when you're back.",
    refused: "The player wasn't added back. Please try again.",
    label: 'Added back',
  },
  describe: ({ userName }) => userName,
  push: ({ groupId, userId }) => ({ params: { id: groupId, userId } }),
  async apply({ groupId, userId }, context) {
    const group = await context.db.groups.get(context.idFor(groupId));
    if (!group?.removedMembers?.some((removed) => removed.userId === userId)) return;
    await context.put('groups', {
      ...group,
      removedMembers: group.removedMembers.filter((removed) => removed.userId !== userId),
      ...(group.memberUserIds
        ? { memberUserIds: [...group.memberUserIds, userId].sort((a, b) => a - b) }
        : {}),
    });
  },
};

export const GROUP_MUTATORS = [
  createGroupMutator,
  joinPublicGroupMutator,
  joinPrivateGroupMutator,
  leaveGroupMutator,
  setFloorTopUpMutator,
  updateGroupMutator,
  removeMemberMutator,
  rotateInviteCodeMutator,
  addBackMemberMutator,
] as const;
