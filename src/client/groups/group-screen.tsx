import { SearchX, UsersRound } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { isGroupMember, type Group } from '../../domain/groups';
import { activeGroupStore } from '../data/active-group-store';
import { refusalText } from '../data/api-client';
import { useSession } from '../data/use-session';
import { AppPage } from '../shell/app-page';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { EmptyState } from '../ui/empty-state';
import { Spinner } from '../ui/spinner';
import { afterGroupJoined } from './after-group-joined';
import {
  joinPrivateGroup,
  joinPublicGroup,
  loadGroup,
  refreshMyGroups,
  type GroupLoadStatus,
} from './group-actions';
import { GroupDetails } from './group-details';
import { openJoinGroupModal } from './group-modals';
import { useGroup, useMyMembership } from './use-groups';
import styles from './group-screen.module.css';

// One group on screen (docs/groups-and-bets.md §2 "/group/{id}", also what /group shows for the active group):
// a spinner while it loads; the details for a member; the "not a member" card with Join group
// for a public group; "Group not found or inaccessible" otherwise. A 403 opens the private
// join dialog prefilled with the id and any invite code (docs/groups-and-bets.md §8). With an invite code in
// the link the player joins at once: the link is the invitation, one more click adds nothing.

const TEXT = {
  loading: 'Loading group',
  joining: 'Joining group',
  notFound: 'Group not found or inaccessible',
  notFoundHint: 'You may need an invite code or membership.',
  enterCode: 'Enter an invite code',
  notMember: "You're not a member of this group",
  notMemberHint: 'Join to participate and access member features.',
  join: 'Join group',
  joiningButton: 'Joining…',
};

export function GroupScreen({ groupId, inviteCode }: { groupId: number; inviteCode?: string }) {
  const navigate = useNavigate();
  const { user } = useSession();
  const userId = user?.id;
  const group = useGroup(groupId);
  const membership = useMyMembership(groupId, userId);
  const loadKey = `${groupId}:${userId ?? ''}`;
  const [loaded, setLoaded] = useState<{ key: string; status: GroupLoadStatus } | null>(null);
  const load = loaded?.key === loadKey ? loaded.status : 'loading';
  const [isJoining, setIsJoining] = useState(false);

  const isMember =
    Boolean(membership) ||
    Boolean(
      group?.memberUserIds &&
      userId !== undefined &&
      isGroupMember({ admins: group.admins ?? [], memberUserIds: group.memberUserIds }, userId),
    );

  const join = async (run: () => Promise<Group>, { isAutomatic }: { isAutomatic: boolean }) => {
    setIsJoining(true);
    try {
      await run();
      await afterGroupJoined();
      // The invitation has done its work; a reload should not carry it again.
      if (inviteCode) navigate(`/group/${groupId}`, { replace: true });
    } catch (error) {
      console.warn('Joining from the group page failed', error);
      const message = refusalText(error);
      // A link whose code no longer works: the private join dialog, prefilled, says why.
      openJoinGroupModal({
        groupId: String(groupId),
        inviteCode: isAutomatic ? inviteCode : undefined,
        error: message,
      });
    } finally {
      setIsJoining(false);
    }
  };
  const joinRef = useRef(join);
  useEffect(() => {
    joinRef.current = join;
  });

  // Load the group; then, once per visit, act on what the server said: with an invite code a
  // non-member joins at once; a 403 without one opens the private join dialog (docs/groups-and-bets.md §8).
  useEffect(() => {
    let isCurrent = true;
    loadGroup(groupId)
      .then(({ status, group: fresh }) => {
        if (!isCurrent) return;
        setLoaded({ key: loadKey, status });
        if (
          (status === 'forbidden' || status === 'missing') &&
          activeGroupStore.getSnapshot()?.id === groupId
        ) {
          // The active group is gone for this player (removed, deleted): let the sync choose again.
          void refreshMyGroups();
        }
        if (userId === undefined) return;
        if (status === 'forbidden') {
          if (inviteCode)
            void joinRef.current(() => joinPrivateGroup(groupId, inviteCode), {
              isAutomatic: true,
            });
          else openJoinGroupModal({ groupId: String(groupId) });
        } else if (status === 'loaded' && fresh && inviteCode && !isGroupMember(fresh, userId)) {
          void joinRef.current(
            () =>
              fresh.privacy === 'private'
                ? joinPrivateGroup(groupId, inviteCode)
                : joinPublicGroup(fresh.name),
            { isAutomatic: true },
          );
        }
      })
      .catch((error: unknown) => {
        // loadGroup answers the server's failures as a status; this is the local database's.
        console.warn(`Loading group ${groupId} failed`, error);
        if (isCurrent) setLoaded({ key: loadKey, status: 'unreachable' });
      });
    return () => {
      isCurrent = false;
    };
  }, [groupId, userId, inviteCode, loadKey]);

  if (group && isMember && userId !== undefined)
    return <GroupDetails group={group} userId={userId} />;

  if (load === 'loading' || group === undefined || (isJoining && inviteCode)) {
    return (
      <AppPage title="Group" isTitleHidden>
        <div className={styles.loading}>
          <Spinner size="large" label={isJoining ? TEXT.joining : TEXT.loading} />
        </div>
      </AppPage>
    );
  }

  if (load === 'loaded' && group) {
    return (
      <AppPage title={group.name}>
        <Card>
          <EmptyState
            icon={<UsersRound size={26} />}
            title={TEXT.notMember}
            action={
              <Button
                isLoading={isJoining}
                loadingText={TEXT.joiningButton}
                onClick={() => void join(() => joinPublicGroup(group.name), { isAutomatic: false })}
              >
                {TEXT.join}
              </Button>
            }
          >
            {group.description && <span className={styles.description}>{group.description}</span>}
            {TEXT.notMemberHint}
          </EmptyState>
        </Card>
      </AppPage>
    );
  }

  return (
    <AppPage title="Group" isTitleHidden>
      <Card>
        <EmptyState
          icon={<SearchX size={26} />}
          title={TEXT.notFound}
          action={
            load === 'forbidden' && (
              <Button
                variant="secondary"
                onClick={() => openJoinGroupModal({ groupId: String(groupId), inviteCode })}
              >
                {TEXT.enterCode}
              </Button>
            )
          }
        >
          {TEXT.notFoundHint}
        </EmptyState>
      </Card>
    </AppPage>
  );
}
