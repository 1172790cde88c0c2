import { BET_MESSAGES } from '../../domain/bet-limits';
import type { CreatableBetType } from '../../domain/bet-types';
import type { RepeatPeriod } from '../../domain/bet-repeats';
import { defaultExpiresAt, type Bet, type CreateBetRequest } from '../../domain/bets';
import { createBetRequestSchemaAt } from '../../domain/schemas/bets';
import { baseNotInTiersMessage, DEFAULT_STAKE_TIERS, isBaseInTiers } from '../../domain/stakes';

// The bet-creation form's values and rules (docs/groups-and-bets.md §5), kept pure so the stepper's rules
// are testable without a screen. Validation is the domain's createBetRequestSchemaAt, so the
// form and the server refuse the same things with the same words.

export interface BetFormValues {
  title: string;
  description: string;
  /** A datetime-local value ("2025-05-01T18:30"), in the device's time zone. */
  expiresAt: string;
  /** One of the group's stake tiers (stakes.ts). */
  baseWagerAmount: number;
  groupId: number | null;
  betType: CreatableBetType;
  yesLabel: string;
  noLabel: string;
  options: string[];
  line: string;
  /** A bet that comes back (bet-repeats.ts): '' when it does not. */
  repeat: '' | RepeatPeriod;
  /** The last day it may come back on, a date input's value ("2025-06-30"); '' for no end. */
  repeatUntil: string;
}

export type BetFormField =
  | 'title'
  | 'description'
  | 'expiresAt'
  | 'baseWagerAmount'
  | 'groupId'
  | 'betType'
  | 'yesLabel'
  | 'noLabel'
  | 'options'
  | 'line'
  | 'repeat'
  | 'repeatUntil';
export type BetFormErrors = Partial<Record<BetFormField, string>>;

export const DETAILS_FIELDS: BetFormField[] = [
  'title',
  'description',
  'expiresAt',
  'repeat',
  'repeatUntil',
  'baseWagerAmount',
  'groupId',
];
export const TYPE_FIELDS: BetFormField[] = ['betType', 'yesLabel', 'noLabel', 'options', 'line'];

