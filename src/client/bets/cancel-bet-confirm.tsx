import { ConfirmDialog } from '../shell/confirm-dialog';
import { openModal } from '../shell/modal-store';
import { toast } from '../shell/toast-store';
import { cancelBet } from './bet-actions';

// Cancelling a bet (its creator or a group admin) behind a confirmation; docs/groups-and-bets.md §8's
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
};

function CancelBetConfirm({ betId, onDone }: { betId: number; onDone: () => void }) {
  return (
    <ConfirmDialog
      body={CANCEL_TEXT.body}
      keepLabel={CANCEL_TEXT.keep}
      confirmLabel={CANCEL_TEXT.confirm}
      busyLabel={CANCEL_TEXT.busy}
      onConfirm={async () => {
        const { refundedPoints, isQueued } = await cancelBet(betId);
        // Queued offline: the outbox has told the player it goes out when they're back.
        if (!isQueued) toast.success(CANCEL_TEXT.done(refundedPoints));
      }}
      onDone={onDone}
    />
  );
}

export function openCancelBetModal(betId: number) {
  openModal({
    title: CANCEL_TEXT.title,
    size: 'narrow',
    render: (close) => <CancelBetConfirm betId={betId} onDone={close} />,
  });
}
