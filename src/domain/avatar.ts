// Avatar initials (docs/accounts-and-shell.md §2): first plus last initial; else the first initial; else the
// initial of the chosen display name (a guest has only that); else the email initial; else "U".
// An unknown user (none at all) shows "?". An initial is the name's first grapheme, as the eye
// reads it: "É" of "élodie", "🦊" of "🦊 Fox", "👩‍👩‍👧" whole, never half of a surrogate pair ("�").

export interface AvatarPerson {
  firstName?: string | null;
  lastName?: string | null;
  displayName?: string | null;
  email?: string | null;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The first grapheme of `value`, upper-cased when that stays one grapheme ("ß" stays "ß", not "SS"). */
export function initialOf(value: string | null | undefined): string {
  const segments = graphemes.segment((value ?? '').trim());
  const first = segments.containing(0)?.segment;
  if (!first) return '';
  const upper = first.toUpperCase();
  return [...graphemes.segment(upper)].length === 1 ? upper : first;
}

export function avatarInitials(person: AvatarPerson | null | undefined): string {
  if (!person) return '?';
  const first = initialOf(person.firstName);
  const last = initialOf(person.lastName);
  if (first && last) return first + last;
  if (first) return first;
  const chosen = initialOf(person.displayName);
  if (chosen) return chosen;
  const email = initialOf(person.email);
  if (email) return email;
  return 'U';
}
