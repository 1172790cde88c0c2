import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { Link } from 'react-router-dom';
import type { RegisterForm } from '../../domain/auth';
import { Checkbox } from '../ui/checkbox';
import { PasswordField } from '../ui/password-field';
import { TextField } from '../ui/text-field';
import { PasswordStrengthMeter } from './password-strength-meter';
import styles from './auth-form.module.css';

// The full-account fields (docs/accounts-and-shell.md §2 "Register page"), shared by /register and the guest
// upgrade modal.
const TEXT = {
  firstName: 'First name',
  lastName: 'Last name',
  displayName: 'Display name',
  displayNameHint: 'What your friends see on the leaderboard.',
  username: 'Username',
  email: 'Email',
  emailPlaceholder: 'you@example.com',
  password: 'Password',
  passwordConfirm: 'Confirm password',
};

interface RegisterFieldsProps {
  register: UseFormRegister<RegisterForm>;
  errors: FieldErrors<RegisterForm>;
  password: string;
}

export function RegisterFields({ register, errors, password }: RegisterFieldsProps) {
  return (
    <>
      <div className={styles.row}>
        <TextField
          label={TEXT.firstName}
          autoComplete="given-name"
          error={errors.firstName?.message}
          {...register('firstName')}
        />
        <TextField
          label={TEXT.lastName}
          autoComplete="family-name"
          error={errors.lastName?.message}
          {...register('lastName')}
        />
      </div>
      <TextField
        label={TEXT.displayName}
        autoComplete="nickname"
        hint={TEXT.displayNameHint}
        error={errors.displayName?.message}
        {...register('displayName')}
      />
      <TextField
        label={TEXT.username}
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        error={errors.username?.message}
        {...register('username')}
      />
      <TextField
        label={TEXT.email}
        type="email"
        inputMode="email"
        autoComplete="email"
        placeholder={TEXT.emailPlaceholder}
        error={errors.email?.message}
        {...register('email')}
      />
      <PasswordField
        label={TEXT.password}
        autoComplete="new-password"
        meter={<PasswordStrengthMeter password={password} />}
        error={errors.password?.message}
        {...register('password')}
      />
      <PasswordField
        label={TEXT.passwordConfirm}
        autoComplete="new-password"
        error={errors.passwordConfirm?.message}
        {...register('passwordConfirm')}
      />
      <Checkbox
        label={
          <>
            I agree to the <Link to="/terms-conditions">Terms and Conditions</Link> and the{' '}
            <Link to="/privacy-policy">Privacy Policy</Link>, and I am at least 13 years old.
          </>
        }
        error={errors.acceptTerms?.message}
        {...register('acceptTerms')}
      />
    </>
  );
}

export const EMPTY_REGISTER_FORM: RegisterForm = {
  firstName: '',
  lastName: '',
  displayName: '',
  username: '',
  email: '',
  password: '',
  passwordConfirm: '',
  acceptTerms: false,
};
