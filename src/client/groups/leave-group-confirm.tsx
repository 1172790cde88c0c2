import { useState } from 'react';
import { errorMessage } from '../data/api-client';
import { Button } from '../ui/button';
import { FormAlert } from '../ui/form-alert';
import { leaveGroup } from './group-actions';
import styles from './leave-group-confirm.module.css';

const TEXT = {
  body: 'You stop seeing its bets and leaderboard. Your points wait for you: join again and they are back.',
  cancel: 'Stay',
  confirm: 'Leave group',
  busy: 'Leaving...',
  failed: 'Could not leave the group. Please try again.',
};

/** The confirmation of "Leave group" (the server keeps the membership, so rejoining restores the points). */
export function LeaveGroupConfirm({
  group,
  onCancel,
  onLeft,
}: {
  group: { id: number; name: string };
  onCancel: () => void;
  onLeft: () => void;
}) {
  const [isLeaving, setIsLeaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const onConfirm = async () => {
    setIsLeaving(true);
    setFailure(null);
    try {
      await leaveGroup(group.id);
      onLeft();
    } catch (error) {
      console.warn('Leaving the group failed', error);
      setFailure(errorMessage(error, TEXT.failed));
      setIsLeaving(false);
    }
  };

  return (
    <div className={styles.confirm}>
      {failure && <FormAlert tone="error">{failure}</FormAlert>}
      <p className={styles.body}>{TEXT.body}</p>
      <div className={styles.actions}>
        <Button variant="secondary" onClick={onCancel} data-autofocus>
          {TEXT.cancel}
        </Button>
        <Button variant="danger" onClick={onConfirm} isLoading={isLeaving} loadingText={TEXT.busy}>
          {TEXT.confirm}
        </Button>
      </div>
    </div>
  );
}
