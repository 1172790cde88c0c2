import { Pencil } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { answerLabel } from '../../domain/bet-types';
import type { Membership } from '../../domain/groups';
import { mayWager } from '../../domain/policies/bet-policy';
import type { BetRow, WagerRow } from '../data/db';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { PendingBadge } from '../ui/pending-badge';
import { Points } from '../ui/points';
import { BetMeta, BetPendingBadge } from './bet-meta';
import { useNow } from '../ui/use-now';
import { WagerForm } from './wager-form';
import styles from './bet-card.module.css';

// The bet card of docs/groups-and-bets.md §4 for an active bet: unanswered (the form; once betting has closed,
// only the countdown's words saying so) or answered (locked, showing the wager, until the
// player chooses "Change"; we keep it locked so a stray tap never moves points).

const BET_CARD_TEXT = {
  yourWager: 'Your wager',
  change: 'Change',
  /** A bet created offline has no server id yet: nobody can wager on it until it has one. */
};

interface BetCardProps {
  bet: BetRow;
  wager: WagerRow | null;
  membership: Membership | null;
  /** The dashboard shows the title on the card; the bet page has it as its heading. */
  showTitle?: boolean;
  groupName?: string;
}

export function BetCard({ bet, wager, membership, showTitle = false, groupName }: BetCardProps) {
  const now = useNow(1000);
  const [isChanging, setIsChanging] = useState(false);
  // The mirror shows a wager the moment it is sent; the form stays until the server agrees, so
  // a refusal (which takes that wager back) leaves the player's pick as it was.
  const [isSending, setIsSending] = useState(false);
  // A change begun before the close ends with it: the form never outlives betting.
  // The bet policy's answer: whether the player may wager now, and whether anyone still may.
  const canWager = mayWager({ role: membership ? 'member' : null }, bet, now).allowed;
  const isClosed = !mayWager({ role: 'member' }, bet, now).allowed;
  const isLocked = wager !== null && !isSending && (!isChanging || !canWager);
  const { cardRef, resultRef, noteSending } = useKeptFocus(isSending, isLocked);
  return (
    <Card
      ref={cardRef}
      as="article"
      className={styles.card}
      aria-label={showTitle ? bet.title : 'Place your wager'}
    >
      {showTitle && (
        <header className={styles.head}>
          <h3 className={styles.title}>
            {bet.title} <BetPendingBadge bet={bet} />
          </h3>
          {bet.description && <p className={styles.description}>{bet.description}</p>}
        </header>
      )}
      <BetMeta bet={bet} groupName={groupName} />
      {/* Closed with no wager (expired, or its picks shown by a resolution since undone): no
          form, and no line of its own: the countdown's words above already say betting closed. */}
      {isLocked ? (
        // The wager's result takes the focus the form had (tabIndex -1: reachable by script only).
        <div ref={resultRef} tabIndex={-1} className={styles.locked}>
          <p className={styles.lockedText}>
            <span className={styles.lockedLabel}>{BET_CARD_TEXT.yourWager}</span>
            <strong>{answerLabel(bet, wager.prediction)}</strong>
            <Points value={wager.points} size="small" />
            <PendingBadge row={wager} />
          </p>
          {canWager && (
            <Button
              variant="secondary"
              size="small"
              icon={<Pencil size={16} aria-hidden="true" />}
              onClick={() => setIsChanging(true)}
            >
              {BET_CARD_TEXT.change}
            </Button>
          )}
        </div>
      ) : isClosed && !wager ? null : (
        <WagerForm
          key={bet.id}
          bet={bet}
          wager={wager}
          membership={membership}
          now={now}
          onCancel={wager ? () => setIsChanging(false) : undefined}
          onPlaced={() => setIsChanging(false)}
          onSendingChange={(sending) => {
            if (sending) noteSending();
            setIsSending(sending);
          }}
        />
      )}
    </Card>
  );
}

/**
 * While a wager is sent its form's controls are disabled, which drops the keyboard's focus to
 * the top of the page. Focus that was in the card when it went out comes back to it: to the
 * result once the wager is in, to the form's own button when it was refused.
 */
function useKeptFocus(isSending: boolean, isLocked: boolean) {
  const cardRef = useRef<HTMLElement>(null);
  const resultRef = useRef<HTMLDivElement>(null);
  const wasInCard = useRef(false);
  useEffect(() => {
    if (isSending || !wasInCard.current) return;
    wasInCard.current = false;
    const card = cardRef.current;
    if (!card || card.contains(document.activeElement)) return;
    const target =
      resultRef.current ?? card.querySelector<HTMLElement>('button[type="submit"]:not(:disabled)');
    target?.focus();
  }, [isSending, isLocked]);
  return {
    cardRef,
    resultRef,
    noteSending: () => {
      wasInCard.current = cardRef.current?.contains(document.activeElement) ?? false;
    },
  };
}
