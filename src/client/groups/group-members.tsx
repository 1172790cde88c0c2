import { Link } from 'react-router-dom';
import type { MembershipRow } from '../data/db';
import type { GroupRow } from '../data/db';
import { Avatar } from '../ui/avatar';
import { Card } from '../ui/card';
import { canRemoveMember } from '../../domain/policies/group-policy';
import { Button } from '../ui/button';
import { openRemoveMemberConfirm } from './remove-member-confirm';
import { rosterOf, useGroupMembers } from './use-groups';
import adminStyles from './group-admin.module.css';
import styles from './group-details.module.css';

const TEXT = {
  members: 'Members',
  you: 'You',
  admin: 'Admin',
  loading: 'Loading members…',
  remove: 'Remove',
  removeMember: (name: string) => `Remove ${name}`,
};

/** A member has a display name only: its first two words stand in for first and last name. */
export function memberPerson(member: Pick<MembershipRow, 'userName'>) {
  const [firstName, lastName] = member.userName.trim().split(/\s+/);
  return { firstName, lastName, displayName: member.userName };
}

/**
 * The Members list of docs/groups-and-bets.md §2: one bubble (avatar and display name) per member,
 * from the mirror's memberships; a name opens the member's stats, as on the leaderboard.
 */
export function GroupMembers({ group, userId }: { group: GroupRow; userId: number }) {
  const members = useGroupMembers(group.id, userId);
  const admins = new Set(group.admins ?? []);
  // Whom the viewer may remove: the group policy, the same rule the server applies.
  const roster = rosterOf(group);

  return (
    <section className={styles.section} aria-labelledby="group-members">
      <div className={styles.sectionHead}>
        <h2 id="group-members" className={styles.sectionTitle}>
          {TEXT.members}
          {members && <span className={styles.count}> ({members.length})</span>}
        </h2>
      </div>
      <Card padding="normal">
        {!members || members.length === 0 ? (
          <p className={styles.muted}>{TEXT.loading}</p>
        ) : (
          <ul className={styles.members} aria-label={TEXT.members}>
            {members.map((member) => (
              <li key={member.userId} className={styles.member}>
                <Avatar user={memberPerson(member)} size="medium" />
                <Link
                  to={`/group/${group.id}/members/${member.userId}`}
                  className={styles.memberName}
                >
                  {member.userName}
                </Link>
                {member.userId === userId && <span className={styles.tag}>{TEXT.you}</span>}
                {admins.has(member.userId) && <span className={styles.tagMuted}>{TEXT.admin}</span>}
                {group.id > 0 && canRemoveMember(roster, userId, member.userId) && (
                  <Button
                    variant="ghost"
                    size="small"
                    className={adminStyles.remove}
                    aria-label={TEXT.removeMember(member.userName)}
                    onClick={() => openRemoveMemberConfirm(group, member)}
                  >
                    {TEXT.remove}
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </Card>
    </section>
  );
}
