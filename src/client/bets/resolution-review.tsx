import { Flag, ShieldCheck, Undo2 } from 'lucide-react';
import { useState } from 'react';
import { disputeOpenedWords } from '../../domain/bet-outcome';
import {
  answerLabel,
  betTypeRulesOf,
  normalizeAnswer,
  validateCorrectAnswer,
} from '../../domain/bet-types';
import { DISPUTE_WINDOW_MS, undoDeadline } from '../../domain/fair-resolution';
import type { BetRow } from '../data/db';
import { refusalText } from '../data/api-client';
import { ConfirmDialog } from '../shell/confirm-dialog';
import { openModal } from '../shell/modal-store';
import { toast } from '../shell/toast-store';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { useNow } from '../ui/use-now';
import { AnswerInput } from './answer-input';
import { openDisputeSheet } from './dispute-sheet';
import { dismissDispute, reResolveBet, undoResolution } from './fair-resolution-actions';
import { mirrorPolicy, type MirrorFacts } from './mirror-policy';
import { useMemberName } from './use-bet-history';
import { judgesNamed, useDisputeJudges } from './use-dispute-judges';
import styles from './resolution-review.module.css';

// On a resolved bet's page: whoever resolved it may undo it for 10 minutes (with the
// time left counting down); a participant may dispute it within 24 hours; an open dispute shows
// its reason and who will judge it, by name (the domain's disputeJudgeIds: the group's admins
// without a stake in the bet, else any member without one), and the judge corrects the result
// or lets it stand. Nothing shows when none of these applies.

export const REVIEW_TEXT = {
  label: 'About this result',
  undoHeading: 'Made a mistake?',
  undoBody: (left: string) => `You can undo this result for ${left}.`,
  undo: 'Undo result',
  undoTitle: 'Undo this result?',
  undoConfirmBody:
    'Everyone gets their points back as they were before it was resolved, and the bet waits for its result again.',
  undoKeep: 'Keep result',
  undoing: 'Undoing...',
  undone: 'Result undone. Points are back where they were.',
  disputeHint: (until: string) => `Think the result is wrong? You can dispute it until ${until}.`,
  dispute: 'Dispute result',
  openHeading: 'Result disputed',
  openBody: disputeOpenedWords,
  /** Who will decide, by the domain's disputeJudgeIds (use-dispute-judges.ts). */
  waiting: (judges: string) =>
    `${judges} will correct it or let it stand. Points stay as they are until then.`,
  noJudge:
    'Everyone in the group has a stake in this bet, so nobody can judge the dispute: the result stands as it was paid.',
  reviewHint:
    'You have no stake in this bet, so you can correct the result (points are reversed exactly, then paid again) or let it stand.',
  dismiss: 'Let it stand',
  dismissed: 'Dispute dismissed. The result stands.',
  correct: 'Correct the result',
  newAnswer: 'The correct answer',
  confirmCorrect: (answer: string) => `Re-resolve as “${answer}”`,
  correcting: 'Saving...',
  corrected: 'Result corrected.',
  back: 'Back',
  closed: 'This result was reviewed by an admin and is final.',
  someone: 'A player',
};

