import { useId } from 'react';
import { useWatch, type Control } from 'react-hook-form';
import type { RegisterForm } from '../../domain/auth';
import { registerFormSchema } from '../../domain/schemas/auth';
import { Button } from '../ui/button';
import styles from './auth-form.module.css';

// The register form's submit button (sign-up and a guest's upgrade): never greyed out without a
// word. The note under it says what the form still needs, read from the form's own schema as the
// player types; pressing it anyway marks every field touched and focuses the first.
const TEXT = {
  stillNeeded: 'Still needed:',
  fields: {
    firstName: 'first name',
    lastName: 'last name',
    displayName: 'display name',
    username: 'username',
    email: 'email',
    password: 'password',
    passwordConfirm: 'password confirmation',
    acceptTerms: 'accepting the terms',
  } satisfies Record<keyof RegisterForm, string>,
};

const FIELD_ORDER = Object.keys(TEXT.fields) as Array<keyof RegisterForm>;

/** The fields `values` still lacks or has wrong, in the form's order; empty when it may be sent. */
export function missingRegisterFields(values: RegisterForm): Array<keyof RegisterForm> {
  const result = registerFormSchema.safeParse(values);
  if (result.success) return [];
  const fields = new Set(result.error.issues.map((issue) => issue.path[0]));
  return FIELD_ORDER.filter((field) => fields.has(field));
}

/** The submit button, and under it "Still needed: email, password" until the form may be sent. */
export function RegisterSubmit({
  control,
  label,
  busyLabel,
  isSubmitting,
}: {
  control: Control<RegisterForm>;
  label: string;
  busyLabel: string;
  isSubmitting: boolean;
}) {
  const missingId = useId();
  return (
    <>
      <Button
        type="submit"
        fullWidth
        aria-describedby={missingId}
        isLoading={isSubmitting}
        loadingText={busyLabel}
      >
        {label}
      </Button>
      <MissingNote control={control} id={missingId} />
    </>
  );
}

function MissingNote({ control, id }: { control: Control<RegisterForm>; id: string }) {
  const values = useWatch({ control }) as RegisterForm;
  const missing = missingRegisterFields(values);
  if (missing.length === 0) return null;
  return (
    <p id={id} className={styles.missing}>
      <strong>{TEXT.stillNeeded}</strong> {missing.map((field) => TEXT.fields[field]).join(', ')}
    </p>
  );
}
