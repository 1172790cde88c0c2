import { useState } from 'react';
import { endsAtProblem, SEASON_LIMITS } from '../../domain/seasons';
import { startSeasonRequestSchema } from '../../domain/schemas/seasons';
import { refusalText } from '../data/api-client';
import { openModal } from '../shell/modal-store';
import { toast } from '../shell/toast-store';
import { Button } from '../ui/button';
import { Checkbox } from '../ui/checkbox';
import { FormAlert } from '../ui/form-alert';
import { TextField } from '../ui/text-field';
import { startSeason } from './season-actions';
import styles from './seasons.module.css';

// An admin starts a season: a name, the day it ends (at the end of that day, the player's
// time), and whether everyone's points go back to the starting points when it ends.

export const START_SEASON_TEXT = {
  title: 'Start a season',
  name: 'Season name',
  namePlaceholder: 'Autumn cup',
  endsOn: 'Ends on',
  reset: 'Reset points when it ends',
  resetWarning:
    "Everyone's available points go back to the group's starting points. Points on open bets stay put.",
  keep: 'Not now',
  start: 'Start season',
  starting: 'Starting...',
  started: 'The season has started. Good luck, everyone!',
};

/** The date input's value for a day `days` from now, in the player's calendar. */
function dayFromNow(days: number): string {
  const date = new Date(Date.now() + days * 86_400_000);
  const month = String(date.getMonth() + 1).padStart(2, '0');
  return `${date.getFullYear()}-${month}-${String(date.getDate()).padStart(2, '0')}`;
}

/** The end of that day in the player's time zone. */
function endOfDay(day: string): Date {
  return new Date(`${day}T23:59:59`);
}

function StartSeasonSheet({ groupId, onDone }: { groupId: number; onDone: () => void }) {
  const [name, setName] = useState('');
  const [day, setDay] = useState(() => dayFromNow(30));
  const [resetPoints, setResetPoints] = useState(false);
  const [isTouched, setIsTouched] = useState(false);
  const [isBusy, setIsBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const endsAt = endOfDay(day);
  const parsed = startSeasonRequestSchema.safeParse({
    name,
    endsAt: Number.isNaN(endsAt.getTime()) ? '' : endsAt.toISOString(),
    resetPoints,
  });
  const nameError = parsed.success
    ? undefined
    : parsed.error.issues.find((issue) => issue.path[0] === 'name')?.message;
  const dayError = endsAtProblem(endsAt, new Date()) ?? undefined;

  const send = async () => {
    setIsTouched(true);
    if (!parsed.success || dayError) return;
    setIsBusy(true);
    setFailure(null);
    try {
      await startSeason(groupId, parsed.data);
      toast.success(START_SEASON_TEXT.started);
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
      <TextField
        label={START_SEASON_TEXT.name}
        placeholder={START_SEASON_TEXT.namePlaceholder}
        maxLength={SEASON_LIMITS.nameMax}
        value={name}
        error={isTouched ? nameError : undefined}
        onChange={(event) => setName(event.target.value)}
        onBlur={() => setIsTouched(true)}
        data-autofocus
      />
      <TextField
        label={START_SEASON_TEXT.endsOn}
        type="date"
        min={dayFromNow(0)}
        max={dayFromNow(364)}
        value={day}
        error={isTouched ? dayError : undefined}
        onChange={(event) => setDay(event.target.value)}
      />
      <div>
        <Checkbox
          label={START_SEASON_TEXT.reset}
          checked={resetPoints}
          onChange={(event) => setResetPoints(event.target.checked)}
        />
        {resetPoints && <p className={styles.warning}>{START_SEASON_TEXT.resetWarning}</p>}
      </div>
      <div className={styles.actions}>
        <Button type="button" variant="secondary" onClick={onDone} disabled={isBusy}>
          {START_SEASON_TEXT.keep}
        </Button>
        <Button type="submit" isLoading={isBusy} loadingText={START_SEASON_TEXT.starting}>
          {START_SEASON_TEXT.start}
        </Button>
      </div>
    </form>
  );
}

export function openStartSeasonSheet(groupId: number) {
  openModal({
    title: START_SEASON_TEXT.title,
    render: (close) => <StartSeasonSheet groupId={groupId} onDone={close} />,
  });
}
