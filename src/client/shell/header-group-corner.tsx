import { ChevronDown, UsersRound } from 'lucide-react';
import { useActiveGroup } from '../data/use-active-group';
import { useSession } from '../data/use-session';
import { openGroupSelectorModal, openJoinGroupModal } from '../groups/group-modals';
import { useGroup, useMyMembership } from '../groups/use-groups';
import { usePageGroupId } from './page-group-store';
import { Points } from '../ui/points';
import { Spinner } from '../ui/spinner';
import styles from './app-header.module.css';

/**
 * The header's corner: the player's available points in the active group (labelled so: the
 * leaderboard shows total points, which include points held in open bets), a spinner while the
 * active group is not known yet, the active group's name (opens the group selector), or "Join
 * Group" (opens the join modal) when there is none. On a bet's page of another group the
 * player is in, that group's points and name (page-group-store.ts). The points come live from Dexie; the
 * stored active group's copy covers the moment before the database answers.
 */
export function HeaderGroupCorner() {
  const active = useActiveGroup();
  const { user } = useSession();
  const membership = useMyMembership(active?.id, user?.id);
  // On a bet's page, its group's points: the ones a wager there spends (page-group-store.ts).
  const pageGroupId = usePageGroupId();
  const isOtherGroup = pageGroupId !== undefined && pageGroupId !== active?.id;
  const pageMembership = useMyMembership(isOtherGroup ? pageGroupId : undefined, user?.id);
  const pageGroup = useGroup(isOtherGroup && pageMembership ? pageGroupId : undefined);

  if (active === undefined) return <Spinner size="small" label="Loading your group" />;
  if (active === null) {
    return (
      <button type="button" className={styles.joinGroup} onClick={() => openJoinGroupModal()}>
        <UsersRound size={18} aria-hidden="true" />
        <span>Join Group</span>
      </button>
    );
  }
  const shown =
    isOtherGroup && pageMembership && pageGroup
      ? { name: pageGroup.name, points: pageMembership.availablePoints }
      : { name: active.name, points: membership?.availablePoints ?? active.availablePoints };
  return (
    <>
      {/* Seen: "96 available"; heard: "96 points available to bet". */}
      <span className={styles.points} data-testid="header-available-points">
        <Points value={shown.points} size="small" word="never" />{' '}
        <span className={styles.pointsLabel}>available</span>
        <span className="visually-hidden"> to bet</span>
      </span>
      <button
        type="button"
        className={styles.groupButton}
        onClick={openGroupSelectorModal}
        aria-label={`${isOtherGroup && pageGroup ? 'This bet’s group' : 'Active group'}: ${shown.name}. Change group`}
      >
        <span className={styles.groupName}>{shown.name}</span>
        <ChevronDown size={16} aria-hidden="true" />
      </button>
    </>
  );
}
