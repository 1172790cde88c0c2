import type { ReactNode } from 'react';
import { Button } from '../ui/button';
import { FieldError } from '../ui/field-error';
import styles from './rounds.module.css';

// The new round's matches typed on the phone: home, away and kick-off per row, a row added at
// a time. A refusal (naming the line) shows under the rows.

export type TypedRow = { home: string; away: string; kickoff: string };

export function MatchRowsField({
  rows,
  onChange,
  error,
  addIcon,
}: {
  rows: readonly TypedRow[];
  onChange: (rows: TypedRow[]) => void;
  error: string | undefined;
  addIcon: ReactNode;
}) {
  const edit = (index: number, field: keyof TypedRow, value: string) =>
    onChange(rows.map((row, at) => (at === index ? { ...row, [field]: value } : row)));
  return (
    <fieldset className={styles.rows} aria-describedby={error ? 'match-rows-error' : undefined}>
      <legend className={styles.rowsLegend}>Matches</legend>
      {rows.map((row, index) => (
        <div key={index} className={styles.typedRow}>
          <input
            aria-label={`Match ${index + 1} home team`}
            placeholder="Home"
            value={row.home}
            onChange={(event) => edit(index, 'home', event.target.value)}
          />
          <input
            aria-label={`Match ${index + 1} away team`}
            placeholder="Away"
            value={row.away}
            onChange={(event) => edit(index, 'away', event.target.value)}
          />
          <input
            aria-label={`Match ${index + 1} kick-off`}
            type="datetime-local"
            value={row.kickoff}
            onChange={(event) => edit(index, 'kickoff', event.target.value)}
          />
        </div>
      ))}
      <Button
        type="button"
        variant="secondary"
        size="small"
        icon={addIcon}
        onClick={() => onChange([...rows, { home: '', away: '', kickoff: '' }])}
      >
        Add a match
      </Button>
      <FieldError id="match-rows-error" message={error} />
    </fieldset>
  );
}