/** A Date as a datetime-local value in the device's zone (a quick choice fills the field with it). */
export function toDateTimeLocal(time: number): string {
  const date = new Date(time);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function initialBetFormValues(
  now: number,
  groupId: number | null,
  tiers: readonly number[] = DEFAULT_STAKE_TIERS,
): BetFormValues {
  return {
    title: '',
    description: '',
    expiresAt: toDateTimeLocal(Date.parse(defaultExpiresAt(now))),
    baseWagerAmount: tiers[0]!,
    groupId,
    betType: 'yes_no',
    yesLabel: '',
    noLabel: '',
    options: ['', ''],
    line: '',
    repeat: '',
    repeatUntil: '',
  };
}

/**
 * "Same as last time": a new bet's form filled from a settled one, with its title,
 * description, type and options, and its base (the same tier in the group's points if the
 * group's stakes changed since); it closes at the form's default time.
 */
export function sameAsBefore(
  bet: Pick<Bet, 'title' | 'description' | 'betTypeConfig' | 'baseWagerAmount' | 'groupId'> & {
    betType: CreatableBetType;
  },
  now: number,
  tiers: readonly number[] = DEFAULT_STAKE_TIERS,
): BetFormValues {
  const fresh = initialBetFormValues(now, bet.groupId, tiers);
  const config = bet.betTypeConfig;
  return {
    ...fresh,
    title: bet.title,
    description: bet.description ?? '',
    betType: bet.betType,
    baseWagerAmount: isBaseInTiers(bet.baseWagerAmount, tiers)
      ? bet.baseWagerAmount
      : baseInTiers(bet.baseWagerAmount, DEFAULT_STAKE_TIERS, tiers),
    yesLabel: typeof config.yesLabel === 'string' ? config.yesLabel : '',
    noLabel: typeof config.noLabel === 'string' ? config.noLabel : '',
    options:
      Array.isArray(config.options) && config.options.length >= 2
        ? [...config.options]
        : fresh.options,
    line: typeof config.line === 'number' ? String(config.line) : '',
  };
}

/** The repeat's end: the whole of its last day, in the device's zone. */
function endOfDay(date: string): string {
  const end = new Date(`${date}T23:59:59`);
  return Number.isFinite(end.getTime()) ? end.toISOString() : 'invalid';
}

/** Each bet type's config, from the form fields it uses (bet-type-step.tsx shows them). */
const CONFIG_FROM_FORM: Record<
  CreatableBetType,
  (values: BetFormValues) => Record<string, unknown>
> = {
  yes_no: (values) => ({ yesLabel: values.yesLabel, noLabel: values.noLabel }),
  multiple_choice: (values) => ({ options: values.options }),
  numeric: () => ({}),
  over_under: (values) => ({
    line: values.line.trim() === '' ? undefined : Number(values.line),
  }),
};

/** The POST /bets body: only the chosen type's config, blank options dropped by the schema. */
export function toBetRequest(values: BetFormValues): CreateBetRequest {
  const expiry = values.expiresAt.trim() === '' ? '' : new Date(values.expiresAt);
  const config = CONFIG_FROM_FORM[values.betType](values);
  return {
    title: values.title,
    description: values.description,
    expiresAt:
      expiry === '' ? '' : Number.isFinite(expiry.getTime()) ? expiry.toISOString() : 'invalid',
    baseWagerAmount: values.baseWagerAmount,
    betType: values.betType,
    betTypeConfig: config,
    groupId: values.groupId ?? (undefined as unknown as number),
    ...(values.repeat
      ? {
          repeat: {
            every: values.repeat,
            ...(values.repeatUntil.trim() ? { until: endOfDay(values.repeatUntil.trim()) } : {}),
            timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
          },
        }
      : {}),
  };
}

/**
 * The base a bet keeps when its form moves to a group of other stake tiers: the same tier
 * ($, $$ or $$$) in the new group's points.
 */
export function baseInTiers(base: number, from: readonly number[], to: readonly number[]): number {
  const tier = from.indexOf(base);
  if (tier >= 0) return to[tier] ?? to[0]!;
  return isBaseInTiers(base, to) ? base : to[0]!;
}

/**
 * Every field's first error (docs/groups-and-bets.md §5 messages), checked against the clock for
 * the future expiry and against the group's stake tiers for the base, as the server checks them.
 */
export function validateBetForm(
  values: BetFormValues,
  now: number,
  tiers: readonly number[] = DEFAULT_STAKE_TIERS,
): BetFormErrors {
  const request = toBetRequest(values);
  // A group created offline still has its temporary (negative) id: the outbox puts the
  // server's id in before the bet is sent (data/mutators.ts), so it is as good as any here.
  const checked =
    values.groupId !== null && values.groupId < 0 ? { ...request, groupId: 1 } : request;
  const result = createBetRequestSchemaAt(now).safeParse(checked);
  const errors: BetFormErrors = {};
  if (!isBaseInTiers(values.baseWagerAmount, tiers))
    errors.baseWagerAmount = baseNotInTiersMessage(tiers);
  if (result.success) return errors;
  for (const issue of result.error.issues) {
    const [head, sub] = issue.path;
    const field = (
      head === 'betTypeConfig'
        ? sub
        : head === 'repeat'
          ? sub === 'until'
            ? 'repeatUntil'
            : 'repeat'
          : head
    ) as BetFormField | undefined;
    if (field && !errors[field]) errors[field] = issue.message;
  }
  if (values.groupId === null) errors.groupId = BET_MESSAGES.groupRequired;
  return errors;
}

/** What a part of a step's fields gets: the values, a field's shown error, and the two callbacks. */
export interface BetStepFieldProps {
  values: BetFormValues;
  shown: (field: BetFormField) => string | undefined;
  onChange: (patch: Partial<BetFormValues>) => void;
  onTouch: (field: BetFormField) => void;
}

export function hasErrorIn(errors: BetFormErrors, fields: readonly BetFormField[]): boolean {
  return fields.some((field) => errors[field] !== undefined);
}

/** docs/groups-and-bets.md §5: at most 10 options; one can be removed only while more than 2 remain. */
export const canAddOption = (options: readonly string[]) => options.length < 10;
export const canRemoveOption = (options: readonly string[]) => options.length > 2;
