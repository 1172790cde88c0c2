import type { UserBubble } from '../../domain/auth';
import type { GroupRow } from '../data/db';
import { Avatar } from '../ui/avatar';
import { Card } from '../ui/card';
import { useUserBubbles } from './use-groups';
import styles from './group-details.module.css';

const TEXT = {
  members: 'Members',
  you: 'You',
  admin: 'Admin',
  loading: 'Loading members…',
};

/** A bubble has a display name only: its first two words stand in for first and last name. */
function bubblePerson(member: UserBubble) {
  const [firstName, lastName] = member.displayName.trim().split(/\s+/);
  return { firstName, lastName, email: member.email, displayName: member.displayName };
}

/** The Members list of spec 02 §2: one bubble (avatar and display name) per member, admins included. */
export function GroupMembers({ group, userId }: { group: GroupRow; userId: number }) {
  const memberIds = group.memberUserIds ? [...new Set([...group.memberUserIds, ...(group.admins ?? [])])] : undefined;
  const bubbles = useUserBubbles(memberIds);
  const admins = new Set(group.admins ?? []);
  // The player first, then everyone by name.
  const sorted = [...(bubbles ?? [])].sort((a, b) => Number(b.id === userId) - Number(a.id === userId) || a.displayName.localeCompare(b.displayName));

  return (
    <section className={styles.section} aria-labelledby="group-members">
      <div className={styles.sectionHead}>
        <h2 id="group-members" className={styles.sectionTitle}>
          {TEXT.members}
          {memberIds && <span className={styles.count}> ({memberIds.length})</span>}
        </h2>
      </div>
      <Card padding="normal">
        {!memberIds || !bubbles || (bubbles.length === 0 && memberIds.length > 0) ? (
          <p className={styles.muted}>{TEXT.loading}</p>
        ) : (
          <ul className={styles.members} aria-label={TEXT.members}>
            {sorted.map((member) => (
              <li key={member.id} className={styles.member}>
                <Avatar user={bubblePerson(member)} size="medium" />
                <span className={styles.memberName}>{member.displayName}</span>
                {member.id === userId && <span className={styles.tag}>{TEXT.you}</span>}
                {admins.has(member.id) && <span className={styles.tagMuted}>{TEXT.admin}</span>}
              </li>
            ))}
          </ul>
        )}
      </Card>
    </section>
  );
}
