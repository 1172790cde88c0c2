import { zodResolver } from '@hookform/resolvers/zod';
import { ArrowLeft } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation } from 'react-router-dom';
import { returnQuery } from '../../domain/return-url';
import { type ForgotPasswordForm } from '../../domain/auth';
import { forgotPasswordFormSchema } from '../../domain/schemas/auth';
import { requestPasswordReset } from '../data/accounts-api';
import { errorMessage } from '../data/api-client';
import { rememberedInvite } from '../data/remembered-invite';
import { usePageTitle } from '../shell/use-page-title';
import { asyncHandler } from '../ui/async-handler';
import { Button } from '../ui/button';
import { FormAlert } from '../ui/form-alert';
import { TextField } from '../ui/text-field';
import { AuthLayout } from './auth-layout';
import { carriedEmail } from './carried-email';
import styles from './auth-form.module.css';

// docs/accounts-and-shell.md §2 "Forgot-password page", §8.
const TEXT = {
  title: 'Reset your password',
  subtitle: "Enter your account's email and we'll send you a link to choose a new password.",
  email: 'Email',
  emailPlaceholder: 'you@example.com',
  submit: 'Send Reset Link',
  busy: 'Sending...',
  back: 'Back to Login',
  sent: 'Password reset link has been sent to your email.',
  failed: 'Failed to send password reset link. Please try again.',
};

export function ForgotPasswordPage() {
  usePageTitle('Reset your password');
  // Back to Login keeps an invite link's way into its group; so does the mailed link, in this
  // browser (the mail itself carries no invite).
  const { search, state } = useLocation();
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; message: string } | null>(
    null,
  );
  const form = useForm<ForgotPasswordForm>({
    resolver: zodResolver(forgotPasswordFormSchema),
    mode: 'onTouched',
    // The email typed on the sign-in form comes along (issue #42).
    defaultValues: { email: carriedEmail(state) },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setOutcome(null);
    try {
      await requestPasswordReset(values);
      rememberedInvite.keep(search);
      form.reset({ email: '' });
      setOutcome({ tone: 'success', message: TEXT.sent });
    } catch (error) {
      console.warn('Password reset request failed', error);
      setOutcome({ tone: 'error', message: errorMessage(error, TEXT.failed) });
    }
  });

  return (
    <AuthLayout
      title={TEXT.title}
      subtitle={TEXT.subtitle}
      footer={
        <Link to={`/login${returnQuery(search)}`} className={styles.backLink}>
          <ArrowLeft size={16} aria-hidden="true" />
          {TEXT.back}
        </Link>
      }
    >
      <form className={styles.form} onSubmit={asyncHandler(onSubmit)} noValidate>
        {outcome && <FormAlert tone={outcome.tone}>{outcome.message}</FormAlert>}
        <TextField
          label={TEXT.email}
          type="email"
          inputMode="email"
          autoComplete="email"
          placeholder={TEXT.emailPlaceholder}
          error={errors.email?.message}
          {...form.register('email')}
        />
        <Button type="submit" fullWidth isLoading={isSubmitting} loadingText={TEXT.busy}>
          {TEXT.submit}
        </Button>
      </form>
    </AuthLayout>
  );
}
