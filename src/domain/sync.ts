// Every write a device or another program makes, declared once (docs/architecture.md §8): its
// name, which the push carries and the device's outbox stores, and its REST method and path
// under API_BASE, for the programs that call REST. The server gives each name its `run` (with
// its args schemas: src/server/writes/writes.ts, next to the feature's routes); the device gives
// it its optimistic `apply` (src/client/data/*-mutators.ts). A name missing on either side, or
// one the domain does not declare, does not compile. No zod here: the client's landing path
// imports it.

type Method = 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface SyncWrite {
  method: Method;
  /** Under API_BASE; `:name` segments are the write's path parameters. */
  path: string;
}

export const SYNC_WRITES = {
  createGroup: { method: 'POST', path: '/groups' },
  joinPublicGroup: { method: 'POST', path: '/groups/join-public' },
  joinPrivateGroup: { method: 'POST', path: '/groups/join-private' },
  leaveGroup: { method: 'POST', path: '/groups/:id/leave' },
  updateGroup: { method: 'PATCH', path: '/groups/:id' },
  updateGroupSettings: { method: 'PATCH', path: '/groups/:id/settings' },
  rotateInviteCode: { method: 'POST', path: '/groups/:id/invite-code' },
  removeMember: { method: 'DELETE', path: '/groups/:id/members/:userId' },
  addBackMember: { method: 'POST', path: '/groups/:id/members/:userId/add-back' },
  createBet: { method: 'POST', path: '/bets' },
  placeWager: { method: 'POST', path: '/bets/wagers' },
  updateWager: { method: 'PUT', path: '/bets/wagers/:wagerId' },
  resolveBet: { method: 'PUT', path: '/bets/:id/resolve' },
  cancelBet: { method: 'POST', path: '/bets/:id/cancel' },
  postComment: { method: 'POST', path: '/bets/:id/comments' },
  deleteComment: { method: 'DELETE', path: '/comments/:commentId' },
  undoResolution: { method: 'POST', path: '/bets/:id/undo-resolution' },
  disputeResolution: { method: 'POST', path: '/bets/:id/dispute' },
  dismissDispute: { method: 'POST', path: '/bets/:id/dispute/dismiss' },
  reResolveBet: { method: 'PUT', path: '/bets/:id/re-resolve' },
  markNotificationsRead: { method: 'POST', path: '/notifications/read' },
  markAllNotificationsRead: { method: 'POST', path: '/notifications/read-all' },
  setPushKinds: { method: 'PUT', path: '/notification-settings/push' },
  muteGroup: { method: 'PUT', path: '/groups/:id/mute' },
  muteBet: { method: 'PUT', path: '/bets/:id/mute' },
  shareBet: { method: 'POST', path: '/bets/:id/share' },
  stopSharingBet: { method: 'DELETE', path: '/bets/:id/share' },
  startSeason: { method: 'POST', path: '/groups/:id/seasons' },
  endSeason: { method: 'POST', path: '/groups/:id/seasons/:seasonId/end' },
  createRound: { method: 'POST', path: '/groups/:id/rounds' },
  updateRound: { method: 'PATCH', path: '/groups/:id/rounds/:roundId' },
} as const satisfies Record<string, SyncWrite>;

export type SyncMutationName = keyof typeof SYNC_WRITES;
export const SYNC_MUTATION_NAMES = Object.keys(SYNC_WRITES) as SyncMutationName[];

/** Whether `name` is a write this version declares (a stored entry may name one it does not). */
export const isSyncMutationName = (name: string): name is SyncMutationName =>
  Object.hasOwn(SYNC_WRITES, name);

/** A write's arguments as the push carries them: its path parameters (numbers where numeric) and body. */
export interface SyncMutationArgs {
  params?: Record<string, number | string>;
  body?: unknown;
}

export interface SyncMutationCall {
  name: SyncMutationName;
  args: SyncMutationArgs;
}

/** The REST request a write is, for a program that calls REST: the path under API_BASE with its params filled in. */
export function restRequestOf({ name, args }: SyncMutationCall): {
  method: Method;
  path: string;
  body?: unknown;
} {
  const { method, path } = SYNC_WRITES[name];
  const filled = path.replace(/:([A-Za-z]+)/g, (_match, param: string) => {
    const value = args.params?.[param];
    if (value === undefined) throw new Error(`${name} needs its "${param}" parameter`);
    return encodeURIComponent(String(value));
  });
  return { method, path: filled, ...(args.body === undefined ? {} : { body: args.body }) };
}

/** At most this many mutations per push; a device sends the rest in the next one. */
export const SYNC_PUSH_MAX_MUTATIONS = 100;
