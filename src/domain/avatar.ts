// Avatar initials (docs/accounts-and-shell.md §2): first plus last initial; else the first initial; else the
// email initial; else "U". An unknown user (none at all) shows "?".

export interface AvatarPerson {
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
}

const initialOf = (value: string | null | undefined) =>
  (value ?? '').trim().charAt(0).toUpperCase();

export function avatarInitials(person: AvatarPerson | null | undefined): string {
  if (!person) return '?';
  const first = initialOf(person.firstName);
  const last = initialOf(person.lastName);
  if (first && last) return first + last;
  if (first) return first;
  const email = initialOf(person.email);
  if (email) return email;
  return 'U';
}
