import { LIMITS } from './constants';

// The sign-up password rule and its strength meter, one place for both (issue #42: the meter
// said "Strong" in green for "sunny-tiger-42" while the rule under it refused the password).
//
// The rule (docs/accounts-and-shell.md §5): 8 to 72 characters with an uppercase letter, a
// lowercase letter, and a digit or another non-word character. The form schema
// (`schemas/auth.ts`, strongPassword) asks exactly these parts, and the form lists the ones
// still unmet as the player types.
//
// The meter (docs/accounts-and-shell.md §4): up to 25 points for length (full at 12
// characters) plus 18.75 for each of an uppercase letter, a lowercase letter, a digit and a
// symbol, so 0 to 100. Below 30 the meter is red, below 60 yellow, otherwise green. A password
// the rule refuses is held below 60, so the meter never says "Strong" for one (and every
// password the rule accepts scores at least 72.9: green).

export type StrengthColour = 'red' | 'yellow' | 'green';

export type PasswordRulePart = 'length' | 'uppercase' | 'lowercase' | 'digitOrSymbol' | 'maxLength';

export interface PasswordStrength {
  score: number;
  colour: StrengthColour;
  /** The parts of the rule the password does not meet yet, in the order the form lists them. */
  unmet: PasswordRulePart[];
}

/** How the form names each part still missing (the list under the password field). */
export const PASSWORD_RULE_TEXTS: Record<PasswordRulePart, string> = {
  length: `At least ${LIMITS.passwordMin} characters`,
  uppercase: 'An uppercase letter',
  lowercase: 'A lowercase letter',
  digitOrSymbol: 'A number or a symbol',
  maxLength: `At most ${LIMITS.passwordMax} characters`,
};

/** Characters as zod counts them (code points), so "😀" is one, as a person counts it. */
const characterCount = (password: string) => [...password].length;

const RULE: ReadonlyArray<[PasswordRulePart, (password: string) => boolean]> = [
  ['length', (password) => characterCount(password) >= LIMITS.passwordMin],
  ['uppercase', (password) => /[A-Z]/.test(password)],
  ['lowercase', (password) => /[a-z]/.test(password)],
  // "a digit or non-word character", as the spec's pattern says: `_` is a word character.
  ['digitOrSymbol', (password) => /[\d\W]/.test(password)],
  ['maxLength', (password) => characterCount(password) <= LIMITS.passwordMax],
];

/** The parts of the sign-up rule `password` does not meet; empty when the form accepts it. */
export function unmetPasswordRule(password: string): PasswordRulePart[] {
  return RULE.filter(([, isMet]) => !isMet(password)).map(([part]) => part);
}

/** Whether the sign-up rule accepts `password` (the form schema asks exactly this). */
export function meetsPasswordRule(password: string): boolean {
  return unmetPasswordRule(password).length === 0;
}

const FULL_LENGTH = 12;
const LENGTH_POINTS = 25;
const CLASS_POINTS = 18.75;
const CHARACTER_CLASSES = [/[A-Z]/, /[a-z]/, /\d/, /[^A-Za-z0-9]/];
/** The highest score of a password the rule refuses: yellow, never green. */
const REFUSED_CEILING = 59;

/** The spec's score alone, before the rule holds it down. */
export function scorePassword(password: string): number {
  const lengthScore =
    (Math.min(characterCount(password), FULL_LENGTH) / FULL_LENGTH) * LENGTH_POINTS;
  const classScore =
    CHARACTER_CLASSES.filter((pattern) => pattern.test(password)).length * CLASS_POINTS;
  return lengthScore + classScore;
}

export function strengthColour(score: number): StrengthColour {
  if (score < 30) return 'red';
  if (score < 60) return 'yellow';
  return 'green';
}

export function measurePassword(password: string): PasswordStrength {
  const unmet = unmetPasswordRule(password);
  const raw = scorePassword(password);
  const score = unmet.length === 0 ? raw : Math.min(raw, REFUSED_CEILING);
  return { score, colour: strengthColour(score), unmet };
}
