import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { type RegisterForm } from '../../domain/auth';
import { SIGN_UP_REFUSAL_MESSAGES } from '../../domain/registration';
import { registerFormSchema } from '../../domain/schemas/auth';
import { returnQuery, returnUrlFromSearch } from '../../domain/return-url';
import { register as registerAccount } from '../data/accounts-api';
import { ApiError } from '../data/api-client';
import { usePageTitle } from '../shell/use-page-title';
import { asyncHandler } from '../ui/async-handler';
import { FormAlert } from '../ui/form-alert';
import { AuthLayout } from './auth-layout';
import { EMPTY_REGISTER_FORM, RegisterFields } from './register-fields';
import { RegisterSubmit } from './register-submit';
import { useSignUpOffer } from './use-sign-up-offer';
import styles from './auth-form.module.css';

// docs/accounts-and-shell.md §2 "Register page", §5 "Register form", §8.
const TEXT = {
  title: 'Create your account',
  subtitle: 'Free, and ready in a minute.',
  submit: 'Create Account',
  busy: 'Creating account...',
  haveAccount: 'Already have an account?',
  signIn: 'Sign in',
  duplicate: 'Email or username already exists.',
  failed: 'Registration failed. Please try again later.',
};

/** docs/accounts-and-shell.md §8: the server's message; else 409 → duplicate; else the generic failure. */
export function registrationFailureMessage(error: unknown): string {
  if (error instanceof ApiError && error.hasServerMessage) return error.message;
  if (error instanceof ApiError && error.status === 409) return TEXT.duplicate;
  return TEXT.failed;
}

export function RegisterPage() {
  usePageTitle('Create your account');
  const navigate = useNavigate();
  // An invite link passes through login as returnUrl: a new account lands on it and joins.
  const { search } = useLocation();
  const { refusal, invite } = useSignUpOffer(search);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<RegisterForm>({
    resolver: zodResolver(registerFormSchema),
    mode: 'onTouched',
    defaultValues: EMPTY_REGISTER_FORM,
  });
  const { isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await registerAccount(values, invite);
      navigate(returnUrlFromSearch(search), { replace: true });
    } catch (error) {
      console.warn('Registration failed', error);
      if (error instanceof ApiError) {
        for (const [field, message] of Object.entries(error.fieldErrors ?? {})) {
          if (field in EMPTY_REGISTER_FORM) form.setError(field as keyof RegisterForm, { message });
        }
      }
      setFailure(registrationFailureMessage(error));
    }
  });

  return (
    <AuthLayout
      title={TEXT.title}
      subtitle={TEXT.subtitle}
      footer={
        <p>
          {TEXT.haveAccount} <Link to={`/login${returnQuery(search)}`}>{TEXT.signIn}</Link>
        </p>
      }
    >
      {refusal.account !== null ? (
        // This server takes no such sign-up (REGISTRATION): say so instead of a form that can only fail.
        <FormAlert tone="error">{SIGN_UP_REFUSAL_MESSAGES[refusal.account]}</FormAlert>
      ) : (
        <form className={styles.form} onSubmit={asyncHandler(onSubmit)} noValidate>
          {failure && <FormAlert tone="error">{failure}</FormAlert>}
          <RegisterFields form={form} />
          <RegisterSubmit
            control={form.control}
            label={TEXT.submit}
            busyLabel={TEXT.busy}
            isSubmitting={isSubmitting}
          />
        </form>
      )}
    </AuthLayout>
  );
}
