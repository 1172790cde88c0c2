import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState, type KeyboardEvent } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from '../../domain/schemas/zod';
import { GROUP_MESSAGES, parseInviteLink, type PublicGroupSummary } from '../../domain/groups';
import { joinPrivateRequestSchema } from '../../domain/schemas/groups';
import { refusalText } from '../data/api-client';
import { asyncHandler } from '../ui/async-handler';
import { Button } from '../ui/button';
import { FormAlert } from '../ui/form-alert';
import { TextField } from '../ui/text-field';
import { Typeahead } from '../ui/typeahead';
import { afterGroupJoined } from './after-group-joined';
import { joinPrivateGroup, joinPublicGroup, searchPublicGroups } from './group-actions';
import styles from './join-group-form.module.css';

// The join form of docs/groups-and-bets.md §2 and §4: tabs "Public Group" (a typeahead over the public
// groups, then Join) and "Private Group" (group id and invite code). A prefilled id or code
// (from an invite link or a 403) opens the private tab; switching tabs clears both forms and
// their messages. After a join: afterGroupJoined (toast, close; the push prompt plugs in there).

const TEXT = {
  publicTab: 'Public Group',
  privateTab: 'Private Group',
  publicLabel: 'Group name',
  publicPlaceholder: 'Type at least 3 letters',
  publicHint: 'Find a public group by its name.',
  groupId: 'Group ID',
  groupIdPlaceholder: 'e.g. 42',
  inviteCode: 'Invite code',
  inviteCodePlaceholder: 'From your invite link',
  privateHint:
    'Paste the invite link into either field, or type the group ID and invite code from the group’s Share screen.',
  submit: 'Join Group',
  busy: 'Joining...',
  members: (count: number) => `${count} ${count === 1 ? 'member' : 'members'}`,
};

export interface JoinPrefill {
  groupId?: string;
  inviteCode?: string;
  /** A message to show at once, e.g. why an invite link did not work. */
  error?: string;
}

type Mode = 'public' | 'private';

export function JoinGroupForm({
  prefill = {},
  onJoined,
}: {
  prefill?: JoinPrefill;
  onJoined: () => void;
}) {
  const id = useId();
  const [mode, setMode] = useState<Mode>(
    prefill.groupId || prefill.inviteCode ? 'private' : 'public',
  );
  // Each switch remounts the panel: its fields and messages start empty (docs/groups-and-bets.md §4).
  const [generation, setGeneration] = useState(0);
  const switchTo = (next: Mode) => {
    if (next === mode) return;
    setMode(next);
    setGeneration((n) => n + 1);
  };
  const onTabKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const next = mode === 'public' ? 'private' : 'public';
    switchTo(next);
    document.getElementById(`${id}-${next}-tab`)?.focus();
  };
  const finish = asyncHandler(() => afterGroupJoined({ close: onJoined }));

  return (
    <div className={styles.join}>
      <div role="tablist" aria-label="How to join" className={styles.tabs}>
        {(['public', 'private'] as const).map((tab) => (
          <button
            key={tab}
            id={`${id}-${tab}-tab`}
            type="button"
            role="tab"
            aria-selected={mode === tab}
            aria-controls={`${id}-panel`}
            tabIndex={mode === tab ? 0 : -1}
            className={styles.tab}
            onClick={() => switchTo(tab)}
            onKeyDown={onTabKeyDown}
          >
            {tab === 'public' ? TEXT.publicTab : TEXT.privateTab}
          </button>
        ))}
      </div>
      <div
        id={`${id}-panel`}
        role="tabpanel"
        aria-labelledby={`${id}-${mode}-tab`}
        className={styles.panel}
      >
        {mode === 'public' ? (
          <PublicJoin key={generation} onJoined={finish} />
        ) : (
          <PrivateJoin
            key={generation}
            prefill={generation === 0 ? prefill : {}}
            onJoined={finish}
          />
        )}
      </div>
    </div>
  );
}

