import { useState } from 'react';
import { errorMessage } from '../data/api-client';
import { openModal } from '../shell/modal-store';
import { toast } from '../shell/toast-store';
import { Button } from '../ui/button';
import { FormAlert } from '../ui/form-alert';
import { cancelBet } from './bet-actions';
import styles from './resolve-card.module.css';

// Cancelling a bet (its creator or a group admin) behind a confirmation; spec 02 §8's
// "Bet cancelled. N points refunded." or "Bet cancelled." when nothing was staked.

export const CANCEL_TEXT = {
  open: 'Cancel bet',
  title: 'Cancel this bet?',
  body: 'Everyone who wagered gets their points back. This action cannot be undone.',
  keep: 'Keep bet',
  confirm: 'Cancel bet',
  busy: 'Cancelling...',
  done: (points: number) =>
    points > 0 ? `Bet cancelled. ${points} points refunded.` : 'Bet cancelled.',
  failed: 'Failed to cancel bet. Please try again.',
};

function CancelBetConfirm({ betId, onDone }: { betId: number; onDone: () => void }) {
  const [isBusy, setIsBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const confirm = async () => {
    setIsBusy(true);
    setFailure(null);
    try {
      const { refundedPoints, isQueued } = await cancelBet(betId);
      // Queued offline: the outbox has told the player it goes out when they're back.
      if (!isQueued) toast.success(CANCEL_TEXT.done(refundedPoints));
      onDone();
    } catch (error) {
      setFailure(errorMessage(error, CANCEL_TEXT.failed));
      setIsBusy(false);
    }
  };
  return (
    <div className={styles.confirm}>
      {failure && <FormAlert tone="error">{failure}</FormAlert>}
      <p>{CANCEL_TEXT.body}</p>
      <div className={styles.actions}>
        <Button variant="secondary" onClick={onDone} disabled={isBusy} data-autofocus>
          {CANCEL_TEXT.keep}
        </Button>
        <Button
          variant="danger"
          onClick={() => void confirm()}
          isLoading={isBusy}
          loadingText={CANCEL_TEXT.busy}
        >
          {CANCEL_TEXT.confirm}
        </Button>
      </div>
    </div>
  );
}

export function openCancelBetModal(betId: number) {
  openModal({
    title: CANCEL_TEXT.title,
    size: 'narrow',
    render: (close) => <CancelBetConfirm betId={betId} onDone={close} />,
  });
}
