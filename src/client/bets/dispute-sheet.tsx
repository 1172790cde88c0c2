import { useState } from 'react';
import { DISPUTE_LIMITS } from '../../domain/fair-resolution';
import { disputeRequestSchema } from '../../domain/schemas/fair-resolution';
import { refusalText } from '../data/api-client';
import { openModal } from '../shell/modal-store';
import { toast } from '../shell/toast-store';
import { Button } from '../ui/button';
import { FormAlert } from '../ui/form-alert';
import { TextAreaField } from '../ui/text-area-field';
import { useSession } from '../data/use-session';
import { disputeResolution } from './fair-resolution-actions';
import { useBet } from './use-bets';
import { judgesNamed, useDisputeJudges } from './use-dispute-judges';
import styles from './resolution-review.module.css';

// A participant flags a resolution as wrong, with a short reason the group sees. One dispute
// per result; the sheet names who will correct it or let it stand (use-dispute-judges.ts).

export const DISPUTE_TEXT = {
  title: 'Dispute this result',
  /** Who will decide, by the domain's disputeJudgeIds (use-dispute-judges.ts). */
  body: (judges: string) =>
    `Think the result is wrong? Say why: ${judges} will correct it or let it stand.`,
  noJudge:
    'Everyone in the group has a stake in this bet, so nobody can judge a dispute: the result would stand as it was paid.',
  label: "What's wrong?",
  placeholder: 'The final score was 2–1, so the answer is No.',
  left: (count: number) => `${count} ${count === 1 ? 'character' : 'characters'} left`,
  keep: 'Keep result',
  send: 'Send dispute',
  sending: 'Sending...',
  sent: (judges: string) => `Dispute sent. ${judges} will take a look.`,
  sentNoJudge: 'Dispute sent.',
};

function DisputeSheet({ betId, onDone }: { betId: number; onDone: () => void }) {
  const { user } = useSession();
  const bet = useBet(betId);
  // The sheet's player disputes: the judges are whoever is free of the bet but them.
  const judges = useDisputeJudges(bet, user?.id);
  const named = judges && judges.length > 0 ? judgesNamed(judges) : null;
  const [reason, setReason] = useState('');
  const [isTouched, setIsTouched] = useState(false);
  const [isBusy, setIsBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const parsed = disputeRequestSchema.safeParse({ reason });
  const fieldError = isTouched && !parsed.success ? parsed.error.issues[0]?.message : undefined;

  const send = async () => {
    setIsTouched(true);
    if (!parsed.success) return;
    setIsBusy(true);
    setFailure(null);
    try {
      const status = await disputeResolution(betId, parsed.data.reason);
      if (status === 'sent')
        toast.success(named ? DISPUTE_TEXT.sent(named) : DISPUTE_TEXT.sentNoJudge);
      onDone();
    } catch (error) {
      setFailure(refusalText(error));
      setIsBusy(false);
    }
  };

  return (
    <form
      className={styles.sheet}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      {failure && <FormAlert tone="error">{failure}</FormAlert>}
      {judges && <p>{named ? DISPUTE_TEXT.body(named) : DISPUTE_TEXT.noJudge}</p>}
      <TextAreaField
        label={DISPUTE_TEXT.label}
        placeholder={DISPUTE_TEXT.placeholder}
        rows={3}
        maxLength={DISPUTE_LIMITS.reasonMax}
        value={reason}
        error={fieldError}
        hint={DISPUTE_TEXT.left(DISPUTE_LIMITS.reasonMax - reason.length)}
        onChange={(event) => setReason(event.target.value)}
        onBlur={() => setIsTouched(true)}
        data-autofocus
      />
      <div className={styles.actions}>
        <Button type="button" variant="secondary" onClick={onDone} disabled={isBusy}>
          {DISPUTE_TEXT.keep}
        </Button>
        <Button type="submit" isLoading={isBusy} loadingText={DISPUTE_TEXT.sending}>
          {DISPUTE_TEXT.send}
        </Button>
      </div>
    </form>
  );
}

export function openDisputeSheet(betId: number) {
  openModal({
    title: DISPUTE_TEXT.title,
    render: (close) => <DisputeSheet betId={betId} onDone={close} />,
  });
}
