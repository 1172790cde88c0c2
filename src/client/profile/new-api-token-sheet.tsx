import { useState } from 'react';
import {
  API_TOKEN_EXPIRY_CHOICES,
  API_TOKEN_LIMITS,
  API_TOKEN_SCOPES,
  apiTokenExpiresAt,
  type ApiTokenExpiryChoice,
  type ApiTokenScope,
  type CreatedApiToken,
} from '../../domain/api-tokens';
import { createApiTokenRequestSchema } from '../../domain/schemas/api-tokens';
import { createApiToken } from '../data/api-tokens-api';
import { errorMessage, isNetworkError } from '../data/api-client';
import { openModal } from '../shell/modal-store';
import { Button } from '../ui/button';
import { Checkbox } from '../ui/checkbox';
import { CopyLink } from '../ui/copy-link';
import { FieldError } from '../ui/field-error';
import { FormAlert } from '../ui/form-alert';
import { SelectField } from '../ui/select-field';
import { TextField } from '../ui/text-field';
import { useNow } from '../ui/use-now';
import { tokenDateText, tokenExpiryText } from './api-token-dates';
import styles from './api-tokens.module.css';

// "New API token": a name, what it may do and how long it lasts (no expiry, 30 days, 90 days,
// a year, as GitHub offers); then the token, this once, with Copy.

export const NEW_TOKEN_TEXT = {
  title: 'New API token',
  name: 'Name',
  namePlaceholder: 'Discord bot',
  scopes: 'What it may do',
  scope: {
    read: 'Read: your groups, bets, picks and leaderboards',
    play: 'Play: create bets, wager and comment as you',
  } satisfies Record<ApiTokenScope, string>,
  never: 'No token can change your account, sign in or delete anything.',
  expiry: 'Expiration',
  expiryChoice: (days: ApiTokenExpiryChoice) =>
    days === null ? 'No expiry' : days === 365 ? '1 year' : `${days} days`,
  expiryNote: (date: string | null) =>
    date === null
      ? 'It works until you revoke it.'
      : `It stops working on ${date}. You can revoke it before.`,
  cancel: 'Cancel',
  create: 'Create token',
  creating: 'Creating...',
  offline: "You're offline. Connect to make a token.",
  failed: "We couldn't make the token. Please try again.",
  copyNow: "Copy your token now. You won't see it again.",
  token: 'Your new token',
  copy: 'Copy token',
  done: 'Done',
};

export function openNewApiTokenSheet(onCreated: () => void) {
  openModal({
    title: NEW_TOKEN_TEXT.title,
    render: (close) => <NewApiTokenSheet onCreated={onCreated} onDone={close} />,
  });
}

function NewApiTokenSheet({ onCreated, onDone }: { onCreated: () => void; onDone: () => void }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiTokenScope[]>(['read']);
  const [expiry, setExpiry] = useState<ApiTokenExpiryChoice>(null);
  const [isTouched, setIsTouched] = useState(false);
  const [isBusy, setIsBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  // The expiry counts from about the moment of Create (the clock read once a minute).
  const now = useNow(60_000);
  const expiresAt = apiTokenExpiresAt(expiry, now);
  const parsed = createApiTokenRequestSchema.safeParse({ name, scopes, expiresAt });
  const problem = (field: string) =>
    parsed.success
      ? undefined
      : parsed.error.issues.find((issue) => issue.path[0] === field)?.message;

  if (created)
    return (
      <div className={styles.sheet}>
        <FormAlert tone="success">{NEW_TOKEN_TEXT.copyNow}</FormAlert>
        <CopyLink
          link={created.token}
          label={NEW_TOKEN_TEXT.token}
          copyLabel={NEW_TOKEN_TEXT.copy}
        />
        <p className={styles.note}>{tokenExpiryText(created.expiresAt, now)}</p>
        <Button variant="secondary" fullWidth onClick={onDone}>
          {NEW_TOKEN_TEXT.done}
        </Button>
      </div>
    );

  const send = async () => {
    setIsTouched(true);
    if (!parsed.success) return;
    setIsBusy(true);
    setFailure(null);
    try {
      setCreated(await createApiToken(parsed.data));
      onCreated();
    } catch (error) {
      console.warn('Making an API token failed', error);
      setFailure(
        isNetworkError(error) ? NEW_TOKEN_TEXT.offline : errorMessage(error, NEW_TOKEN_TEXT.failed),
      );
      setIsBusy(false);
    }
  };
  const toggle = (scope: ApiTokenScope, isOn: boolean) =>
    setScopes((current) =>
      API_TOKEN_SCOPES.filter((s) => (s === scope ? isOn : current.includes(s))),
    );
  const scopesError = isTouched ? problem('scopes') : undefined;

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
        label={NEW_TOKEN_TEXT.name}
        placeholder={NEW_TOKEN_TEXT.namePlaceholder}
        maxLength={API_TOKEN_LIMITS.nameMax}
        value={name}
        error={isTouched ? problem('name') : undefined}
        onChange={(event) => setName(event.target.value)}
        onBlur={() => setIsTouched(true)}
        data-autofocus
      />
      <fieldset className={styles.scopes} aria-describedby="token-scopes-note">
        <legend className={styles.legend}>{NEW_TOKEN_TEXT.scopes}</legend>
        {API_TOKEN_SCOPES.map((scope) => (
          <Checkbox
            key={scope}
            label={NEW_TOKEN_TEXT.scope[scope]}
            checked={scopes.includes(scope)}
            onChange={(event) => toggle(scope, event.target.checked)}
          />
        ))}
        <FieldError id="token-scopes-error" message={scopesError} />
        <p id="token-scopes-note" className={styles.note}>
          {NEW_TOKEN_TEXT.never}
        </p>
      </fieldset>
      <SelectField
        label={NEW_TOKEN_TEXT.expiry}
        options={API_TOKEN_EXPIRY_CHOICES.map((days) => ({
          value: String(days),
          label: NEW_TOKEN_TEXT.expiryChoice(days),
        }))}
        value={String(expiry)}
        onChange={(event) =>
          setExpiry(
            API_TOKEN_EXPIRY_CHOICES.find((days) => String(days) === event.target.value) ?? null,
          )
        }
        aria-describedby="token-expiry-note"
      />
      <p id="token-expiry-note" className={styles.note}>
        {NEW_TOKEN_TEXT.expiryNote(expiresAt === undefined ? null : tokenDateText(expiresAt))}
      </p>
      <div className={styles.actions}>
        <Button type="button" variant="secondary" onClick={onDone} disabled={isBusy}>
          {NEW_TOKEN_TEXT.cancel}
        </Button>
        <Button type="submit" isLoading={isBusy} loadingText={NEW_TOKEN_TEXT.creating}>
          {NEW_TOKEN_TEXT.create}
        </Button>
      </div>
    </form>
  );
}
