import type { WallClock } from './time-zones';

// A fixture list's date and time cells, as spreadsheets and football-data write them: ISO or
// day-first dates, 24-hour times. Read as wall-clock parts; fixtures.ts puts them in a zone.

/** Whether year, month and day name a real day, 2000–2999. */
export const isRealDate = (year: number, month: number, day: number) => {
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    year >= 2000 &&
    year <= 2999 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day
  );
};

/** "2026-12-05", "05/12/2026", "05.12.2026" or "05/12/26" (day first, as football-data writes it). */
export function parseFixtureDate(text: string): Pick<WallClock, 'year' | 'month' | 'day'> | null {
  const value = text.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const dayFirst = /^(\d{1,2})[/.](\d{1,2})[/.](\d{2}|\d{4})$/.exec(value);
  let year: number, month: number, day: number;
  if (iso) [year, month, day] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (dayFirst) {
    [day, month, year] = [Number(dayFirst[1]), Number(dayFirst[2]), Number(dayFirst[3])];
    if (dayFirst[3]!.length === 2) year += 2000;
  } else return null;
  return isRealDate(year, month, day) ? { year, month, day } : null;
}

/** "15:30" or "9:05", 24-hour. */
export function parseFixtureTime(text: string): { hour: number; minute: number } | null {
  const match = /^(\d{1,2}):(\d{2})$/.exec(text.trim());
  if (!match) return null;
  const hour = Number(match[1]);
  const minute = Number(match[2]);
  return hour <= 23 && minute <= 59 ? { hour, minute } : null;
}
