// Wall clocks in a time zone and the instants they read (pure, Intl only): a repeating bet's
// next close at the same time of day, the bet form's quick choices, a fixture list's local
// kick-offs. The one place that turns a zone's wall-clock time into an instant and back.

/** Whether `zone` is a time zone this runtime knows (an IANA name, or UTC). */
export function isKnownTimeZone(zone: string): boolean {
  if (zone.trim() === '') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export interface WallClock {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** The wall clock in `zone` at instant `ms`. */
export function wallClockAt(ms: number, zone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(zone).formatToParts(new Date(ms)))
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

function asUtc(clock: WallClock): number {
  return Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, clock.second);
}

/**
 * The instant the wall clock in `zone` reads `clock` (a time skipped by a move to summer time
 * lands beside it, by the offset's change).
 */
export function instantOfWallClock(clock: WallClock, zone: string): number {
  const wanted = asUtc(clock);
  const offsetAt = (ms: number) => asUtc(wallClockAt(ms, zone)) - ms;
  // Two rounds settle every zone: the offset at the guess, then at the corrected guess.
  const guess = wanted - offsetAt(wanted);
  return wanted - offsetAt(guess);
}
