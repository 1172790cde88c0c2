import { useEffect, useState } from 'react';
import { normalizeAnswer, validatePrediction } from '../../domain/bet-types';
import { isValidWagerPoints, wagerPointChoices } from '../../domain/bets';
import { prefillMultiplier } from '../../domain/bet-lists';
import { mayAfford, mayWager } from '../../domain/policies/bet-policy';
import { answerOdds, formatMultiplier, projectedPayout } from '../../domain/odds';
import type { Membership } from '../../domain/groups';
import { refusalText } from '../data/api-client';
import type { BetRow, WagerRow } from '../data/db';
import { forgetDraft, readDraft, saveDraft } from '../data/drafts';
import { toast } from '../shell/toast-store';
import { Button } from '../ui/button';
import { DraftNote } from '../ui/draft-note';
import { Points } from '../ui/points';
import { defaultPreset, ValueSelector } from '../ui/value-selector';
import { AnswerInput } from './answer-input';
import { placeWager } from './bet-actions';
import styles from './bet-card.module.css';

// The betting form of docs/groups-and-bets.md §2, §4: the answer input with live odds, the multiplier value
// selector, "If you win: about N points", Submit Prediction / Update Wager. An existing wager
// prefills the prediction and the multiplier (points / base when that is 1–3). The selector
// offers only what the server accepts (1x / 2x / 3x of the base, the domain's
// wagerPointChoices): the spec's custom "?" amount is left out, since any other number is
// refused. A refused write leaves the form as the player filled it (bet-card.tsx keeps it
// mounted while it is sent). An answer or amount picked and not sent stays as a draft of the
// group on this device (data/drafts.ts) and fills the form again when the bet reopens.

interface WagerDraft {
  prediction: string;
  points: number | null;
}

/** Said instead of the form once betting has closed (bet-card.tsx), and as the form's reason. */
export const WAGERING_CLOSED_TEXT = 'Wagering is closed for this bet.';

const WAGER_TEXT = {
  answers: 'Your prediction',
  submit: 'Submit Prediction',
  update: 'Update Wager',
  submitting: 'Submitting...',
  updating: 'Updating...',
  placed: 'Wager Placed!',
  ifYouWin: 'If you win: about',
  points: 'points',
  cancel: 'Keep my wager',
  closed: WAGERING_CLOSED_TEXT,
  notMember: 'Join this group to place a wager.',
  tooFewPoints: "You don't have enough points for this wager.",
};

interface WagerFormProps {
  bet: BetRow;
  wager: WagerRow | null;
  membership: Membership | null;
  now: number;
  /** Leaving the "Change" mode without submitting. */
  onCancel?: () => void;
  onPlaced?: () => void;
  /** While a write is out: the parent keeps the form on screen, so a refusal leaves the pick. */
  onSendingChange?: (isSending: boolean) => void;
}

