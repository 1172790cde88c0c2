import { ConfirmDialog } from '../shell/confirm-dialog';
import { openModal } from '../shell/modal-store';
import { toast } from '../shell/toast-store';
import { removeMember } from './group-actions';
import styles from './group-admin.module.css';

// An admin's "Remove" on a member, behind a confirmation that names the member and says what
// happens: removal is leaving on an admin's say-so (their points and open wagers stay theirs),
// and the member cannot come back by themself.

const TEXT = {
  title: (name: string) => `Remove ${name}?`,
  body: (name: string, group: string) =>
    `${name} leaves ${group} at once and stops seeing its bets and leaderboard.`,
  facts: [
    'Their points stay in the group, and their open wagers stay in play and still pay out to them.',
    "They can't join again on their own, not even with an invite link.",
  ],
  keep: 'Keep member',
  confirm: 'Remove member',
  busy: 'Removing...',
  removed: (name: string) => `${name} was removed from the group.`,
};

export function openRemoveMemberConfirm(
  group: { id: number; name: string },
  member: { userId: number; userName: string },
) {
  openModal({
    title: TEXT.title(member.userName),
    size: 'narrow',
    render: (close) => (
      <ConfirmDialog
        body={TEXT.body(member.userName, group.name)}
        keepLabel={TEXT.keep}
        confirmLabel={TEXT.confirm}
        busyLabel={TEXT.busy}
        onConfirm={async () => {
          await removeMember(group.id, member);
          toast.info(TEXT.removed(member.userName));
        }}
        onDone={close}
      >
        <ul className={styles.confirmFacts}>
          {TEXT.facts.map((fact) => (
            <li key={fact}>{fact}</li>
          ))}
        </ul>
      </ConfirmDialog>
    ),
  });
}
