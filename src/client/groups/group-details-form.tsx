import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { GROUP_LIMITS, type UpdateGroupInput, type UpdateGroupRequest } from '../../domain/groups';
import { updateGroupRequestSchema } from '../../domain/schemas/groups';
import { refusalText } from '../data/api-client';
import type { GroupRow } from '../data/db';
import { toast } from '../shell/toast-store';
import { asyncHandler } from '../ui/async-handler';
import { Button } from '../ui/button';
import { FormAlert } from '../ui/form-alert';
import { TextAreaField } from '../ui/text-area-field';
import { TextField } from '../ui/text-field';
import { updateGroup } from './group-actions';
import styles from './group-admin.module.css';

// An admin's name and description of the group, in its Settings. The rules and messages are
// the create form's (the request schema of PATCH /groups/{id}); the change shows at once and
// goes through the outbox like the other group writes, so it also works offline. A public
// name someone else has is refused by the server, whose message shows here.

const TEXT = {
  title: 'Name and description',
  name: 'Group name',
  description: 'Description (optional)',
  descriptionPlaceholder: 'What will you be predicting?',
  save: 'Save changes',
  saving: 'Saving...',
  saved: 'Group details saved.',
};

function valuesOf(group: GroupRow): UpdateGroupRequest {
  return { name: group.name, description: group.description ?? '' };
}

export function GroupDetailsForm({ group }: { group: GroupRow }) {
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<UpdateGroupRequest, unknown, UpdateGroupInput>({
    resolver: zodResolver(updateGroupRequestSchema),
    mode: 'onTouched',
    defaultValues: valuesOf(group),
  });
  const { errors, isDirty, isSubmitting } = form.formState;

  // Another admin's change (or the server's answer) arrives with the mirror: shown unless the
  // player is editing.
  const { name, description } = group;
  useEffect(() => {
    if (!form.formState.isDirty) form.reset({ name, description: description ?? '' });
  }, [form, name, description]);

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await updateGroup(group.id, values);
      form.reset({ name: values.name, description: values.description ?? '' });
      toast.success(TEXT.saved);
    } catch (error) {
      console.warn('Saving the group details failed', error);
      setFailure(refusalText(error));
    }
  });

  return (
    <form
      className={styles.form}
      onSubmit={asyncHandler(onSubmit)}
      noValidate
      aria-labelledby="group-details"
    >
      <h3 id="group-details" className={styles.formTitle}>
        {TEXT.title}
      </h3>
      {failure && <FormAlert tone="error">{failure}</FormAlert>}
      <TextField
        label={TEXT.name}
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
      <div className={styles.formActions}>
        <Button
          type="submit"
          size="small"
          disabled={!isDirty || group.id < 0}
          isLoading={isSubmitting}
          loadingText={TEXT.saving}
        >
          {TEXT.save}
        </Button>
      </div>
    </form>
  );
}
