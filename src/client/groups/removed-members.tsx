import { useState } from 'react';
import { canAddBackMember } from '../../domain/policies/group-policy';
import type { RemovedMember } from '../../domain/groups';
import { refusalText } from '../data/api-client';
import type { GroupRow } from '../data/db';
import { toast } from '../shell/toast-store';
import { Avatar } from '../ui/avatar';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { addBackMember } from './group-actions';
import { memberPerson } from './group-members';
import { rosterOf } from './use-groups';
import adminStyles from './group-admin.module.css';
import styles from './group-details.module.css';

// The players an admin removed, under their own heading below the members, for the group's
// admins only (the group row carries them for admins alone): each with "Add back", which the
// group policy allows (addBackMemberRefusal, the rule the server applies). Added back, they
// return with the points and wagers they had.

const TEXT = {
  removed: 'Removed',
  hint: "They can't join again on their own. Added back, they keep the points and wagers they had.",
  addBack: 'Add back',
  adding: 'Adding…',
  addBackMember: (name: string) => `Add back ${name}`,
  addedBack: (name: string) => `${name} is back in the group.`,
};

export function RemovedMembers({ group, userId }: { group: GroupRow; userId: number }) {
  const [busy, setBusy] = useState<number | null>(null);
  const removed = group.removedMembers ?? [];
  if (group.id < 0 || removed.length === 0 || !canAddBackMember(rosterOf(group), userId, true))
    return null;

  const addBack = async (member: RemovedMember) => {
    setBusy(member.userId);
    try {
      await addBackMember(group.id, member);
      toast.info(TEXT.addedBack(member.userName));
    } catch (error) {
      toast.error(refusalText(error));
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className={styles.section} aria-labelledby="group-removed-members">
      <div className={styles.sectionHead}>
        <h2 id="group-removed-members" className={styles.sectionTitle}>
          {TEXT.removed}
          <span className={styles.count}> ({removed.length})</span>
        </h2>
      </div>
      <Card padding="normal">
        <p className={`${styles.muted} ${adminStyles.removedHint}`}>{TEXT.hint}</p>
        <ul className={styles.members} aria-label={TEXT.removed}>
          {removed.map((member) => (
            <li key={member.userId} className={styles.member}>
              <Avatar user={memberPerson(member)} size="medium" />
              <span className={styles.memberName}>{member.userName}</span>
              <Button
                variant="secondary"
                size="small"
                className={adminStyles.remove}
                aria-label={TEXT.addBackMember(member.userName)}
                disabled={busy !== null}
                onClick={() => void addBack(member)}
              >
                {busy === member.userId ? TEXT.adding : TEXT.addBack}
              </Button>
            </li>
          ))}
        </ul>
      </Card>
    </section>
  );
}
