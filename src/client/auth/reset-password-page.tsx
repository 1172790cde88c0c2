import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { type ResetPasswordForm } from '../../domain/auth';
import { resetPasswordFormSchema } from '../../domain/schemas/auth';
import { TIMING } from '../../domain/constants';
import { resetPassword } from '../data/accounts-api';
import { errorMessage } from '../data/api-client';
import { rememberedInvite } from '../data/remembered-invite';
import { usePageTitle } from '../shell/use-page-title';
import { asyncHandler } from '../ui/async-handler';
import { Button, buttonClassName } from '../ui/button';
import { FormAlert } from '../ui/form-alert';
import { PasswordField } from '../ui/password-field';
import { AuthLayout } from './auth-layout';
import { isListingUnmetParts, PasswordStrengthMeter } from './password-strength-meter';
import styles from './auth-form.module.css';

// docs/accounts-and-shell.md §2 "Reset-password page", §4, §8.
const TEXT = {
  title: 'Create a new password',
  subtitle: 'Choose something you have not used here before.',
  password: 'New password',
  passwordConfirm: 'Confirm new password',
  submit: 'Reset Password',
  busy: 'Saving...',
  missingToken: 'Invalid or missing reset token. Please request a new password reset link.',
  requestNew: 'Request a new link',
  done: 'Your password has been reset successfully.',
  redirecting: 'Taking you to sign in…',
  failed: 'Failed to reset password. The token may be invalid or expired.',
  back: 'Back to Login',
};

export function ResetPasswordPage() {
  usePageTitle('Create a new password');
  const params = useParams();
  const [searchParams] = useSearchParams();
  // The mailed link carries the token in the path; older links use ?token=.
  const token = params.token || searchParams.get('token') || '';
  // An invite brought to "Forgot password" in this browser: named here, and where signing in
  // after the reset leads.
  const [inviteSearch] = useState(() => rememberedInvite.query());

  return (
    <AuthLayout
      title={TEXT.title}
      subtitle={token ? TEXT.subtitle : undefined}
      inviteSearch={inviteSearch}
      footer={<Link to={`/login${inviteSearch}`}>{TEXT.back}</Link>}
    >
      {token ? (
        <ResetPasswordForm token={token} inviteSearch={inviteSearch} />
      ) : (
        <>
          <FormAlert tone="error">{TEXT.missingToken}</FormAlert>
          <Link
            to={`/forgot-password${inviteSearch}`}
            className={buttonClassName({ variant: 'secondary', fullWidth: true })}
          >
            {TEXT.requestNew}
          </Link>
        </>
      )}
    </AuthLayout>
  );
}

function ResetPasswordForm({ token, inviteSearch }: { token: string; inviteSearch: string }) {
  const navigate = useNavigate();
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; message: string } | null>(
    null,
  );
  const form = useForm<ResetPasswordForm>({
    resolver: zodResolver(resetPasswordFormSchema),
    mode: 'onTouched',
    defaultValues: { password: '', passwordConfirm: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const password = useWatch({ control: form.control, name: 'password' });
  const unmetPartsId = useId();
  const isListing = isListingUnmetParts(password);
  const isDone = outcome?.tone === 'success';

  useEffect(() => {
    if (!isDone) return;
    const timer = setTimeout(
      () => navigate(`/login${inviteSearch}`, { replace: true }),
      TIMING.resetRedirectMs,
    );
    return () => clearTimeout(timer);
  }, [isDone, navigate, inviteSearch]);

  const onSubmit = form.handleSubmit(async (values) => {
    setOutcome(null);
    try {
      await resetPassword({ token, ...values });
      // From here on the invite rides in the address, as on the other account screens.
      rememberedInvite.forget();
      setOutcome({ tone: 'success', message: TEXT.done });
    } catch (error) {
      console.warn('Password reset failed', error);
      setOutcome({ tone: 'error', message: errorMessage(error, TEXT.failed) });
    }
  });

  if (isDone) {
    return (
      <FormAlert tone="success">
        <p>{TEXT.done}</p>
        <p>{TEXT.redirecting}</p>
      </FormAlert>
    );
  }

  return (
    <form className={styles.form} onSubmit={asyncHandler(onSubmit)} noValidate>
      {outcome && <FormAlert tone={outcome.tone}>{outcome.message}</FormAlert>}
      <PasswordField
        label={TEXT.password}
        autoComplete="new-password"
        meter={<PasswordStrengthMeter password={password} id={unmetPartsId} />}
        meterDescriptionId={isListing ? unmetPartsId : undefined}
        // While the meter lists the parts still unmet, they are the message.
        error={isListing ? undefined : errors.password?.message}
        {...form.register('password')}
      />
      <PasswordField
        label={TEXT.passwordConfirm}
        autoComplete="new-password"
        error={errors.passwordConfirm?.message}
        {...form.register('passwordConfirm')}
      />
      <Button type="submit" fullWidth isLoading={isSubmitting} loadingText={TEXT.busy}>
        {TEXT.submit}
      </Button>
    </form>
  );
}
