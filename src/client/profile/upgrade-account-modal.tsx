import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { type RegisterForm } from '../../domain/auth';
import { registerFormSchema } from '../../domain/schemas/auth';
import { DEFAULT_APP_NAME } from '../../domain/constants';
import { updateProfile } from '../data/accounts-api';
import { errorMessage } from '../data/api-client';
import { useSession } from '../data/use-session';
import { EMPTY_REGISTER_FORM, RegisterFields } from '../auth/register-fields';
import { RegisterSubmit } from '../auth/register-submit';
import { toast } from '../shell/toast-store';
import { asyncHandler } from '../ui/async-handler';
import { FormAlert } from '../ui/form-alert';
import styles from '../auth/auth-form.module.css';

// docs/accounts-and-shell.md §2 "Upgrade modal (for guests)": the title is the modal's heading; no login link.
// The same id, groups and points carry over (docs/architecture.md §6).
const TEXT = {
  intro: 'Save your progress, access all features, and keep your account secure.',
  submit: 'Complete Registration',
  busy: 'Saving...',
  upgraded: 'Account Upgraded!',
  failed: 'Update failed. Please try again later.',
};

export function UpgradeAccountModal({ onDone }: { onDone: () => void }) {
  const { user } = useSession();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<RegisterForm>({
    resolver: zodResolver(registerFormSchema),
    mode: 'onTouched',
    defaultValues: { ...EMPTY_REGISTER_FORM, displayName: user?.displayName ?? '' },
  });
  const { isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ acceptTerms: _acceptTerms, ...fields }) => {
    setFailure(null);
    try {
      await updateProfile({ ...fields, appName: DEFAULT_APP_NAME, isTemporary: false });
      toast.success(TEXT.upgraded);
      onDone();
    } catch (error) {
      console.warn('Account upgrade failed', error);
      setFailure(errorMessage(error, TEXT.failed));
    }
  });

  return (
    <form className={styles.form} onSubmit={asyncHandler(onSubmit)} noValidate>
      <p className={styles.lead}>{TEXT.intro}</p>
      {failure && <FormAlert tone="error">{failure}</FormAlert>}
      <RegisterFields form={form} />
      <RegisterSubmit
        control={form.control}
        label={TEXT.submit}
        busyLabel={TEXT.busy}
        isSubmitting={isSubmitting}
      />
    </form>
  );
}
