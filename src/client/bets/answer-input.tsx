import { useId, useState } from 'react';
import { BET_MESSAGES, BET_LIMITS } from '../../domain/bet-limits';
import { answerChoices, answerLabel, betTypeRulesOf, type BetRules } from '../../domain/bet-types';
import { isDecimalString } from '../../domain/decimal';
import { FieldError } from '../ui/field-error';
import styles from './answer-input.module.css';

// docs/groups-and-bets.md §2 "Answer inputs": yes/no two buttons labelled by yesLabel and noLabel (defaults
// Yes and No); multiple choice one button per option; numeric a number input "Enter your
// answer" (messages once touched, §5). Over/under: Over and Under showing the line when
// wagering; resolving it takes the actual number. Each choice may show its live odds.

/** What formatMultiplier shows for an answer nobody has staked on. */
const NO_ODDS = '—';

export const ANSWER_TEXT = {
  placeholder: 'Enter your answer',
  numberLabel: 'Your answer',
  unsupported: (type: string) => `Unsupported bet type ${type}`,
};

/** The numeric input's message (docs/groups-and-bets.md §5), or null when the text is a number. */
function numericAnswerError(text: string): string | null {
  const value = text.trim();
  if (value === '') return BET_MESSAGES.numberRequired;
  if (value.length > BET_LIMITS.predictionMax) return BET_MESSAGES.configInvalid;
  return isDecimalString(value) ? null : BET_MESSAGES.numberInvalid;
}

interface AnswerInputProps {
  bet: BetRules;
  value: string;
  onChange: (value: string) => void;
  /** 'resolve' asks an over/under bet for the actual number (docs/architecture.md §5). */
  purpose?: 'wager' | 'resolve';
  /** "×2.4" per answer, shown on its button. */
  odds?: Readonly<Record<string, string>>;
  disabled?: boolean;
  /** The group of buttons' name for screen readers. */
  label: string;
}

export function AnswerInput({
  bet,
  value,
  onChange,
  purpose = 'wager',
  odds,
  disabled,
  label,
}: AnswerInputProps) {
  const rules = betTypeRulesOf(bet.betType);
  const asked = purpose === 'resolve' ? rules?.correctAnswer : rules?.prediction;
  if (asked?.input === 'number')
    return (
      <NumberAnswer
        value={value}
        onChange={onChange}
        disabled={disabled}
        label={asked.label ?? label}
      />
    );
  const choices = answerChoices(bet);
  if (choices.length === 0)
    return <p className={styles.unsupported}>{ANSWER_TEXT.unsupported(bet.betType)}</p>;
  const detail = rules?.choiceDetail?.(bet.betTypeConfig);
  return (
    <div
      role="group"
      aria-label={label}
      className={[styles.choices, choices.length === 2 && styles.two].filter(Boolean).join(' ')}
    >
      {choices.map((answer) => (
        <button
          key={answer}
          type="button"
          className={styles.choice}
          aria-pressed={value === answer}
          disabled={disabled}
          onClick={() => onChange(answer)}
        >
          <span className={styles.choiceLabel}>
            {answerLabel(bet, answer)}
            {detail !== undefined && <span className={styles.line}> {detail}</span>}
          </span>
          {/* No pill before anyone has staked on the answer: "—" says nothing useful there. */}
          {odds?.[answer] !== undefined && odds[answer] !== NO_ODDS && (
            <span className={styles.odds}>{odds[answer]}</span>
          )}
        </button>
      ))}
    </div>
  );
}

function NumberAnswer({
  value,
  onChange,
  disabled,
  label,
}: {
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  label: string;
}) {
  const id = useId();
  const [isTouched, setIsTouched] = useState(false);
  const error = isTouched ? numericAnswerError(value) : null;
  return (
    <div className={styles.number}>
      <label htmlFor={id} className={styles.numberLabel}>
        {label}
      </label>
      <input
        id={id}
        className={styles.input}
        type="text"
        inputMode="decimal"
        autoComplete="off"
        placeholder={ANSWER_TEXT.placeholder}
        value={value}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => onChange(event.target.value)}
        onBlur={() => setIsTouched(true)}
      />
      <FieldError id={`${id}-error`} message={error ?? undefined} />
    </div>
  );
}
