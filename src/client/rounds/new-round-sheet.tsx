import { Plus } from 'lucide-react';
import { useState } from 'react';
import { readRoundList } from '../../domain/fixtures';
import { ROUND_LIMITS } from '../../domain/schemas/rounds';
import type { CreateRoundRequest } from '../../domain/schemas/rounds';
import { refusalText } from '../data/api-client';
import { openModal } from '../shell/modal-store';
import { toast } from '../shell/toast-store';
import { Button } from '../ui/button';
import { SegmentedField } from '../ui/segmented-field';
import { TextAreaField } from '../ui/text-area-field';
import { TextField } from '../ui/text-field';
import { createRound } from './round-actions';
import { MatchRowsField, type TypedRow } from './match-rows-field';
import styles from './rounds.module.css';

// An admin makes a round: a name and its matches, pasted as CSV, from an .ics calendar file or
// typed as rows. The list is checked by the rule the server checks it with (fixtures.ts), so a
// bad line is named next to the input before anything is sent; the server's refusal shows there
// too, and nothing of the round is created.

type Source = 'csv' | 'ics' | 'rows';

export const NEW_ROUND_TEXT = {
  title: 'New round',
  name: 'Round name',
  namePlaceholder: 'Matchday 12',
  source: 'Matches',
  csv: 'Paste CSV',
  csvHint: 'One match a line: date, time, home, away',
  ics: 'Calendar file (.ics)',
  keep: 'Not now',
  create: 'Create round',
  creating: 'Creating...',
  created: 'The round is ready. Time to tip!',
  nameRequired: 'Round name is required',
};

const SOURCES = [
  { value: 'csv', label: 'CSV' },
  { value: 'ics', label: 'Calendar' },
  { value: 'rows', label: 'Type' },
] as const;

const zone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

function NewRoundSheet({ groupId, onDone }: { groupId: number; onDone: () => void }) {
  const [name, setName] = useState('');
  const [source, setSource] = useState<Source>('csv');
  const [csv, setCsv] = useState('');
  const [ics, setIcs] = useState<{ file: string; text: string } | null>(null);
  const [rows, setRows] = useState<TypedRow[]>([{ home: '', away: '', kickoff: '' }]);
  const [listError, setListError] = useState<string | undefined>();
  const [nameError, setNameError] = useState<string | undefined>();
  const [isBusy, setIsBusy] = useState(false);

  const request = (): CreateRoundRequest => {
    const base = { name, timeZone: zone() };
    if (source === 'csv') return { ...base, csv };
    if (source === 'ics') return { ...base, ics: ics?.text ?? '' };
    return {
      ...base,
      matches: rows
        .filter((row) => row.home || row.away || row.kickoff)
        .map((row) => ({
          home: row.home,
          away: row.away,
          // The phone's local time, with its zone, as the server reads a typed row.
          kickoff: row.kickoff ? new Date(row.kickoff).toISOString() : '',
        })),
    };
  };

  const send = async () => {
    const body = request();
    const named = name.trim() ? undefined : NEW_ROUND_TEXT.nameRequired;
    const list = readRoundList({ ...body, timeZone: zone(), closeMinutesBefore: 0 }, Date.now());
    setNameError(named);
    setListError(list.ok ? undefined : list.problem.message);
    if (named || !list.ok) return;
    setIsBusy(true);
    try {
      await createRound(groupId, body);
      toast.success(NEW_ROUND_TEXT.created);
      onDone();
    } catch (error) {
      // The server's refusal names the line and the field: shown at the list.
      setListError(refusalText(error));
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
      <TextField
        label={NEW_ROUND_TEXT.name}
        placeholder={NEW_ROUND_TEXT.namePlaceholder}
        maxLength={ROUND_LIMITS.nameMax}
        value={name}
        error={nameError}
        onChange={(event) => setName(event.target.value)}
        data-autofocus
      />
      <SegmentedField
        label={NEW_ROUND_TEXT.source}
        value={source}
        options={SOURCES}
        onChange={(value) => {
          setSource(value);
          setListError(undefined);
        }}
      />
      {source === 'csv' && (
        <TextAreaField
          label={NEW_ROUND_TEXT.csv}
          hint={NEW_ROUND_TEXT.csvHint}
          placeholder={'2026-12-05,15:30,Ajax,PSV\n2026-12-05,18:30,AZ,Twente'}
          rows={6}
          className={styles.csv}
          value={csv}
          error={listError}
          onChange={(event) => setCsv(event.target.value)}
        />
      )}
      {source === 'ics' && (
        <TextField
          label={NEW_ROUND_TEXT.ics}
          type="file"
          accept=".ics,text/calendar"
          hint={ics?.file}
          error={listError}
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) void file.text().then((text) => setIcs({ file: file.name, text }));
          }}
        />
      )}
      {source === 'rows' && (
        <MatchRowsField
          rows={rows}
          onChange={setRows}
          error={listError}
          addIcon={<Plus size={16} aria-hidden="true" />}
        />
      )}
      <div className={styles.actions}>
        <Button type="button" variant="secondary" onClick={onDone} disabled={isBusy}>
          {NEW_ROUND_TEXT.keep}
        </Button>
        <Button type="submit" isLoading={isBusy} loadingText={NEW_ROUND_TEXT.creating}>
          {NEW_ROUND_TEXT.create}
        </Button>
      </div>
    </form>
  );
}

export function openNewRoundSheet(groupId: number) {
  openModal({
    title: NEW_ROUND_TEXT.title,
    render: (close) => <NewRoundSheet groupId={groupId} onDone={close} />,
  });
}
