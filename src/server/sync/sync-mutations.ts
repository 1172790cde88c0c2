import type { z } from '../../domain/schemas/zod';
import type { SYNC_MUTATION_ARGS, SyncMutationName } from '../../domain/schemas/sync';
import type { AuthUser } from '../auth/tokens';
import { LEFT_GROUP_MESSAGE } from '../groups/groups.routes';
import type { WriteServices } from './write-services';

// Each mutation a push carries is one REST write (src/domain/schemas/sync.ts): here, the very
// service call its route makes, with the route's params and body. `created` names the id of a
// row the write made, which the device's temporary id becomes; `limit` says which rate limit
// of the route applies on top of the writes limit (src/server/rate-limits.ts).

type ArgsOf<N extends SyncMutationName> = z.output<(typeof SYNC_MUTATION_ARGS)[N]>;

interface SyncMutation<N extends SyncMutationName> {
  run(services: WriteServices, caller: AuthUser, args: ArgsOf<N>): Promise<unknown>;
  created?: (result: unknown) => number;
  limit?: 'comments' | 'joinPrivate';
}

const idOf = (result: unknown) => (result as { id: number }).id;

export const SYNC_MUTATIONS: { [N in SyncMutationName]: SyncMutation<N> } = {
  createGroup: {
    run: (s, caller, { body }) => s.groups.createGroup(caller, body),
    created: idOf,
  },
  joinPublicGroup: {
    run: (s, caller, { body }) => s.members.joinPublic(caller, body.groupName),
  },
  joinPrivateGroup: {
    run: (s, caller, { body }) => s.members.joinPrivate(caller, body.groupId, body.inviteCode),
    limit: 'joinPrivate',
  },
  leaveGroup: {
    run: async (s, caller, { params }) => {
      await s.members.leaveGroup(caller, params.id);
      return { message: LEFT_GROUP_MESSAGE };
    },
  },
  updateGroup: {
    run: (s, caller, { params, body }) => s.groups.updateGroup(caller, params.id, body),
  },
  updateGroupSettings: {
    run: (s, caller, { params, body }) => s.groups.updateSettings(caller, params.id, body),
  },
  removeMember: {
    run: (s, caller, { params }) => s.members.removeMember(caller, params.id, params.userId),
  },
  createBet: { run: (s, caller, { body }) => s.bets.createBet(caller, body), created: idOf },
  placeWager: { run: (s, caller, { body }) => s.wagers.placeWager(caller, body), created: idOf },
  updateWager: {
    run: (s, caller, { params, body }) => s.wagers.updateWager(caller, params.wagerId, body),
  },
  resolveBet: {
    run: (s, caller, { params, body }) => s.bets.resolveBet(caller, params.id, body.correctAnswer),
  },
  cancelBet: { run: (s, caller, { params }) => s.bets.cancelBet(caller, params.id) },
  postComment: {
    run: (s, caller, { params, body }) => s.comments.postComment(caller, params.id, body),
    created: idOf,
    limit: 'comments',
  },
  deleteComment: {
    run: (s, caller, { params }) => s.comments.deleteComment(caller, params.commentId),
  },
  undoResolution: { run: (s, caller, { params }) => s.fair.undoResolution(caller, params.id) },
  disputeResolution: {
    run: (s, caller, { params, body }) => s.fair.disputeResolution(caller, params.id, body.reason),
  },
  dismissDispute: { run: (s, caller, { params }) => s.fair.dismissDispute(caller, params.id) },
  reResolveBet: {
    run: (s, caller, { params, body }) => s.fair.reResolve(caller, params.id, body.correctAnswer),
  },
  markNotificationsRead: { run: (s, caller, { body }) => s.notifications.markRead(caller, body) },
  markAllNotificationsRead: {
    run: (s, caller, { body }) => s.notifications.markAllRead(caller, body),
  },
  setPushKinds: { run: (s, caller, { body }) => s.notifications.setPushKinds(caller, body) },
  muteGroup: {
    run: (s, caller, { params, body }) => s.notifications.muteGroup(caller, params.id, body),
  },
  muteBet: {
    run: (s, caller, { params, body }) => s.notifications.muteBet(caller, params.id, body),
  },
  startSeason: {
    run: (s, caller, { params, body }) => s.seasons.startSeason(caller, params.id, body),
    created: idOf,
  },
  endSeason: {
    run: (s, caller, { params }) => s.seasons.endSeasonNow(caller, params.id, params.seasonId),
  },
};
