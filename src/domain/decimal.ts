// Numbers as players type them, compared exactly: a numeric bet's guesses and answers and an
// over/under bet's actual number are plain decimals, never floats, so 0.1 + 0.2 style
// rounding can never decide who wins.

/** A plain decimal (no exponent, no hex): the only numeric form, so numeric answers compare exactly. */
const DECIMAL_PATTERN = /^-?(\d{1,15})(\.\d{1,15})?$/;

/** A decimal comma as much of Europe types it: "2,5". */
const DECIMAL_COMMA_PATTERN = /^(-?)(\d{1,15}),(\d{1,15})$/;

/**
 * The text with its decimal comma read as a point ("2,5" → "2.5"), trimmed; any other text as
 * it is. "1,000" is left alone: to half the players it is a thousand, to the others one, so it
 * is refused (the message asks for "2.5") rather than guessed. After a leading zero ("0,125")
 * the comma can only be a decimal one.
 */
export function withDecimalPoint(value: string): string {
  const text = value.trim();
  const match = DECIMAL_COMMA_PATTERN.exec(text);
  if (!match) return text;
  const [, sign = '', whole = '', fraction = ''] = match;
  const isThousands = fraction.length === 3 && /[1-9]/.test(whole);
  return isThousands ? text : `${sign}${whole}.${fraction}`;
}

/** Whether a string is a number a numeric bet accepts ("12", "-3.5", "2,5"). */
export function isDecimalString(value: string): boolean {
  const text = withDecimalPoint(value);
  return DECIMAL_PATTERN.test(text) && Number.isFinite(Number(text));
}

/** The canonical spelling of a decimal ("007.50" → "7.5", "2,5" → "2.5", "-0" → "0"), so equal numbers share one answer key. */
export function canonicalDecimal(value: string): string {
  const typed = withDecimalPoint(value);
  const match = DECIMAL_PATTERN.exec(typed);
  if (!match) return value.trim();
  const negative = typed.startsWith('-');
  const whole = (match[1] ?? '0').replace(/^0+(?=\d)/, '');
  const fraction = (match[2] ?? '').replace(/0+$/, '').replace(/^\.$/, '');
  const text = `${whole}${fraction}`;
  return negative && /[1-9]/.test(text) ? `-${text}` : text;
}

/** An exact decimal: `units` × 10^-`scale`. */
export type Decimal = { units: bigint; scale: number };

/** A decimal string as an exact decimal, or null when it is not one. */
export function parseDecimal(value: string): Decimal | null {
  const text = canonicalDecimal(value);
  if (!DECIMAL_PATTERN.test(text)) return null;
  const [whole = '0', fraction = ''] = text.replace('-', '').split('.');
  const units = BigInt(whole + fraction) * (text.startsWith('-') ? -1n : 1n);
  return { units, scale: fraction.length };
}

/**
 * A JSON number as the exact decimal it was written as: its shortest round-trip text (what
 * JSON.stringify sends back), exponent form included. The over/under line is such a number.
 */
export function decimalOfNumber(value: number): Decimal {
  const [mantissa = '0', exponentText = '0'] = String(value).toLowerCase().split('e');
  const isNegative = mantissa.startsWith('-');
  const [whole = '0', fraction = ''] = mantissa.replace('-', '').split('.');
  const scale = fraction.length - Number(exponentText);
  const digits = BigInt(whole + fraction) * (isNegative ? -1n : 1n);
  return scale >= 0
    ? { units: digits, scale }
    : { units: digits * 10n ** BigInt(-scale), scale: 0 };
}

/** The decimal's units at a scale at least its own, so two decimals compare as integers. */
export function atScale(value: Decimal, scale: number): bigint {
  return value.units * 10n ** BigInt(scale - value.scale);
}

/** -1, 0 or 1 as a < b, a = b, a > b, exactly. */
export function compareDecimals(a: Decimal, b: Decimal): number {
  const scale = Math.max(a.scale, b.scale);
  const left = atScale(a, scale);
  const right = atScale(b, scale);
  return left < right ? -1 : left > right ? 1 : 0;
}
