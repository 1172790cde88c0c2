import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { type GuestForm } from '../../domain/auth';
import { SIGN_UP_REFUSAL_MESSAGES } from '../../domain/registration';
import { guestFormSchema } from '../../domain/schemas/auth';
import { returnQuery, returnUrlFromSearch } from '../../domain/return-url';
import { registerGuest } from '../data/accounts-api';
import { errorMessage } from '../data/api-client';
import { usePageTitle } from '../shell/use-page-title';
import { asyncHandler } from '../ui/async-handler';
import { Button } from '../ui/button';
import { FormAlert } from '../ui/form-alert';
import { TextField } from '../ui/text-field';
import { AuthLayout } from './auth-layout';
import { useSignUpOffer } from './use-sign-up-offer';
import styles from './auth-form.module.css';

// docs/accounts-and-shell.md §2 "Guest page", §8 "Guest failure".
const TEXT = {
  title: 'Play as a guest',
  subtitle: 'Pick a name your friends will recognise. No email needed.',
  displayName: 'Display name',
  placeholder: 'e.g. Sam the Oracle',
  submit: 'Continue as Guest',
  busy: 'Loading...',
  note: 'You can always create a full account later!',
  haveAccount: 'Already have an account?',
  signIn: 'Sign in',
  failed: 'Registration failed. Please try again later.',
};

export function GuestPage() {
  usePageTitle('Continue as Guest');
  const navigate = useNavigate();
  // An invite link (/group/{id}?inviteCode=…) passes through login as returnUrl: honour it here too.
  const { search } = useLocation();
  const { refusal, invite } = useSignUpOffer(search);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<GuestForm>({
    resolver: zodResolver(guestFormSchema),
    mode: 'onTouched',
    defaultValues: { displayName: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ displayName }) => {
    setFailure(null);
    try {
      await registerGuest(displayName, invite);
      navigate(returnUrlFromSearch(search), { replace: true });
    } catch (error) {
      console.warn('Guest registration failed', error);
      setFailure(errorMessage(error, TEXT.failed));
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
      {refusal.guest !== null ? (
        // This server takes no guests now (GUESTS, REGISTRATION): say so instead of a form that can only fail.
        <FormAlert tone="error">{SIGN_UP_REFUSAL_MESSAGES[refusal.guest]}</FormAlert>
      ) : (
        <form className={styles.form} onSubmit={asyncHandler(onSubmit)} noValidate>
          {failure && <FormAlert tone="error">{failure}</FormAlert>}
          <TextField
            label={TEXT.displayName}
            autoComplete="nickname"
            placeholder={TEXT.placeholder}
            error={errors.displayName?.message}
            {...form.register('displayName')}
          />
          <Button type="submit" fullWidth isLoading={isSubmitting} loadingText={TEXT.busy}>
            {TEXT.submit}
          </Button>
          <p className={styles.note}>{TEXT.note}</p>
        </form>
      )}
    </AuthLayout>
  );
}
