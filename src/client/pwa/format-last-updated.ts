// "Last updated 5 minutes ago" for the offline indicator (the interface says when
// data was last brought up to date). Pure: the clock is passed in.

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

export function formatLastUpdated(syncedAt: number, now: number, locale = 'en'): string {
  const elapsed = Math.max(0, now - syncedAt);
  if (elapsed < 60_000) return 'Last updated just now';
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, ms] of UNITS) {
    if (elapsed >= ms) return `Last updated ${format.format(-Math.floor(elapsed / ms), unit)}`;
  }
  return 'Last updated just now';
}
