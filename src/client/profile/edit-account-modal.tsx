import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  CURRENT_PASSWORD_REQUIRED,
  type EditAccountForm,
  type UpdateProfileRequest,
} from '../../domain/auth';
import { editAccountFormSchema } from '../../domain/schemas/auth';
import { ApiError } from '../data/api-client';
import { updateProfile } from '../data/accounts-api';
import { useSession } from '../data/use-session';
import { toast } from '../shell/toast-store';
import { asyncHandler } from '../ui/async-handler';
import { Button } from '../ui/button';
import { FormAlert } from '../ui/form-alert';
import { PasswordField } from '../ui/password-field';
import { TextField } from '../ui/text-field';
import styles from '../auth/auth-form.module.css';

// docs/accounts-and-shell.md §2 "Edit-account form", §5 "Other forms", §8 "Profile update failure".
const TEXT = {
  firstName: 'First name',
  lastName: 'Last name',
  displayName: 'Display name',
  username: 'Username',
  email: 'Email',
  passwordSection: 'Change password (optional)',
  password: 'New password',
  passwordConfirm: 'Confirm new password',
  // Only asked for an email or password change (docs/security.md).
  currentPassword: 'Current password (to change email or password)',
  submit: 'Save Changes',
  busy: 'Saving...',
  cancel: 'Cancel',
  updated: 'Profile Updated!',
  // A new email takes effect once the link mailed to it is opened (docs/security.md).
  confirmationSent: (email: string) =>
    `We sent a confirmation link to ${email}. Your email changes once you open it.`,
  failed: 'Update failed. Please try again later.',
};

export function EditAccountModal({ onDone }: { onDone: () => void }) {
  const { user } = useSession();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<EditAccountForm>({
    resolver: zodResolver(editAccountFormSchema),
    mode: 'onTouched',
    defaultValues: {
      firstName: user?.firstName ?? '',
      lastName: user?.lastName ?? '',
      displayName: user?.displayName ?? '',
      username: user?.username ?? '',
      email: user?.email ?? '',
      password: '',
      passwordConfirm: '',
      currentPassword: '',
    },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(
    async ({ password, passwordConfirm, currentPassword, ...fields }) => {
      setFailure(null);
      // The server asks for the current password to change the email or the password (docs/security.md).
      const isEmailChange = fields.email.trim().toLowerCase() !== (user?.email ?? '').toLowerCase();
      if ((isEmailChange || password) && !currentPassword) {
        form.setError(
          'currentPassword',
          { message: CURRENT_PASSWORD_REQUIRED },
          { shouldFocus: true },
        );
        return;
      }
      const changes: UpdateProfileRequest = { ...fields, username: fields.username.toLowerCase() };
      if (password) Object.assign(changes, { password, passwordConfirm });
      if (isEmailChange || password) changes.currentPassword = currentPassword;
      try {
        await updateProfile(changes);
        toast.success(TEXT.updated);
        if (isEmailChange) toast.info(TEXT.confirmationSent(fields.email.trim().toLowerCase()));
        onDone();
      } catch (error) {
        if (error instanceof ApiError && error.code === 'invalid_current_password') {
          form.setError('currentPassword', { message: error.message }, { shouldFocus: true });
          return;
        }
        console.warn('Profile update failed', error);
        setFailure(TEXT.failed);
      }
    },
  );

  return (
    <form className={styles.form} onSubmit={asyncHandler(onSubmit)} noValidate>
      {failure && <FormAlert tone="error">{failure}</FormAlert>}
      <div className={styles.row}>
        <TextField
          label={TEXT.firstName}
          autoComplete="given-name"
          error={errors.firstName?.message}
          {...form.register('firstName')}
        />
        <TextField
          label={TEXT.lastName}
          autoComplete="family-name"
          error={errors.lastName?.message}
          {...form.register('lastName')}
        />
      </div>
      <TextField
        label={TEXT.displayName}
        autoComplete="nickname"
        error={errors.displayName?.message}
        {...form.register('displayName')}
      />
      <TextField
        label={TEXT.username}
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        error={errors.username?.message}
        {...form.register('username')}
      />
      <TextField
        label={TEXT.email}
        type="email"
        autoComplete="email"
        error={errors.email?.message}
        {...form.register('email')}
      />
      <fieldset className={styles.fieldset}>
        <legend className={styles.legend}>{TEXT.passwordSection}</legend>
        <PasswordField
          label={TEXT.password}
          autoComplete="new-password"
          error={errors.password?.message}
          {...form.register('password')}
        />
        <PasswordField
          label={TEXT.passwordConfirm}
          autoComplete="new-password"
          error={errors.passwordConfirm?.message}
          {...form.register('passwordConfirm')}
        />
      </fieldset>
      <PasswordField
        label={TEXT.currentPassword}
        autoComplete="current-password"
        error={errors.currentPassword?.message}
        {...form.register('currentPassword')}
      />
      <div className={styles.row}>
        <Button variant="secondary" onClick={onDone}>
          {TEXT.cancel}
        </Button>
        <Button type="submit" isLoading={isSubmitting} loadingText={TEXT.busy}>
          {TEXT.submit}
        </Button>
      </div>
    </form>
  );
}
