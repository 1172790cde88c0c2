import { CheckCheck, Hourglass } from 'lucide-react';
import { useState } from 'react';
import {
  answerChoices,
  answerLabel,
  betTypeRulesOf,
  normalizeAnswer,
  validateCorrectAnswer,
} from '../../domain/bet-types';
import { isBettingOpen } from '../../domain/fair-resolution';
import { refusalText } from '../data/api-client';
import type { BetRow } from '../data/db';
import { toast } from '../shell/toast-store';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { useNow } from '../ui/use-now';
import { AnswerInput, ANSWER_TEXT } from './answer-input';
import { resolveBet } from './bet-actions';
import styles from './resolve-card.module.css';

// docs/groups-and-bets.md §2, §4 "Resolve card": selection (the answer input of the type; over/under takes
// the actual number) → confirmation (title, answer, the warning, Back, Confirm with
// "Resolving..."); "Bet resolved!"; a failure is a toast. The parent keys it by bet id, so
// a different bet starts again at selection with no answer.
// While betting is still open (the domain's isBettingOpen), a result would cut everyone off
// before the close they were promised: the card first offers only "Close betting now and
// settle", which says who it cuts off and asks again before the selection shows. The card has
// its own tint and heading so it never reads as part of the betting form above it.

const RESOLVE_TEXT = {
  heading: 'Resolve this bet',
  /** A bet created offline has no server id yet. */
  notSent: "This bet can be resolved once it's sent.",
  pick: 'The correct answer',
  resolve: 'Resolve Bet',
  confirmQuestion: 'Are you sure you want to resolve this bet?',
  // The spec's sentence, kept whole and made true: a result can be undone for UNDO_WINDOW_MS.
  cannotUndo: 'You can undo a result for 10 minutes; after that, this action cannot be undone.',
  answer: 'Answer:',
  back: 'Back',
  confirm: 'Confirm',
  resolving: 'Resolving...',
  resolved: 'Bet resolved!',
  stillOpen: 'Betting is still open',
  stillOpenHint:
    'It closes on its own when the countdown ends. Settle now only if the answer is already known.',
  closeNow: 'Close betting now and settle',
  closeQuestion: 'Close betting now?',
  cutOff: 'Everyone is cut off: once you settle, nobody can place or change a wager on this bet.',
  picked: (count: number) =>
    count === 0
      ? 'Nobody has picked yet.'
      : count === 1
        ? '1 person has picked.'
        : `${count} people have picked.`,
  keepOpen: 'Keep betting open',
  closeConfirm: 'Yes, close betting',
};

