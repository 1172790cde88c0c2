import type { SyncMutationName } from '../../domain/sync';
import { BET_SHARE_WRITES } from '../bets/bet-shares.routes';
import { BET_WRITES } from '../bets/bets.routes';
import { COMMENT_WRITES } from '../comments/comments.routes';
import { GROUP_WRITES } from '../groups/groups.routes';
import { NOTIFICATION_WRITES } from '../notifications/notifications.routes';
import { ROUND_WRITES } from '../rounds/rounds.routes';
import { SEASON_WRITES } from '../seasons/seasons.routes';
import type { Write } from '../writes/writes';
import type { WriteServices } from './write-services';

// Every mutation a push may carry (src/domain/sync.ts names them and their REST routes): each
// feature's writes, declared once with their REST routes (../writes/writes.ts). A name without its write,
// or a write under a name the domain does not know, or calling a service the runner does not
// make (`createWriteServices`), does not compile.

/** A write the runner can run: its args are its own business, its services among the runner's. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type RunnableWrite = Write<any, any, any, WriteServices>;

export const SYNC_MUTATIONS = {
  ...GROUP_WRITES,
  ...BET_WRITES,
  ...BET_SHARE_WRITES,
  ...COMMENT_WRITES,
  ...SEASON_WRITES,
  ...ROUND_WRITES,
  ...NOTIFICATION_WRITES,
} satisfies Record<SyncMutationName, RunnableWrite>;