export function WagerForm({
  bet,
  wager,
  membership,
  now,
  onCancel,
  onPlaced,
  onSendingChange,
}: WagerFormProps) {
  const base = bet.baseWagerAmount;
  // The bet policy's answer: whether the player may wager now, and the amounts the server takes.
  const verdict = mayWager({ role: membership ? 'member' : null }, bet, now);
  const amounts = verdict.allowed ? verdict.amounts : wagerPointChoices(base);
  const presets = amounts.map((value) => ({
    label: `${value / base}x`,
    value,
  }));
  const prefill = (): WagerDraft => {
    const multiplier = wager ? prefillMultiplier(wager.points, base) : null;
    const points = multiplier ? base * multiplier : wager ? wager.points : defaultPreset(presets);
    return { prediction: wager?.prediction ?? '', points };
  };
  const draftForm = `wager:${bet.id}` as const;
  const [draft] = useState(() => readDraft<WagerDraft>(bet.groupId, draftForm));
  const [isRestored, setIsRestored] = useState(draft !== undefined);
  const [isEdited, setIsEdited] = useState(false);
  const [prediction, setPrediction] = useState(() => (draft ?? prefill()).prediction);
  const [points, setPoints] = useState<number | null>(() => (draft ?? prefill()).points);
  const [isBusy, setIsBusy] = useState(false);
  useEffect(() => {
    if (isEdited) saveDraft(bet.groupId, draftForm, { prediction, points });
  }, [isEdited, bet.groupId, draftForm, prediction, points]);
  const edit =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      setIsEdited(true);
      set(value);
    };
  const dropDraft = () => {
    forgetDraft(bet.groupId, draftForm);
    setIsEdited(false);
    setIsRestored(false);
  };
  const discardDraft = () => {
    dropDraft();
    const { prediction: first, points: amount } = prefill();
    setPrediction(first);
    setPoints(amount);
  };

  const totals = bet.answerTotals ?? {};
  const odds = Object.fromEntries(
    answerOdds(bet, totals).map((entry) => [entry.answer, formatMultiplier(entry.multiplier)]),
  );
  const isPredictionValid = validatePrediction(bet, prediction) === null;
  // The server's own rule, so nothing the form lets through is refused for its amount.
  const isPointsValid = points !== null && isValidWagerPoints(base, points);
  // The bet policy's affordability: changing a wager frees its old points first.
  const affords = (amount?: number) =>
    mayAfford(membership?.availablePoints ?? 0, bet, {
      points: amount,
      currentWagerPoints: wager?.points,
    }).allowed;
  const reason = !verdict.allowed
    ? verdict.code === 'not_member'
      ? WAGER_TEXT.notMember
      : WAGER_TEXT.closed
    : !affords()
      ? WAGER_TEXT.tooFewPoints
      : null;
  const isAffordable = points === null || affords(points);
  const payout =
    isPredictionValid && isPointsValid
      ? projectedPayout(bet, totals, normalizeAnswer(bet, prediction), points, wager)
      : 0;

  const submit = async () => {
    if (!isPredictionValid || !isPointsValid || points === null) return;
    setIsBusy(true);
    onSendingChange?.(true);
    try {
      // Stored as the server stores it: "2,5" is sent and shown as "2.5".
      const placed = await placeWager(bet.id, normalizeAnswer(bet, prediction), points);
      dropDraft();
      // Queued offline: the outbox has told the player it goes out when they're back.
      if (!placed.pendingWriteId) toast.success(WAGER_TEXT.placed);
      onPlaced?.();
    } catch (error) {
      toast.error(refusalText(error));
    } finally {
      setIsBusy(false);
      onSendingChange?.(false);
    }
  };

  const isDisabled = reason !== null || isBusy;
  return (
    <form
      className={styles.form}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {isRestored && <DraftNote onDiscard={discardDraft} />}
      <AnswerInput
        bet={bet}
        value={prediction}
        onChange={edit(setPrediction)}
        odds={odds}
        disabled={isDisabled}
        label={WAGER_TEXT.answers}
      />
      <ValueSelector
        key={bet.id}
        presets={presets}
        value={points}
        onChange={edit(setPoints)}
        allowCustom={false}
        disabled={isDisabled}
        summary={points !== null && isPointsValid ? <Points value={points} size="small" /> : null}
      />
      {!isAffordable && reason === null && (
        <p className={styles.reason}>{WAGER_TEXT.tooFewPoints}</p>
      )}
      {payout > 0 && isAffordable && (
        <p className={styles.payout}>
          {WAGER_TEXT.ifYouWin} <Points value={payout} size="small" />
        </p>
      )}
      {reason && <p className={styles.reason}>{reason}</p>}
      <div className={styles.actions}>
        {onCancel && (
          <Button
            variant="ghost"
            onClick={() => {
              dropDraft();
              onCancel();
            }}
            disabled={isBusy}
          >
            {WAGER_TEXT.cancel}
          </Button>
        )}
        <Button
          type="submit"
          className={styles.submit}
          disabled={isDisabled || !isPredictionValid || !isPointsValid || !isAffordable}
          isLoading={isBusy}
          loadingText={wager ? WAGER_TEXT.updating : WAGER_TEXT.submitting}
        >
          {wager ? WAGER_TEXT.update : WAGER_TEXT.submit}
        </Button>
      </div>
    </form>
  );
}
