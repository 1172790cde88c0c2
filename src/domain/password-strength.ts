// The register form's strength meter (docs/accounts-and-shell.md §4): up to 25 points for length (full at 12
// characters) plus 18.75 for each of an uppercase letter, a lowercase letter, a digit and a
// symbol, so 0 to 100. Below 30 the meter is red, below 60 yellow, otherwise green.

export type StrengthColour = 'red' | 'yellow' | 'green';

export interface PasswordStrength {
  score: number;
  colour: StrengthColour;
}

const FULL_LENGTH = 12;
const LENGTH_POINTS = 25;
const CLASS_POINTS = 18.75;
const CHARACTER_CLASSES = [/[A-Z]/, /[a-z]/, /\d/, /[^A-Za-z0-9]/];

export function scorePassword(password: string): number {
  const lengthScore = (Math.min(password.length, FULL_LENGTH) / FULL_LENGTH) * LENGTH_POINTS;
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
  const score = scorePassword(password);
  return { score, colour: strengthColour(score) };
}
