import { useState } from 'react';
import type { ScoringTable } from '../../domain/score-tips';
import { scoringTableSchema } from '../../domain/schemas/rounds';
import { refusalText } from '../data/api-client';
import { openModal } from '../shell/modal-store';
import { toast } from '../shell/toast-store';
import { Button } from '../ui/button';
import { FormAlert } from '../ui/form-alert';
import { TextField } from '../ui/text-field';
import { updateScoring } from './round-actions';
import styles from './rounds.module.css';

// An admin changes a round's points (exact result, right difference, right tendency) before
// its first kick-off: checked by the rule the server checks them with (scoringTableSchema), then
// sent through the outbox; the server's refusal (the round started meanwhile) shows here.

export const SCORING_TEXT = {
  title: 'Round points',
  open: 'Edit points',
  exact: 'Exact result',
  difference: 'Right goal difference',
  tendency: 'Right tendency',
  hint: 'Points for a tip. A skipped match scores 0. Kicktipp’s are 4, 3 and 2.',
  keep: 'Not now',
  save: 'Save points',
  saving: 'Saving...',
  saved: 'Points saved.',
} as const;

const FIELDS = ['exact', 'difference', 'tendency'] as const;

type Draft = Record<(typeof FIELDS)[number], string>;

export function ScoringSheet({
  groupId,
  roundId,
  scoring,
  onDone,
}: {
  groupId: number;
  roundId: number;
  scoring: ScoringTable;
  onDone: () => void;
}) {
  const [draft, setDraft] = useState<Draft>({
    exact: String(scoring.exact),
    difference: String(scoring.difference),
    tendency: String(scoring.tendency),
  });
  const [problem, setProblem] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  const save = async () => {
    const typed = Object.fromEntries(
      FIELDS.map((field) => [field, draft[field].trim() === '' ? NaN : Number(draft[field])]),
    );
    const parsed = scoringTableSchema.safeParse(typed);
    if (!parsed.success) return setProblem(parsed.error.issues[0]!.message);
    setProblem(null);
    setIsBusy(true);
    try {
      await updateScoring(groupId, roundId, parsed.data);
      if (navigator.onLine) toast.success(SCORING_TEXT.saved);
      onDone();
    } catch (error) {
      setProblem(refusalText(error));
      setIsBusy(false);
    }
  };

  return (
    <form
      className={styles.sheet}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <p className={styles.meta}>{SCORING_TEXT.hint}</p>
      {FIELDS.map((field, index) => (
        <TextField
          key={field}
          label={SCORING_TEXT[field]}
          type="number"
          inputMode="numeric"
          min={0}
          max={100}
          step={1}
          value={draft[field]}
          onChange={(event) => setDraft((all) => ({ ...all, [field]: event.target.value }))}
          data-autofocus={index === 0 ? true : undefined}
        />
      ))}
      {problem && <FormAlert tone="error">{problem}</FormAlert>}
      <div className={styles.actions}>
        <Button type="button" variant="secondary" onClick={onDone} disabled={isBusy}>
          {SCORING_TEXT.keep}
        </Button>
        <Button type="submit" isLoading={isBusy} loadingText={SCORING_TEXT.saving}>
          {SCORING_TEXT.save}
        </Button>
      </div>
    </form>
  );
}

export function openScoringSheet(round: { id: number; groupId: number; scoring: ScoringTable }) {
  openModal({
    title: SCORING_TEXT.title,
    render: (close) => (
      <ScoringSheet
        groupId={round.groupId}
        roundId={round.id}
        scoring={round.scoring}
        onDone={close}
      />
    ),
  });
}
