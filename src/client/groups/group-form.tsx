import { zodResolver } from '@hookform/resolvers/zod';
import { Globe, Lock } from 'lucide-react';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import {
  GROUP_LIMITS,
  type CreateGroupInput,
  type CreateGroupRequest,
  type Group,
} from '../../domain/groups';
import { createGroupRequestSchema } from '../../domain/schemas/groups';
import { DEFAULT_STAKE_TIERS } from '../../domain/stakes';
import { refusalText } from '../data/api-client';
import { toast } from '../shell/toast-store';
import { asyncHandler } from '../ui/async-handler';
import { Button } from '../ui/button';
import { FormAlert } from '../ui/form-alert';
import { TextAreaField } from '../ui/text-area-field';
import { TextField } from '../ui/text-field';
import { createGroup } from './group-actions';
import { StakeTiersField } from './stake-tiers-field';
import styles from './group-form.module.css';

// The group form of docs/groups-and-bets.md §2 and §5: name, optional description, privacy (public by
// default), an optional invite code for a private group (blank: the server makes one) and
// the starting points (100 by default), and the stakes (the spec's 1, 2, 3 by default, or
// larger). Used on /group/create and in the group selector.

const TEXT = {
  name: 'Group name',
  namePlaceholder: 'e.g. Friday Night Forecasters',
  description: 'Description (optional)',
  descriptionPlaceholder: 'What will you be predicting?',
  privacy: 'Privacy',
  public: 'Public',
  publicHint: 'Anyone can find it by name and join.',
  private: 'Private',
  privateHint: 'Only people with the link or invite code can join.',
  inviteCode: 'Invite code (optional)',
  inviteCodeHint: '6-20 letters, numbers, - or _. Leave it blank and we make one up.',
  points: 'Starting points',
  pointsHint: 'Everyone who joins gets this many points to play with.',
  submit: 'Create Group',
  busy: 'Creating...',
  created: (name: string) => `Group "${name}" created successfully!`,
};

// The form's schema is the request schema of src/domain/groups.ts itself: its messages are
// docs/groups-and-bets.md §5's, and its output is exactly what POST /groups takes.
const groupFormSchema = createGroupRequestSchema;
type GroupFormValues = CreateGroupRequest;

export function GroupForm({ onCreated }: { onCreated: (group: Group) => void }) {
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<GroupFormValues, unknown, CreateGroupInput>({
    resolver: zodResolver(groupFormSchema),
    mode: 'onTouched',
    defaultValues: {
      name: '',
      description: '',
      privacy: 'public',
      inviteCode: '',
      defaultPoints: GROUP_LIMITS.defaultPoints,
      stakeTiers: [...DEFAULT_STAKE_TIERS],
    },
  });
  const { errors, isSubmitting } = form.formState;
  const privacy = useWatch({ control: form.control, name: 'privacy' });
  const stakeTiers = useWatch({ control: form.control, name: 'stakeTiers' });

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      const group = await createGroup(values);
      toast.success(TEXT.created(group.name));
      onCreated(group);
    } catch (error) {
      console.warn('Creating the group failed', error);
      const message = refusalText(error);
      setFailure(message);
      toast.error(message);
    }
  });

  return (
    <form className={styles.form} onSubmit={asyncHandler(onSubmit)} noValidate>
      {failure && <FormAlert tone="error">{failure}</FormAlert>}
      <TextField
        label={TEXT.name}
        placeholder={TEXT.namePlaceholder}
        autoComplete="off"
        maxLength={GROUP_LIMITS.nameMax + 20}
        error={errors.name?.message}
        {...form.register('name')}
      />
      <TextAreaField
        label={TEXT.description}
        placeholder={TEXT.descriptionPlaceholder}
        error={errors.description?.message}
        {...form.register('description')}
      />
      <fieldset className={styles.privacy}>
        <legend className={styles.legend}>{TEXT.privacy}</legend>
        <div className={styles.choices}>
          <PrivacyChoice
            value="public"
            label={TEXT.public}
            hint={TEXT.publicHint}
            icon={<Globe size={20} />}
            register={form.register('privacy')}
          />
          <PrivacyChoice
            value="private"
            label={TEXT.private}
            hint={TEXT.privateHint}
            icon={<Lock size={20} />}
            register={form.register('privacy')}
          />
        </div>
        {errors.privacy?.message && <p className={styles.error}>{errors.privacy.message}</p>}
      </fieldset>
      {privacy === 'private' && (
        <TextField
          label={TEXT.inviteCode}
          hint={TEXT.inviteCodeHint}
          autoComplete="off"
          spellCheck={false}
          error={errors.inviteCode?.message}
          {...form.register('inviteCode')}
        />
      )}
      <TextField
        label={TEXT.points}
        type="number"
        inputMode="numeric"
        min={GROUP_LIMITS.pointsMin}
        step={1}
        hint={TEXT.pointsHint}
        error={errors.defaultPoints?.message}
        {...form.register('defaultPoints', { valueAsNumber: true })}
      />
      <StakeTiersField
        value={stakeTiers ?? DEFAULT_STAKE_TIERS}
        error={errors.stakeTiers?.message}
        onChange={(tiers) => form.setValue('stakeTiers', tiers, { shouldDirty: true })}
      />
      <Button type="submit" fullWidth isLoading={isSubmitting} loadingText={TEXT.busy}>
        {TEXT.submit}
      </Button>
    </form>
  );
}

interface PrivacyChoiceProps {
  value: 'public' | 'private';
  label: string;
  hint: string;
  icon: React.ReactNode;
  register: ReturnType<
    ReturnType<typeof useForm<GroupFormValues, unknown, CreateGroupInput>>['register']
  >;
}

function PrivacyChoice({ value, label, hint, icon, register }: PrivacyChoiceProps) {
  return (
    <label className={styles.choice}>
      <input type="radio" value={value} className={styles.radio} {...register} />
      <span className={styles.choiceIcon} aria-hidden="true">
        {icon}
      </span>
      <span className={styles.choiceText}>
        <span className={styles.choiceLabel}>{label}</span>
        <span className={styles.choiceHint}>{hint}</span>
      </span>
    </label>
  );
}
