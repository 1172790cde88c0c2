import { BET_MESSAGES } from '../../domain/bet-limits';
import type { CreatableBetType } from '../../domain/bet-types';
import { defaultExpiresAt, type CreateBetRequest } from '../../domain/bets';
import { createBetRequestSchemaAt } from '../../domain/schemas/bets';

// The bet-creation form's values and rules (docs/groups-and-bets.md §5), kept pure so the stepper's rules
// are testable without a screen. Validation is the domain's createBetRequestSchemaAt, so the
// form and the server refuse the same things with the same words.

export interface BetFormValues {
  title: string;
  description: string;
  /** A datetime-local value ("2025-05-01T18:30"), in the device's time zone. */
  expiresAt: string;
  baseWagerAmount: 1 | 2 | 3;
  groupId: number | null;
  betType: CreatableBetType;
  yesLabel: string;
  noLabel: string;
  options: string[];
  line: string;
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
  | 'line';
export type BetFormErrors = Partial<Record<BetFormField, string>>;

export const DETAILS_FIELDS: BetFormField[] = [
  'title',
  'description',
  'expiresAt',
  'baseWagerAmount',
  'groupId',
];
export const TYPE_FIELDS: BetFormField[] = ['betType', 'yesLabel', 'noLabel', 'options', 'line'];

/** A Date as a datetime-local value in the device's zone. */
function toDateTimeLocal(time: number): string {
  const date = new Date(time);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function initialBetFormValues(now: number, groupId: number | null): BetFormValues {
  return {
    title: '',
    description: '',
    expiresAt: toDateTimeLocal(Date.parse(defaultExpiresAt(now))),
    baseWagerAmount: 1,
    groupId,
    betType: 'yes_no',
    yesLabel: '',
    noLabel: '',
    options: ['', ''],
    line: '',
  };
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
  };
}

/** Every field's first error (docs/groups-and-bets.md §5 messages), checked against the clock for the future expiry. */
export function validateBetForm(values: BetFormValues, now: number): BetFormErrors {
  const request = toBetRequest(values);
  // A group created offline still has its temporary (negative) id: the outbox puts the
  // server's id in before the bet is sent (data/mutators.ts), so it is as good as any here.
  const checked =
    values.groupId !== null && values.groupId < 0 ? { ...request, groupId: 1 } : request;
  const result = createBetRequestSchemaAt(now).safeParse(checked);
  const errors: BetFormErrors = {};
  if (result.success) return errors;
  for (const issue of result.error.issues) {
    const [head, sub] = issue.path;
    const field = (head === 'betTypeConfig' ? sub : head) as BetFormField | undefined;
    if (field && !errors[field]) errors[field] = issue.message;
  }
  if (values.groupId === null) errors.groupId = BET_MESSAGES.groupRequired;
  return errors;
}

export function hasErrorIn(errors: BetFormErrors, fields: readonly BetFormField[]): boolean {
  return fields.some((field) => errors[field] !== undefined);
}

/** docs/groups-and-bets.md §5: at most 10 options; one can be removed only while more than 2 remain. */
export const canAddOption = (options: readonly string[]) => options.length < 10;
export const canRemoveOption = (options: readonly string[]) => options.length > 2;
