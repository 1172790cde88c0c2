import { zodResolver } from '@hookform/resolvers/zod';
import { Check, Trash2, X } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { type DeleteAccountForm } from '../../domain/account-data';
import {
  deleteFullAccountFormSchema,
  deleteGuestAccountFormSchema,
} from '../../domain/schemas/account-data';
import { deleteAccount } from '../data/account-data-api';
import { ApiError, isNetworkError } from '../data/api-client';
import { useSession } from '../data/use-session';
import { toast } from '../shell/toast-store';
import { asyncHandler } from '../ui/async-handler';
import { Button } from '../ui/button';
import { FormAlert } from '../ui/form-alert';
import { PasswordField } from '../ui/password-field';
import formStyles from '../auth/auth-form.module.css';
import styles from './your-data.module.css';

// The delete confirmation: what goes, what stays, the current password of a
// full account, one clear destructive button. On success the device signs out (the local data
// is cleared) and lands on the landing page with a toast.
const TEXT = {
  lead: 'This happens at once and cannot be undone.',
  goesTitle: 'What goes',
  goes: [
    'Your name, email and username',
    'Your password and every sign-in, on every device',
    'Your comments on bets',
    'Your notification settings',
  ],
  goesForGuest: [
    'Your display name',
    'This sign-in, and any other device you play on',
    'Your comments on bets',
    'Your notification settings',
  ],
  staysTitle: 'What stays, as “Deleted player”',
  stays: [
    'Your points, wagers and the bets you made, so everyone’s results and payouts stay exactly as they are',
  ],
  admin: 'If you’re a group’s only admin, the member who has been in it longest becomes its admin.',
  guest: 'As a guest, you can’t get this account back once it’s gone.',
  currentPassword: 'Current password',
  cancel: 'Cancel',
  submit: 'Delete my account',
  busy: 'Deleting...',
  deleted: 'Your account has been deleted. Thanks for playing!',
  offline: "You're offline. Connect to delete your account.",
  failed: "We couldn't delete your account. Please try again.",
};

export function DeleteAccountModal({ onCancel }: { onCancel: () => void }) {
  const { user } = useSession();
  const isGuest = user?.isTemporary ?? true;
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<DeleteAccountForm>({
    resolver: zodResolver(isGuest ? deleteGuestAccountFormSchema : deleteFullAccountFormSchema),
    mode: 'onTouched',
    defaultValues: { currentPassword: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ currentPassword }) => {
    setFailure(null);
    try {
      await deleteAccount(isGuest ? {} : { currentPassword });
      // The sign-out has closed this modal's page; the toast is the last word.
      onCancel();
      toast.success(TEXT.deleted);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'invalid_current_password') {
        form.setError('currentPassword', { message: error.message }, { shouldFocus: true });
        return;
      }
      console.warn('Deleting the account failed', error);
      setFailure(isNetworkError(error) ? TEXT.offline : TEXT.failed);
    }
  });

  return (
    <form className={formStyles.form} onSubmit={asyncHandler(onSubmit)} noValidate>
      {failure && <FormAlert tone="error">{failure}</FormAlert>}
      <p className={styles.lead}>{TEXT.lead}</p>
      <div className={styles.consequences}>
        <section aria-labelledby="delete-goes">
          <h3 id="delete-goes" className={styles.listTitle}>
            {TEXT.goesTitle}
          </h3>
          <ul className={styles.list}>
            {(isGuest ? TEXT.goesForGuest : TEXT.goes).map((item) => (
              <li key={item}>
                <X size={16} aria-hidden="true" className={styles.goesIcon} />
                {item}
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="delete-stays">
          <h3 id="delete-stays" className={styles.listTitle}>
            {TEXT.staysTitle}
          </h3>
          <ul className={styles.list}>
            {TEXT.stays.map((item) => (
              <li key={item}>
                <Check size={16} aria-hidden="true" className={styles.staysIcon} />
                {item}
              </li>
            ))}
          </ul>
        </section>
      </div>
      <p className={styles.note}>{TEXT.admin}</p>
      {isGuest ? (
        <p className={styles.note}>{TEXT.guest}</p>
      ) : (
        <PasswordField
          label={TEXT.currentPassword}
          autoComplete="current-password"
          error={errors.currentPassword?.message}
          {...form.register('currentPassword')}
        />
      )}
      {/* One column: the label stays on one line in the narrow modal, the destructive action on top. */}
      <div className={styles.modalActions}>
        <Button
          type="submit"
          variant="danger"
          fullWidth
          icon={<Trash2 size={18} aria-hidden="true" />}
          isLoading={isSubmitting}
          loadingText={TEXT.busy}
        >
          {TEXT.submit}
        </Button>
        <Button variant="secondary" fullWidth onClick={onCancel} disabled={isSubmitting}>
          {TEXT.cancel}
        </Button>
      </div>
    </form>
  );
}