export function ResolveCard({ bet, showTitle = false }: { bet: BetRow; showTitle?: boolean }) {
  const [answer, setAnswer] = useState('');
  const [phase, setPhase] = useState<'selection' | 'confirmation'>('selection');
  const [isResolving, setIsResolving] = useState(false);
  // Settling before the close: idle (only the step is offered), asking (its warning), agreed.
  const [early, setEarly] = useState<'idle' | 'asking' | 'agreed'>('idle');
  const isOpen = isBettingOpen(bet, useNow(5000));
  const asked = betTypeRulesOf(bet.betType)?.correctAnswer;
  const isSupported =
    asked !== undefined && (asked.input === 'number' || answerChoices(bet).length > 0);
  const isChosen = validateCorrectAnswer(bet, answer) === null;
  // A number answer (numeric, over/under's actual number) shows as it will be stored ("2,5" as
  // "2.5"); a choice by its label.
  const shownAnswer =
    asked?.input === 'number' ? normalizeAnswer(bet, answer) : answerLabel(bet, answer.trim());

  const confirm = async () => {
    setIsResolving(true);
    try {
      const resolved = await resolveBet(bet.id, answer.trim());
      // Queued offline: the outbox has told the player it goes out when they're back.
      if (!resolved.pendingWriteId) toast.success(RESOLVE_TEXT.resolved);
    } catch (error) {
      toast.error(refusalText(error));
      setIsResolving(false);
    }
  };

  return (
    <Card as="article" className={styles.card} aria-label={`${RESOLVE_TEXT.heading}: ${bet.title}`}>
      <header className={styles.head}>
        <CheckCheck size={20} aria-hidden="true" className={styles.icon} />
        <h3 className={styles.heading}>{showTitle ? bet.title : RESOLVE_TEXT.heading}</h3>
      </header>
      {bet.id < 0 ? (
        <p className={styles.unsupported}>{RESOLVE_TEXT.notSent}</p>
      ) : !isSupported ? (
        <p className={styles.unsupported}>{ANSWER_TEXT.unsupported(bet.betType)}</p>
      ) : isOpen && early === 'idle' ? (
        <>
          <div className={styles.open}>
            <Hourglass size={18} aria-hidden="true" className={styles.openIcon} />
            <div>
              <p className={styles.openTitle}>{RESOLVE_TEXT.stillOpen}</p>
              <p className={styles.openHint}>{RESOLVE_TEXT.stillOpenHint}</p>
            </div>
          </div>
          <div className={styles.actions}>
            <Button variant="secondary" onClick={() => setEarly('asking')}>
              {RESOLVE_TEXT.closeNow}
            </Button>
          </div>
        </>
      ) : isOpen && early === 'asking' ? (
        <div
          className={styles.confirm}
          role="group"
          aria-labelledby={`close-q-${bet.id}`}
          aria-describedby={`close-w-${bet.id}`}
        >
          <p id={`close-q-${bet.id}`} className={styles.question}>
            {RESOLVE_TEXT.closeQuestion}
          </p>
          <p id={`close-w-${bet.id}`} className={styles.warning}>
            {RESOLVE_TEXT.cutOff} {RESOLVE_TEXT.picked(bet.wagerCount ?? 0)}
          </p>
          <div className={styles.actions}>
            {/* Focus on the safe choice: a stray Enter keeps betting open. */}
            <Button variant="secondary" onClick={() => setEarly('idle')} autoFocus>
              {RESOLVE_TEXT.keepOpen}
            </Button>
            <Button variant="danger" onClick={() => setEarly('agreed')}>
              {RESOLVE_TEXT.closeConfirm}
            </Button>
          </div>
        </div>
      ) : phase === 'selection' ? (
        <>
          <AnswerInput
            bet={bet}
            value={answer}
            onChange={setAnswer}
            purpose="resolve"
            label={RESOLVE_TEXT.pick}
          />
          <div className={styles.actions}>
            <Button disabled={!isChosen} onClick={() => setPhase('confirmation')}>
              {RESOLVE_TEXT.resolve}
            </Button>
          </div>
        </>
      ) : (
        <div
          className={styles.confirm}
          role="group"
          aria-labelledby={`resolve-q-${bet.id}`}
          aria-describedby={`resolve-w-${bet.id}`}
        >
          <p className={styles.betTitle}>{bet.title}</p>
          <p className={styles.answer}>
            {RESOLVE_TEXT.answer} <strong>{shownAnswer}</strong>
          </p>
          <p id={`resolve-q-${bet.id}`} className={styles.question}>
            {RESOLVE_TEXT.confirmQuestion}
          </p>
          <p id={`resolve-w-${bet.id}`} className={styles.warning}>
            {RESOLVE_TEXT.cannotUndo}
          </p>
          <div className={styles.actions}>
            <Button
              variant="secondary"
              disabled={isResolving}
              onClick={() => setPhase('selection')}
            >
              {RESOLVE_TEXT.back}
            </Button>
            <Button
              isLoading={isResolving}
              loadingText={RESOLVE_TEXT.resolving}
              onClick={() => void confirm()}
              autoFocus
            >
              {RESOLVE_TEXT.confirm}
            </Button>
          </div>
        </div>
      )}
    </Card>
  );
}
