// The email typed on the sign-in form, carried to "Forgot your password?" (issue #42) in the
// history entry's state: never in the address, where it would sit in the browser's history
// and the server's logs. Its own file, so neither screen's chunk loads the other.

interface CarriedEmail {
  email: string;
}

/** The navigation state for the email typed so far; none when nothing was typed. */
export function carryEmail(email: string): CarriedEmail | undefined {
  const typed = email.trim();
  return typed ? { email: typed } : undefined;
}

/** The email a screen was handed, or "". */
export function carriedEmail(state: unknown): string {
  const email = (state as Partial<CarriedEmail> | null)?.email;
  return typeof email === 'string' ? email : '';
}
