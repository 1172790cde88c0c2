import { Pencil } from 'lucide-react';
import { useState } from 'react';
import { answerLabel } from '../../domain/bet-types';
import { isWageringOpen } from '../../domain/bet-lists';
import type { Membership } from '../../domain/groups';
import type { BetRow, WagerRow } from '../data/db';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { PendingBadge } from '../ui/pending-badge';
import { Points } from '../ui/points';
import { BetMeta, BetPendingBadge } from './bet-meta';
import { useNow } from '../ui/use-now';
import { WagerForm, WAGERING_CLOSED_TEXT } from './wager-form';
import styles from './bet-card.module.css';

// The bet card of spec 02 §4 for an active bet: unanswered (the form, or a line saying betting
// has closed) or answered (locked, showing the wager, until the player chooses "Change"; we
// keep it locked so a stray tap never moves points).

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
  const isLocked = wager !== null && !isSending && (!isChanging || !isWageringOpen(bet, now));
  return (
    <Card
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
      {isLocked ? (
        <div className={styles.locked}>
          <p className={styles.lockedText}>
            <span className={styles.lockedLabel}>{BET_CARD_TEXT.yourWager}</span>
            <strong>{answerLabel(bet, wager.prediction)}</strong>
            <Points value={wager.points} size="small" />
            <PendingBadge row={wager} />
          </p>
          {isWageringOpen(bet, now) && membership && (
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
      ) : !isWageringOpen(bet, now) && !wager ? (
        // Closed (expired, or its picks shown by a resolution since undone): no form to fill in.
        <p className={styles.reason}>{WAGERING_CLOSED_TEXT}</p>
      ) : (
        <WagerForm
          key={bet.id}
          bet={bet}
          wager={wager}
          membership={membership}
          now={now}
          onCancel={wager ? () => setIsChanging(false) : undefined}
          onPlaced={() => setIsChanging(false)}
          onSendingChange={setIsSending}
        />
      )}
    </Card>
  );
}
