import { CalendarDays, Globe, Lock, LogOut, Share2 } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { isGroupAdmin, isGroupCreator } from '../../domain/groups';
import { canManageGroup, canMute, leaveGroupRefusal } from '../../domain/policies/group-policy';
import type { GroupRow } from '../data/db';
import { toast } from '../shell/toast-store';
import { MuteButton } from '../inbox/mute-button';
import { AppPage } from '../shell/app-page';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { PendingBadge } from '../ui/pending-badge';
import { Points } from '../ui/points';
import { BetList } from '../bets/bet-list';
import { GroupMembers } from './group-members';
import { RemovedMembers } from './removed-members';
import { GroupSettings } from './group-settings';
import { openLeaveGroupModal, openShareGroupModal } from './group-modals';
import { mirrorRole, rosterOf, useMyMembership } from './use-groups';
import styles from './group-details.module.css';

// The running season's banner (a lazy chunk of src/client/seasons).
const SeasonBanner = lazy(() =>
  import('../seasons/season-banner').then((module) => ({ default: module.SeasonBanner })),
);

// The group details view of docs/groups-and-bets.md §2: the name as heading, its description, Share (only
// when a shareable link exists), the bet list (3 per tab), the Members list
// of user bubbles, and Leave group behind a confirmation.

const TEXT = {
  share: 'Share',
  public: 'Public',
  private: 'Private',
  yourPoints: 'Your points',
  bets: 'Bets',
  viewAllBets: 'View All Bets',
  rounds: 'Tipping rounds',
  leave: 'Leave group',
  creatorStays: 'You created this group, so you stay in it.',
  left: (name: string) => `You left ${name}.`,
};

/** docs/groups-and-bets.md §9: the group view shows at most 3 bets per tab; "View All Bets" shows the rest. */
const BETS_PER_TAB = 3;

/** A link exists for a public group, and for a private one whose invite code the viewer knows. */
function canShare(group: GroupRow): group is GroupRow & { privacy: 'public' | 'private' } {
  return group.privacy === 'public' || (group.privacy === 'private' && Boolean(group.inviteCode));
}

export function GroupDetails({ group, userId }: { group: GroupRow; userId: number }) {
  const navigate = useNavigate();
  const membership = useMyMembership(group.id, userId);
  // The group policy's answers, the same the server gives.
  const isCreator = isGroupCreator({ createdByUserId: group.createdByUserId ?? -1 }, userId);
  const viewer = { role: mirrorRole({ userId, membership, group }), isCreator };
  const mayMute = canMute(viewer);
  const leaveRefusal = leaveGroupRefusal(viewer);
  const role = isCreator
    ? 'Creator'
    : group.admins && isGroupAdmin({ admins: group.admins }, userId)
      ? 'Admin'
      : null;

  return (
    <AppPage
      title={group.name}
      actions={
        canShare(group) && (
          <Button
            variant="secondary"
            size="small"
            icon={<Share2 size={16} aria-hidden="true" />}
            onClick={() => openShareGroupModal(group)}
          >
            {TEXT.share}
          </Button>
        )
      }
    >
      <div className={styles.intro}>
        {group.description && <p className={styles.description}>{group.description}</p>}
        <div className={styles.facts}>
          {group.privacy && (
            <span className={styles.badge}>
              {group.privacy === 'private' ? (
                <Lock size={14} aria-hidden="true" />
              ) : (
                <Globe size={14} aria-hidden="true" />
              )}
              {group.privacy === 'private' ? TEXT.private : TEXT.public}
            </span>
          )}
          {role && <span className={styles.badge}>{role}</span>}
          <PendingBadge row={group.pendingWriteId ? group : membership} />
          {membership && (
            <span className={styles.points}>
              <span className={styles.pointsLabel}>{TEXT.yourPoints}</span>
              <Points value={membership.availablePoints} size="small" />
            </span>
          )}
          {mayMute && group.id > 0 && (
            <span className={styles.mute}>
              <MuteButton target="group" id={group.id} />
            </span>
          )}
        </div>
      </div>
      {membership && group.id > 0 && (
        <Suspense fallback={null}>
          <SeasonBanner groupId={group.id} />
        </Suspense>
      )}
      {membership && group.id > 0 && (
        <Link to={`/group/${group.id}/rounds`} className={styles.roundsLink}>
          <CalendarDays size={18} aria-hidden="true" />
          {TEXT.rounds}
        </Link>
      )}

      <section className={styles.section} aria-labelledby="group-bets">
        <div className={styles.sectionHead}>
          <h2 id="group-bets" className={styles.sectionTitle}>
            {TEXT.bets}
          </h2>
          <Link to={`/group/${group.id}/bets`} className={styles.sectionLink}>
            {TEXT.viewAllBets}
          </Link>
        </div>
        <Card>
          <BetList groupId={group.id} limit={BETS_PER_TAB} />
        </Card>
      </section>

      <GroupMembers group={group} userId={userId} />

      <RemovedMembers group={group} userId={userId} />

      {canManageGroup(rosterOf(group), userId) && <GroupSettings group={group} />}

      {leaveRefusal === null ? (
        <div className={styles.leave}>
          <Button
            variant="danger"
            size="small"
            icon={<LogOut size={16} aria-hidden="true" />}
            onClick={() =>
              openLeaveGroupModal(group, () => {
                toast.info(TEXT.left(group.name));
                navigate('/group');
              })
            }
          >
            {TEXT.leave}
          </Button>
        </div>
      ) : (
        leaveRefusal === 'creator' && <p className={styles.leave}>{TEXT.creatorStays}</p>
      )}
    </AppPage>
  );
}
