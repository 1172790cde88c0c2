// Which REST write each pushed mutation is (docs/architecture.md §8, src/server/sync): its
// method and path under API_BASE. The server declares each write once, for its REST route and
// the push alike (its schemas and its service call); a device turns a queued write's request
// into the mutation it pushes with `toSyncMutation`, so a mutator needs to say nothing more than
// its request. No zod here: the client's landing path imports it.

export const SYNC_MUTATION_ROUTES = {
  createGroup: ['POST', '/groups'],
  joinPublicGroup: ['POST', '/groups/join-public'],
  joinPrivateGroup: ['POST', '/groups/join-private'],
  leaveGroup: ['POST', '/groups/:id/leave'],
  updateGroup: ['PATCH', '/groups/:id'],
  updateGroupSettings: ['PATCH', '/groups/:id/settings'],
  removeMember: ['DELETE', '/groups/:id/members/:userId'],
  createBet: ['POST', '/bets'],
  placeWager: ['POST', '/bets/wagers'],
  updateWager: ['PUT', '/bets/wagers/:wagerId'],
  resolveBet: ['PUT', '/bets/:id/resolve'],
  cancelBet: ['POST', '/bets/:id/cancel'],
  postComment: ['POST', '/bets/:id/comments'],
  deleteComment: ['DELETE', '/comments/:commentId'],
  undoResolution: ['POST', '/bets/:id/undo-resolution'],
  disputeResolution: ['POST', '/bets/:id/dispute'],
  dismissDispute: ['POST', '/bets/:id/dispute/dismiss'],
  reResolveBet: ['PUT', '/bets/:id/re-resolve'],
  markNotificationsRead: ['POST', '/notifications/read'],
  markAllNotificationsRead: ['POST', '/notifications/read-all'],
  setPushKinds: ['PUT', '/notification-settings/push'],
  muteGroup: ['PUT', '/groups/:id/mute'],
  muteBet: ['PUT', '/bets/:id/mute'],
  shareBet: ['POST', '/bets/:id/share'],
  stopSharingBet: ['DELETE', '/bets/:id/share'],
  startSeason: ['POST', '/groups/:id/seasons'],
  endSeason: ['POST', '/groups/:id/seasons/:seasonId/end'],
} as const satisfies Record<string, readonly [string, string]>;

export type SyncMutationName = keyof typeof SYNC_MUTATION_ROUTES;
export const SYNC_MUTATION_NAMES = Object.keys(SYNC_MUTATION_ROUTES) as SyncMutationName[];

export interface SyncMutationCall {
  name: SyncMutationName;
  /** The route's path parameters (numbers where numeric) and body, as the push takes them. */
  args: { params?: Record<string, number | string>; body?: unknown };
}

/**
 * The pushed mutation a REST write stands for (`path` under API_BASE, or with it), or
 * undefined when no mutation is that write.
 */
export function toSyncMutation(
  method: string,
  path: string,
  body?: unknown,
): SyncMutationCall | undefined {
  const parts = path.replace(/^\/api(?=\/)/, '').split('/');
  for (const [name, [routeMethod, pattern]] of Object.entries(SYNC_MUTATION_ROUTES)) {
    if (routeMethod !== method) continue;
    const wanted = pattern.split('/');
    if (wanted.length !== parts.length) continue;
    const params: Record<string, number | string> = {};
    const matches = wanted.every((part, index) => {
      const actual = decodeURIComponent(parts[index]!);
      if (!part.startsWith(':')) return part === actual;
      params[part.slice(1)] = /^-?\d{1,15}$/.test(actual) ? Number(actual) : actual;
      return actual !== '';
    });
    if (!matches) continue;
    return {
      name: name as SyncMutationName,
      args: {
        ...(Object.keys(params).length > 0 ? { params } : {}),
        ...(body === undefined ? {} : { body }),
      },
    };
  }
  return undefined;
}

/** At most this many mutations per push; a device sends the rest in the next one. */
export const SYNC_PUSH_MAX_MUTATIONS = 100;
