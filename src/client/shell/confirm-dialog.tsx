import { useState, type ReactNode } from 'react';
import { errorMessage, refusalText } from '../data/api-client';
import { Button } from '../ui/button';
import { FormAlert } from '../ui/form-alert';
import styles from './confirm-dialog.module.css';

// The body of a "are you sure?" modal for an action that cannot be undone (cancel a bet, leave
// a group, delete a comment): what happens, a safe button that takes the focus, and a danger
// button that shows its progress. A refusal stays in the dialog, in the words the write's
// rejection carries (refusalText) or, for an action that is no write, `failedMessage`.

export interface ConfirmDialogProps {
  body: string;
  /** Shown under the body: what is about to go (a quoted comment). */
  children?: ReactNode;
  keepLabel: string;
  confirmLabel: string;
  busyLabel: string;
  /**
   * Said when an action that is no outbox write fails without a message of the server's own. A
   * write's refusal already carries its text: leave it out.
   */
  failedMessage?: string;
  onConfirm: () => Promise<void>;
  /** Closes the dialog: after `onConfirm` succeeds, or when the player keeps things as they are. */
  onDone: () => void;
}

export function ConfirmDialog({
  body,
  children,
  keepLabel,
  confirmLabel,
  busyLabel,
  failedMessage,
  onConfirm,
  onDone,
}: ConfirmDialogProps) {
  const [isBusy, setIsBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const confirm = async () => {
    setIsBusy(true);
    setFailure(null);
    try {
      await onConfirm();
      onDone();
    } catch (error) {
      setFailure(
        failedMessage === undefined ? refusalText(error) : errorMessage(error, failedMessage),
      );
      setIsBusy(false);
    }
  };
  return (
    <div className={styles.confirm}>
      {failure && <FormAlert tone="error">{failure}</FormAlert>}
      <p className={styles.body}>{body}</p>
      {children}
      <div className={styles.actions}>
        <Button variant="secondary" onClick={onDone} disabled={isBusy} data-autofocus>
          {keepLabel}
        </Button>
        <Button
          variant="danger"
          onClick={() => void confirm()}
          isLoading={isBusy}
          loadingText={busyLabel}
        >
          {confirmLabel}
        </Button>
      </div>
    </div>
  );
}
