import { instantOfWallClock, wallClockAt } from './time-zones';

// The bet form's quick choices for when a bet closes (docs/rules.md "Bets that come back"), shown
// before the date-and-time field, in the player's own time zone: "in 1 hour", "tonight 20:00"
// (while it is before 20:00, else "tomorrow 20:00") and "tomorrow 9:00". Pure: the clock and the
// zone are arguments.

export interface CloseChoice {
  label: string;
  /** When the bet would close (ms since the epoch), to the minute. */
  at: number;
}

const HOUR_MS = 3_600_000;
const EVENING_HOUR = 20;
const MORNING_HOUR = 9;

/** The instant the clock in `zone` reads `hour`:00 on the day `daysAhead` after today there. */
function atHour(now: number, zone: string, daysAhead: number, hour: number): number {
  const today = wallClockAt(now, zone);
  const day = new Date(Date.UTC(today.year, today.month - 1, today.day + daysAhead));
  return instantOfWallClock(
    {
      year: day.getUTCFullYear(),
      month: day.getUTCMonth() + 1,
      day: day.getUTCDate(),
      hour,
      minute: 0,
      second: 0,
    },
    zone,
  );
}

/** The three quick choices at `now` in `zone` (the device's, by default). */
export function closeTimeChoices(
  now: number,
  zone: string = Intl.DateTimeFormat().resolvedOptions().timeZone,
): CloseChoice[] {
  const isBeforeEvening = wallClockAt(now, zone).hour < EVENING_HOUR;
  return [
    { label: 'in 1 hour', at: Math.floor((now + HOUR_MS) / 60_000) * 60_000 },
    isBeforeEvening
      ? { label: 'tonight 20:00', at: atHour(now, zone, 0, EVENING_HOUR) }
      : { label: 'tomorrow 20:00', at: atHour(now, zone, 1, EVENING_HOUR) },
    { label: 'tomorrow 9:00', at: atHour(now, zone, 1, MORNING_HOUR) },
  ];
}
