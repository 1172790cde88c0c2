import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { confirmEmailChange, fetchCurrentUser } from '../data/accounts-api';
import { ApiError, errorMessage } from '../data/api-client';
import { useSession } from '../data/use-session';
import { usePageTitle } from '../shell/use-page-title';
import { asyncHandler } from '../ui/async-handler';
import { Button } from '../ui/button';
import { FormAlert } from '../ui/form-alert';
import { AuthLayout } from './auth-layout';
import styles from './auth-form.module.css';

// /confirm-email/:token, the link mailed to a new address. Opening it changes nothing by
// itself (a mail scanner may open links): the player presses the button.
const TEXT = {
  title: 'Confirm your new email',
  subtitle: 'Confirm that this address is yours, and it becomes the email of your account.',
  submit: 'Confirm New Email',
  busy: 'Confirming...',
  missingToken: 'Invalid or missing confirmation link. Change your email again from your profile.',
  done: 'Your email address has been changed.',
  taken: 'This email address already belongs to another account.',
  failed: 'Failed to confirm your email. The link may be invalid or expired.',
  toProfile: 'Go to your profile',
  toLogin: 'Back to Login',
};

export function ConfirmEmailPage() {
  usePageTitle('Confirm your new email');
  const { token = '' } = useParams();
  const { user } = useSession();
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; message: string } | null>(
    null,
  );
  const [isBusy, setIsBusy] = useState(false);
  const footer = user ? (
    <Link to="/profile">{TEXT.toProfile}</Link>
  ) : (
    <Link to="/login">{TEXT.toLogin}</Link>
  );

  async function confirm() {
    setOutcome(null);
    setIsBusy(true);
    try {
      await confirmEmailChange(token);
      setOutcome({ tone: 'success', message: TEXT.done });
      // Signed in here: the stored details show the new address (a failure leaves them as they were).
      if (user) await fetchCurrentUser().catch(() => undefined);
    } catch (error) {
      console.warn('Email confirmation failed', error);
      const isTaken = error instanceof ApiError && error.code === 'email_or_username_taken';
      setOutcome({
        tone: 'error',
        message: isTaken ? TEXT.taken : errorMessage(error, TEXT.failed),
      });
    } finally {
      setIsBusy(false);
    }
  }

  if (!token) {
    return (
      <AuthLayout title={TEXT.title} footer={footer}>
        <FormAlert tone="error">{TEXT.missingToken}</FormAlert>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title={TEXT.title}
      subtitle={outcome?.tone === 'success' ? undefined : TEXT.subtitle}
      footer={footer}
    >
      <div className={styles.form}>
        {outcome && <FormAlert tone={outcome.tone}>{outcome.message}</FormAlert>}
        {outcome?.tone !== 'success' && (
          <Button
            fullWidth
            isLoading={isBusy}
            loadingText={TEXT.busy}
            onClick={asyncHandler(confirm)}
          >
            {TEXT.submit}
          </Button>
        )}
      </div>
    </AuthLayout>
  );
}
