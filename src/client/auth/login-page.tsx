import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { type LoginForm } from '../../domain/auth';
import { SIGN_UP_REFUSAL_MESSAGES } from '../../domain/registration';
import { loginFormSchema } from '../../domain/schemas/auth';
import { returnQuery, returnUrlFromSearch } from '../../domain/return-url';
import { login } from '../data/accounts-api';
import { errorMessage } from '../data/api-client';
import { usePageTitle } from '../shell/use-page-title';
import { asyncHandler } from '../ui/async-handler';
import { Button } from '../ui/button';
import { Checkbox } from '../ui/checkbox';
import { FormAlert } from '../ui/form-alert';
import { PasswordField } from '../ui/password-field';
import { TextField } from '../ui/text-field';
import { AuthLayout } from './auth-layout';
import { carryEmail } from './carried-email';
import { useSignUpOffer } from './use-sign-up-offer';
import styles from './auth-form.module.css';

// docs/accounts-and-shell.md §2 "Login page", §4 "Forms", §8.
const TEXT = {
  title: 'Hunch',
  subtitle: 'Sign in to your account',
  email: 'Email',
  emailPlaceholder: 'you@example.com',
  password: 'Password',
  rememberMe: 'Remember me',
  forgot: 'Forgot your password?',
  submit: 'Sign In',
  busy: 'Loading...',
  guest: 'Continue as Guest',
  noAccount: "Don't have an account?",
  signUp: 'Sign up',
  moving: 'Playing on another device?',
  useLink: 'Use a sign-in link',
  failed: 'Invalid email or password',
};

export function LoginPage() {
  usePageTitle('Sign in');
  const navigate = useNavigate();
  const { search } = useLocation();
  const { refusal } = useSignUpOffer(search);
  const [failure, setFailure] = useState<string | null>(null);
  // mode onTouched: a field's error shows once it is touched; an invalid submit touches all.
  const form = useForm<LoginForm>({
    resolver: zodResolver(loginFormSchema),
    mode: 'onTouched',
    // Ticked from the start (issue #42): an installed app's window is a session of its own, so
    // a tab-only session signed friends out each time the phone closed it. Whoever unticks it
    // on a shared browser still gets a session that ends with the tab.
    defaultValues: { email: '', password: '', rememberMe: true },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await login(values);
      navigate(returnUrlFromSearch(search), { replace: true });
    } catch (error) {
      console.warn('Login failed', error);
      setFailure(errorMessage(error, TEXT.failed));
    }
  });

  return (
    <AuthLayout
      isBrandHeading
      title={TEXT.title}
      subtitle={TEXT.subtitle}
      footer={
        <>
          {/* Only the ways in this server accepts (REGISTRATION, GUESTS); else why not. */}
          {refusal.account === null ? (
            <p>
              {TEXT.noAccount} <Link to={`/register${returnQuery(search)}`}>{TEXT.signUp}</Link>
            </p>
          ) : (
            <p>{SIGN_UP_REFUSAL_MESSAGES[refusal.account]}</p>
          )}
          <p>
            {TEXT.moving} <Link to="/move">{TEXT.useLink}</Link>
          </p>
        </>
      }
    >
      <form className={styles.form} onSubmit={asyncHandler(onSubmit)} noValidate>
        {failure && <FormAlert tone="error">{failure}</FormAlert>}
        <TextField
          label={TEXT.email}
          type="email"
          autoComplete="email"
          inputMode="email"
          placeholder={TEXT.emailPlaceholder}
          error={errors.email?.message}
          {...form.register('email')}
        />
        <PasswordField
          label={TEXT.password}
          autoComplete="current-password"
          error={errors.password?.message}
          {...form.register('password')}
        />
        <div className={styles.inline}>
          <Checkbox label={TEXT.rememberMe} {...form.register('rememberMe')} />
          <button
            type="button"
            className={styles.linkButton}
            // The email typed here comes along (carried-email.ts): no typing it twice.
            onClick={() =>
              navigate(`/forgot-password${returnQuery(search)}`, {
                state: carryEmail(form.getValues('email')),
              })
            }
          >
            {TEXT.forgot}
          </button>
        </div>
        <Button type="submit" fullWidth isLoading={isSubmitting} loadingText={TEXT.busy}>
          {TEXT.submit}
        </Button>
        {refusal.guest === null && (
          <>
            <div className={styles.divider}>or</div>
            {/* An invite link brought them here: every way in (guest, sign up, a forgotten
                password and back) carries it on, so each ends in the group. */}
            <Button
              variant="secondary"
              fullWidth
              onClick={() => navigate(`/continue-as-guest${returnQuery(search)}`)}
            >
              {TEXT.guest}
            </Button>
          </>
        )}
      </form>
    </AuthLayout>
  );
}
