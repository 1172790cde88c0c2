import { instantOfWallClock, wallClockAt } from './time-zones';

// Bets that come back (docs/rules.md "Bets that come back"): a bet may repeat every day, week or
// month, up to an optional end. When its latest bet closes, the next one opens with the same
// title, description, type, options and base, closing at the same time of day in its creator's
// time zone, shifted by the period. Slot n of a series closes n periods after its first bet
// (counted from the first, so "every month" from the 31st closes on each month's last day and
// comes back to the 31st). Pure: the clock and the zone are arguments.

export const REPEAT_PERIODS = ['day', 'week', 'month'] as const;
export type RepeatPeriod = (typeof REPEAT_PERIODS)[number];

/** `repeat` of POST /api/bets. */
export type BetRepeatRequest = { every: RepeatPeriod; until?: string | undefined };

export const REPEAT_MESSAGES = {
  everyUnknown: 'Repeat must be every day, week or month',
  untilInvalid: 'Repeat end must be a valid date',
  untilBeforeClose: 'Repeat end must be after the bet closes',
  timeZoneUnknown: 'Time zone must be an IANA time zone such as Europe/Berlin',
} as const;

/** The repeat choice in words: "Repeats every week until 31 Dec". */
export const REPEAT_LABELS: Record<RepeatPeriod, string> = {
  day: 'Every day',
  week: 'Every week',
  month: 'Every month',
};

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * When slot `n` (0 is the first bet) of a series closes: the first bet's close shifted by n
 * periods in `zone`, at the same time of day; a month without that day takes its last day.
 */
export function repeatSlotClose(
  firstClose: number,
  every: RepeatPeriod,
  n: number,
  zone: string,
): number {
  const clock = wallClockAt(firstClose, zone);
  const date = new Date(Date.UTC(clock.year, clock.month - 1, clock.day));
  if (every === 'day') date.setUTCDate(date.getUTCDate() + n);
  else if (every === 'week') date.setUTCDate(date.getUTCDate() + 7 * n);
  else {
    const monthIndex = clock.month - 1 + n;
    const year = clock.year + Math.floor(monthIndex / 12);
    const month = (((monthIndex % 12) + 12) % 12) + 1;
    date.setTime(Date.UTC(year, month - 1, Math.min(clock.day, daysInMonth(year, month))));
  }
  const milliseconds = ((firstClose % 1000) + 1000) % 1000;
  return (
    instantOfWallClock(
      {
        ...clock,
        year: date.getUTCFullYear(),
        month: date.getUTCMonth() + 1,
        day: date.getUTCDate(),
      },
      zone,
    ) + milliseconds
  );
}

/**
 * The slot that comes after `lastSlot` once it closed, at `now`: the first later slot still
 * closing ahead of `now` (slots missed while no instance ran are skipped, never opened already
 * closed), or null when that slot would close after `until`: the series has ended.
 */
export function nextRepeatSlot(
  series: { firstClose: number; every: RepeatPeriod; until: number | null; timeZone: string },
  lastSlot: number,
  now: number,
): { slot: number; closesAt: number } | null {
  let slot = lastSlot + 1;
  let closesAt = repeatSlotClose(series.firstClose, series.every, slot, series.timeZone);
  // Each slot closes at least a day after the one before, so this stops at now's period.
  while (closesAt <= now) {
    slot += 1;
    closesAt = repeatSlotClose(series.firstClose, series.every, slot, series.timeZone);
  }
  if (series.until !== null && closesAt > series.until) return null;
  return { slot, closesAt };
}

/** Why a repeat may not end at `until` for a bet closing at `expiresAt`, or undefined when it may. */
export function repeatUntilRefusal(until: string, expiresAt: string): string | undefined {
  const end = Date.parse(until);
  if (!Number.isFinite(end)) return REPEAT_MESSAGES.untilInvalid;
  if (end <= Date.parse(expiresAt)) return REPEAT_MESSAGES.untilBeforeClose;
  return undefined;
}
