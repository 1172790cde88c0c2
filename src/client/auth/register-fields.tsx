import { useId, useRef, useState } from 'react';
import { useWatch, type UseFormReturn } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { suggestDisplayName, suggestUsername, type RegisterForm } from '../../domain/auth';
import { Checkbox } from '../ui/checkbox';
import { PasswordField } from '../ui/password-field';
import { TextField } from '../ui/text-field';
import { isListingUnmetParts, PasswordStrengthMeter } from './password-strength-meter';
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

type SuggestedField = 'displayName' | 'username';

/**
 * Display name and username follow the first name as it is typed (issue #42: a friend from an
 * invite types name, email and password), each until the player edits it: an edited one is
 * theirs. A field that starts filled (a guest's display name in the upgrade modal) is theirs
 * already. Setting a suggestion validates nothing: an untouched field shows no error.
 */
function useNameSuggestions(form: UseFormReturn<RegisterForm>) {
  const [suffix] = useState(() => 10 + Math.floor(Math.random() * 90));
  const defaults = form.formState.defaultValues;
  const following = useRef<Record<SuggestedField, boolean>>({
    displayName: !defaults?.displayName,
    username: !defaults?.username,
  });
  const suggest = (firstName: string) => {
    const suggestions: Record<SuggestedField, string> = {
      displayName: suggestDisplayName(firstName),
      username: suggestUsername(firstName, suffix),
    };
    for (const field of ['displayName', 'username'] as const) {
      if (!following.current[field]) continue;
      form.setValue(field, suggestions[field], {
        shouldDirty: true,
        // Once touched, a field's message follows its value, as when the player types.
        shouldValidate: form.getFieldState(field).isTouched,
      });
    }
  };
  const stopFollowing = (field: SuggestedField) => {
    following.current[field] = false;
  };
  return { suggest, stopFollowing };
}

export function RegisterFields({ form }: { form: UseFormReturn<RegisterForm> }) {
  const { register } = form;
  const { errors } = form.formState;
  const password = useWatch({ control: form.control, name: 'password' });
  const { suggest, stopFollowing } = useNameSuggestions(form);
  const unmetPartsId = useId();
  const isListing = isListingUnmetParts(password);
  return (
    <>
      <div className={styles.row}>
        <TextField
          label={TEXT.firstName}
          autoComplete="given-name"
          error={errors.firstName?.message}
          {...register('firstName', { onChange: (event) => suggest(event.target.value) })}
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
        {...register('displayName', { onChange: () => stopFollowing('displayName') })}
      />
      <TextField
        label={TEXT.username}
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        error={errors.username?.message}
        {...register('username', { onChange: () => stopFollowing('username') })}
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
        meter={<PasswordStrengthMeter password={password} id={unmetPartsId} />}
        meterDescriptionId={isListing ? unmetPartsId : undefined}
        // While the meter lists the parts still unmet, they are the message.
        error={isListing ? undefined : errors.password?.message}
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
