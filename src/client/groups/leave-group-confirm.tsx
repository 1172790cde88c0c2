import { ConfirmDialog } from '../shell/confirm-dialog';
import { leaveGroup } from './group-actions';

const TEXT = {
  body: 'You stop seeing its bets and leaderboard. Your points wait for you: join again and they are back.',
  cancel: 'Stay',
  confirm: 'Leave group',
  busy: 'Leaving...',
};

/** The confirmation of "Leave group" (the server keeps the membership, so rejoining restores the points). */
export function LeaveGroupConfirm({
  group,
  onLeft,
  onDone,
}: {
  group: { id: number; name: string };
  /** Runs once the server has agreed, before the dialog closes. */
  onLeft: () => void;
  onDone: () => void;
}) {
  return (
    <ConfirmDialog
      body={TEXT.body}
      keepLabel={TEXT.cancel}
      confirmLabel={TEXT.confirm}
      busyLabel={TEXT.busy}
      onConfirm={async () => {
        await leaveGroup(group.id);
        onLeft();
      }}
      onDone={onDone}
    />
  );
}