function PublicJoin({ onJoined }: { onJoined: () => void }) {
  const [selected, setSelected] = useState<PublicGroupSummary | null>(null);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [isJoining, setIsJoining] = useState(false);

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (!selected) {
      setFieldError(GROUP_MESSAGES.publicGroupRequired);
      return;
    }
    setIsJoining(true);
    try {
      await joinPublicGroup(selected.name);
      onJoined();
    } catch (error) {
      console.warn('Joining the public group failed', error);
      setFailure(refusalText(error));
      setIsJoining(false);
    }
  };

  return (
    <form className={styles.form} onSubmit={asyncHandler(onSubmit)} noValidate>
      {failure && <FormAlert tone="error">{failure}</FormAlert>}
      <Typeahead<PublicGroupSummary>
        label={TEXT.publicLabel}
        placeholder={TEXT.publicPlaceholder}
        hint={TEXT.publicHint}
        loadOptions={searchPublicGroups}
        getOptionKey={(group) => group.id}
        getOptionLabel={(group) => group.name}
        renderOption={(group) => (
          <span className={styles.option}>
            <span className={styles.optionName}>{group.name}</span>
            <span className={styles.optionMeta}>{TEXT.members(group.memberCount)}</span>
          </span>
        )}
        onSelect={(group) => {
          setSelected(group);
          if (group) setFieldError(undefined);
        }}
        error={fieldError}
      />
      <Button type="submit" fullWidth isLoading={isJoining} loadingText={TEXT.busy}>
        {TEXT.submit}
      </Button>
    </form>
  );
}

// Both fields are required (docs/groups-and-bets.md §5); the id arrives as text and leaves as a number.
type PrivateJoinValues = z.input<typeof joinPrivateRequestSchema>;
type PrivateJoinRequest = z.output<typeof joinPrivateRequestSchema>;

function PrivateJoin({ prefill, onJoined }: { prefill: JoinPrefill; onJoined: () => void }) {
  const [failure, setFailure] = useState<string | null>(prefill.error ?? null);
  const form = useForm<PrivateJoinValues, unknown, PrivateJoinRequest>({
    resolver: zodResolver(joinPrivateRequestSchema),
    mode: 'onTouched',
    defaultValues: { groupId: prefill.groupId ?? '', inviteCode: prefill.inviteCode ?? '' },
  });
  const { errors, isSubmitting } = form.formState;
  // A pasted invite link (an installed app has no address bar to open it in) fills both
  // fields with its id and code, whichever field it went into.
  const fillFromLink = (event: { target: { value: string } }) => {
    const invite = parseInviteLink(event.target.value);
    if (!invite) return;
    const options = { shouldValidate: true, shouldDirty: true, shouldTouch: true };
    form.setValue('groupId', String(invite.groupId), options);
    if (invite.inviteCode) form.setValue('inviteCode', invite.inviteCode, options);
    else form.setValue('inviteCode', '', { shouldDirty: true });
  };

  const onSubmit = form.handleSubmit(async ({ groupId, inviteCode }) => {
    setFailure(null);
    try {
      await joinPrivateGroup(groupId, inviteCode);
      onJoined();
    } catch (error) {
      console.warn('Joining the private group failed', error);
      setFailure(refusalText(error));
    }
  });

  return (
    <form className={styles.form} onSubmit={asyncHandler(onSubmit)} noValidate>
      {failure && <FormAlert tone="error">{failure}</FormAlert>}
      <p className={styles.hint}>{TEXT.privateHint}</p>
      <TextField
        label={TEXT.groupId}
        inputMode="numeric"
        autoComplete="off"
        placeholder={TEXT.groupIdPlaceholder}
        error={errors.groupId?.message}
        {...form.register('groupId', { onChange: fillFromLink })}
      />
      <TextField
        label={TEXT.inviteCode}
        autoComplete="off"
        spellCheck={false}
        placeholder={TEXT.inviteCodePlaceholder}
        error={errors.inviteCode?.message}
        {...form.register('inviteCode', { onChange: fillFromLink })}
      />
      <Button type="submit" fullWidth isLoading={isSubmitting} loadingText={TEXT.busy}>
        {TEXT.submit}
      </Button>
    </form>
  );
}