function formatLeft(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

export function ResolutionReview({
  bet,
  viewerId,
  canJudgeDispute,
  policyFacts,
}: {
  bet: BetRow;
  viewerId: number | undefined;
  canJudgeDispute: boolean;
  /** What the bet policy weighs for the viewer (undefined: signed out). */
  policyFacts: MirrorFacts | undefined;
}) {
  const now = useNow(1000);
  const disputerName = useMemberName(bet.groupId, bet.dispute?.userId);
  if (bet.state !== 'resolved' || bet.id < 0 || viewerId === undefined || !policyFacts) return null;
  // The bet policy's answers, each second (the undo window counts down).
  const policy = mirrorPolicy(bet, policyFacts, now);
  const deadline = undoDeadline(bet);
  const canUndo = policy.undo.allowed && deadline !== null && !bet.pendingWriteId;
  const canDispute = policy.dispute.allowed;
  const dispute = bet.dispute;
  if (!canUndo && !canDispute && !dispute) return null;

  return (
    <Card as="article" className={styles.card} aria-label={REVIEW_TEXT.label}>
      {canUndo && (
        <div className={styles.row}>
          <div className={styles.text}>
            <p className={styles.title}>{REVIEW_TEXT.undoHeading}</p>
            <p className={styles.muted}>
              <span role="timer" aria-live="off" className={styles.timer}>
                {REVIEW_TEXT.undoBody(formatLeft(deadline - now))}
              </span>
            </p>
          </div>
          <Button
            variant="secondary"
            icon={<Undo2 size={16} aria-hidden="true" />}
            onClick={() => openUndoConfirm(bet.id)}
          >
            {REVIEW_TEXT.undo}
          </Button>
        </div>
      )}
      {canDispute && (
        <div className={styles.row}>
          <p className={styles.muted}>
            {REVIEW_TEXT.disputeHint(
              new Date(Date.parse(bet.resolvedAt!) + DISPUTE_WINDOW_MS).toLocaleString([], {
                weekday: 'short',
                hour: 'numeric',
                minute: '2-digit',
              }),
            )}
          </p>
          <Button
            variant="secondary"
            icon={<Flag size={16} aria-hidden="true" />}
            onClick={() => openDisputeSheet(bet.id)}
          >
            {REVIEW_TEXT.dispute}
          </Button>
        </div>
      )}
      {dispute?.state === 'open' && (
        <OpenDispute
          bet={bet}
          who={disputerName ?? REVIEW_TEXT.someone}
          isViewer={dispute.userId === viewerId}
          canJudge={canJudgeDispute}
        />
      )}
      {dispute?.state === 'closed' && (
        <p className={styles.final}>
          <ShieldCheck size={16} aria-hidden="true" />
          {REVIEW_TEXT.closed}
        </p>
      )}
    </Card>
  );
}

function OpenDispute({
  bet,
  who,
  isViewer,
  canJudge,
}: {
  bet: BetRow;
  who: string;
  isViewer: boolean;
  canJudge: boolean;
}) {
  const judges = useDisputeJudges(bet, bet.dispute?.userId);
  const [isCorrecting, setIsCorrecting] = useState(false);
  const [answer, setAnswer] = useState('');
  const [isBusy, setIsBusy] = useState(false);
  const asked = betTypeRulesOf(bet.betType)?.correctAnswer;
  const isChosen = validateCorrectAnswer(bet, answer) === null;
  const shown =
    asked?.input === 'number' ? normalizeAnswer(bet, answer) : answerLabel(bet, answer.trim());

  const act = async (work: () => Promise<'sent' | 'queued'>, done: string) => {
    setIsBusy(true);
    try {
      if ((await work()) === 'sent') toast.success(done);
    } catch (error) {
      toast.error(refusalText(error));
    } finally {
      setIsBusy(false);
    }
  };

  return (
    <div className={styles.dispute}>
      <p className={styles.title}>
        <Flag size={16} aria-hidden="true" className={styles.flag} />
        {REVIEW_TEXT.openHeading}
      </p>
      <p>{REVIEW_TEXT.openBody(who, isViewer)}</p>
      <blockquote className={styles.reason}>{bet.dispute?.reason}</blockquote>
      {!canJudge ? (
        judges && (
          <p className={styles.muted} data-testid="dispute-judges">
            {judges.length > 0 ? REVIEW_TEXT.waiting(judgesNamed(judges)) : REVIEW_TEXT.noJudge}
          </p>
        )
      ) : !isCorrecting ? (
        <>
          <p className={styles.muted}>{REVIEW_TEXT.reviewHint}</p>
          <div className={styles.actions}>
            <Button
              variant="secondary"
              disabled={isBusy}
              onClick={() => void act(() => dismissDispute(bet.id), REVIEW_TEXT.dismissed)}
            >
              {REVIEW_TEXT.dismiss}
            </Button>
            <Button disabled={isBusy} onClick={() => setIsCorrecting(true)}>
              {REVIEW_TEXT.correct}
            </Button>
          </div>
        </>
      ) : (
        <>
          <AnswerInput
            bet={bet}
            value={answer}
            onChange={setAnswer}
            purpose="resolve"
            label={REVIEW_TEXT.newAnswer}
          />
          <div className={styles.actions}>
            <Button variant="secondary" disabled={isBusy} onClick={() => setIsCorrecting(false)}>
              {REVIEW_TEXT.back}
            </Button>
            <Button
              disabled={!isChosen}
              isLoading={isBusy}
              loadingText={REVIEW_TEXT.correcting}
              onClick={() =>
                void act(() => reResolveBet(bet.id, answer.trim()), REVIEW_TEXT.corrected)
              }
            >
              {isChosen ? REVIEW_TEXT.confirmCorrect(shown) : REVIEW_TEXT.correct}
            </Button>
          </div>
        </>
      )}
    </div>
  );
}

function openUndoConfirm(betId: number) {
  openModal({
    title: REVIEW_TEXT.undoTitle,
    size: 'narrow',
    render: (close) => (
      <ConfirmDialog
        body={REVIEW_TEXT.undoConfirmBody}
        keepLabel={REVIEW_TEXT.undoKeep}
        confirmLabel={REVIEW_TEXT.undo}
        busyLabel={REVIEW_TEXT.undoing}
        onConfirm={async () => {
          if ((await undoResolution(betId)) === 'sent') toast.success(REVIEW_TEXT.undone);
        }}
        onDone={close}
      />
    ),
  });
}
