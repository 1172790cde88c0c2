import { BET_MESSAGES } from './bet-limits';
import { expiryRefusal } from './bets';
import { isRealDate, parseFixtureDate, parseFixtureTime } from './fixture-dates';
import { instantOfWallClock, isKnownTimeZone } from './time-zones';

// A tipping round's fixture list (docs/rules.md "Tipping rounds"): read from pasted CSV (date,
// time, home, away and an optional provider match id: the columns football-data exports and
// spreadsheets share) or from an iCalendar file (VEVENT DTSTART + SUMMARY "Home - Away"), or
// typed as rows. A list with one bad line is refused whole, naming the line and the field.

export const FIXTURE_LIMITS = { teamMax: 45, matchesMax: 60 } as const;

export type Fixture = {
  /** Where it stood in the list (1-based, blank lines counted), for a refusal naming it. */
  line: number;
  home: string;
  away: string;
  /** UTC, `toISOString()` form. */
  kickoff: string;
  /** The results provider's match id, when the list carries one. */
  providerMatchId: number | null;
};

export type FixtureField = 'date' | 'time' | 'home' | 'away' | 'kickoff' | 'id' | 'list';

/** Why a list is refused: the first bad line (1-based, as a spreadsheet counts) and field. */
export type FixtureProblem = { line: number; field: FixtureField; message: string };

export type FixtureParse =
  { ok: true; fixtures: Fixture[] } | { ok: false; problem: FixtureProblem };

export type FixtureOptions = {
  /** IANA zone the list's local dates and times are in (the creator's), e.g. "Europe/Berlin". */
  timeZone: string;
  /** Epoch ms: a kick-off at or before it is refused. */
  now: number;
};

// ---- checking a list, whichever way it came ----

type Candidate = {
  line: number;
  home: string;
  away: string;
  kickoff: number;
  providerMatchId: number | null;
};

const FIELD_LABELS: Record<FixtureField, string> = {
  date: 'date',
  time: 'time',
  home: 'home team',
  away: 'away team',
  kickoff: 'kick-off',
  id: 'match id',
  list: 'list',
};

/** A refusal whose message names the line and the field: "Line 3, date: …". */
const problem = (line: number, field: FixtureField, message: string): FixtureParse => ({
  ok: false,
  problem: { line, field, message: `Line ${line}, ${FIELD_LABELS[field]}: ${message}` },
});

function checkTeam(line: number, field: 'home' | 'away', name: string): FixtureParse | null {
  if (name === '') return problem(line, field, 'missing');
  if (name.length > FIXTURE_LIMITS.teamMax)
    return problem(line, field, `must be ${FIXTURE_LIMITS.teamMax} characters or less`);
  return null;
}

/** The checks every list passes: teams named and different, kick-off ahead, no match twice. */
function checkCandidates(candidates: readonly Candidate[], now: number): FixtureParse {
  if (candidates.length === 0) return problem(1, 'list', 'The list has no matches');
  if (candidates.length > FIXTURE_LIMITS.matchesMax)
    return problem(
      candidates[FIXTURE_LIMITS.matchesMax]!.line,
      'list',
      `A round has at most ${FIXTURE_LIMITS.matchesMax} matches`,
    );
  const seen = new Map<string, number>();
  const fixtures: Fixture[] = [];
  for (const candidate of candidates) {
    const { line } = candidate;
    const bad = checkTeam(line, 'home', candidate.home) ?? checkTeam(line, 'away', candidate.away);
    if (bad) return bad;
    if (candidate.home.toLowerCase() === candidate.away.toLowerCase())
      return problem(line, 'away', `a team cannot play itself`);
    if (candidate.kickoff <= now) return problem(line, 'kickoff', `the kick-off is in the past`);
    const key = `${candidate.home.toLowerCase()}\u0000${candidate.away.toLowerCase()}`;
    const first = seen.get(key);
    if (first !== undefined) return problem(line, 'home', `the same match as line ${first}`);
    seen.set(key, line);
    fixtures.push({
      line,
      home: candidate.home,
      away: candidate.away,
      kickoff: new Date(candidate.kickoff).toISOString(),
      providerMatchId: candidate.providerMatchId,
    });
  }
  return { ok: true, fixtures };
}

/** Typed rows (`{ home, away, kickoff }`, kick-off an ISO date-time with its zone); row 1 is the first. */
export function checkFixtureRows(
  rows: ReadonlyArray<{
    home: string;
    away: string;
    kickoff: string;
    providerMatchId?: number | null;
  }>,
  now: number,
): FixtureParse {
  const candidates: Candidate[] = [];
  for (const [index, row] of rows.entries()) {
    const line = index + 1;
    const kickoff = /[zZ]|[+-]\d{2}:?\d{2}$/.test(row.kickoff) ? Date.parse(row.kickoff) : NaN;
    if (!Number.isFinite(kickoff))
      return problem(line, 'kickoff', `the kick-off must be a date and time with its zone`);
    candidates.push({
      line,
      home: row.home.trim(),
      away: row.away.trim(),
      kickoff,
      providerMatchId: row.providerMatchId ?? null,
    });
  }
  return checkCandidates(candidates, now);
}

// ---- CSV ----

/** One CSV line's cells: `separator`-separated, double quotes around a cell with separators. */
function splitCsvLine(text: string, separator: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"' && cell.trim() === '') {
      quoted = true;
      cell = '';
    } else if (char === separator) {
      cells.push(cell.trim());
      cell = '';
    } else cell += char;
  }
  cells.push(cell.trim());
  return cells;
}

type Columns = { date: number; time: number; home: number; away: number; id: number | null };

const HEADER_NAMES: Record<keyof Columns, readonly string[]> = {
  date: ['date', 'datum'],
  time: ['time', 'kickoff', 'kick-off', 'zeit'],
  home: ['home', 'hometeam', 'home team', 'heim'],
  away: ['away', 'awayteam', 'away team', 'gast'],
  id: ['id', 'matchid', 'match id', 'match_id'],
};

/** The columns a header row names, or null when the line is not a header (it has no "home"). */
function headerColumns(cells: readonly string[]): Columns | null {
  const find = (key: keyof Columns) => {
    const index = cells.findIndex((cell) => HEADER_NAMES[key].includes(cell.toLowerCase()));
    return index < 0 ? null : index;
  };
  const home = find('home');
  const away = find('away');
  if (home === null || away === null) return null;
  return { date: find('date') ?? -1, time: find('time') ?? -1, home, away, id: find('id') };
}

/**
 * Pasted CSV: an optional header row naming its columns (Date, Time, HomeTeam, AwayTeam, id;
 * other columns are ignored), else the columns date, time, home, away and an optional id;
 * comma or semicolon separated; dates ISO or day first, times HH:MM in `timeZone`. Blank lines
 * are skipped; lines are counted as the paste has them.
 */
export function parseFixtureCsv(text: string, { timeZone, now }: FixtureOptions): FixtureParse {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  const firstIndex = lines.findIndex((line) => line.trim() !== '');
  if (firstIndex < 0) return problem(1, 'list', 'The list has no matches');
  const first = lines[firstIndex]!;
  const separator = (first.match(/;/g)?.length ?? 0) > (first.match(/,/g)?.length ?? 0) ? ';' : ',';
  const header = headerColumns(splitCsvLine(first, separator));
  if (header && (header.date < 0 || header.time < 0))
    return problem(
      firstIndex + 1,
      header.date < 0 ? 'date' : 'time',
      `the header names no ${header.date < 0 ? 'date' : 'time'} column`,
    );
  const columns: Columns = header ?? { date: 0, time: 1, home: 2, away: 3, id: 4 };
  const candidates: Candidate[] = [];
  for (let index = header ? firstIndex + 1 : firstIndex; index < lines.length; index += 1) {
    const raw = lines[index]!;
    if (raw.trim() === '') continue;
    const line = index + 1;
    const cells = splitCsvLine(raw, separator);
    const cell = (column: number | null) => (column === null ? '' : (cells[column] ?? ''));
    const date = parseFixtureDate(cell(columns.date));
    if (!date)
      return problem(
        line,
        'date',
        `"${cell(columns.date)}" is not a date (use 2026-12-05 or 05/12/2026)`,
      );
    const time = parseFixtureTime(cell(columns.time));
    if (!time) return problem(line, 'time', `"${cell(columns.time)}" is not a time (use 15:30)`);
    const idText = cell(columns.id);
    const providerMatchId = idText === '' ? null : Number(idText);
    if (providerMatchId !== null && !(Number.isSafeInteger(providerMatchId) && providerMatchId > 0))
      return problem(line, 'id', `"${idText}" is not a match id`);
    candidates.push({
      line,
      home: cell(columns.home),
      away: cell(columns.away),
      kickoff: instantOfWallClock({ ...date, ...time, second: 0 }, timeZone),
      providerMatchId,
    });
  }
  return checkCandidates(candidates, now);
}

// ---- iCalendar ----

/** A DTSTART's instant: UTC ("…Z"), in its TZID, or floating (in `timeZone`); all-day has none. */
function icsStart(params: string, value: string, timeZone: string): number | null {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})?(Z?)$/.exec(value.trim());
  if (!match) return null;
  const local = {
    year: Number(match[1]),
    month: Number(match[2]),
    day: Number(match[3]),
    hour: Number(match[4]),
    minute: Number(match[5]),
  };
  if (!isRealDate(local.year, local.month, local.day) || local.hour > 23 || local.minute > 59)
    return null;
  if (match[7] === 'Z')
    return Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute);
  const zone = /(?:^|;)TZID=("?)([^";]+)\1/i.exec(params)?.[2] ?? timeZone;
  return isKnownTimeZone(zone) ? instantOfWallClock({ ...local, second: 0 }, zone) : null;
}

/** "Home - Away", "Home – Away", "Home vs Away" or "Home v. Away" as the two teams. */
export function splitMatchSummary(summary: string): { home: string; away: string } | null {
  const parts = summary.split(/\s+(?:-|–|—|vs\.?|v\.?)\s+/i);
  return parts.length === 2 ? { home: parts[0]!.trim(), away: parts[1]!.trim() } : null;
}

const unescapeIcs = (text: string) =>
  text.replace(/\\([,;\\nN])/g, (_all, char: string) => (char.toLowerCase() === 'n' ? ' ' : char));

/** An iCalendar file: each VEVENT's DTSTART and SUMMARY; lines counted as the file has them. */
export function parseFixtureIcs(text: string, { timeZone, now }: FixtureOptions): FixtureParse {
  // Unfold (RFC 5545 §3.1), remembering where each logical line began.
  const logical: Array<{ line: number; text: string }> = [];
  for (const [index, raw] of text
    .replace(/^\uFEFF/, '')
    .split(/\r\n|\n|\r/)
    .entries()) {
    if (/^[ \t]/.test(raw) && logical.length > 0) logical[logical.length - 1]!.text += raw.slice(1);
    else logical.push({ line: index + 1, text: raw });
  }
  const candidates: Candidate[] = [];
  let event: {
    line: number;
    start?: { line: number; at: number | null; text: string };
    summary?: { line: number; text: string };
  } | null = null;
  for (const { line, text: entry } of logical) {
    const colon = entry.indexOf(':');
    const name = (colon < 0 ? entry : entry.slice(0, colon)).split(';')[0]!.toUpperCase();
    const params = colon < 0 ? '' : entry.slice(0, colon).slice(name.length + 1);
    const value = colon < 0 ? '' : entry.slice(colon + 1);
    if (name === 'BEGIN' && value.toUpperCase() === 'VEVENT') event = { line };
    else if (!event) continue;
    else if (name === 'DTSTART')
      event.start = { line, at: icsStart(params, value, timeZone), text: value };
    else if (name === 'SUMMARY') event.summary = { line, text: unescapeIcs(value).trim() };
    else if (name === 'END' && value.toUpperCase() === 'VEVENT') {
      const { start, summary } = event;
      if (!start) return problem(event.line, 'kickoff', `the event has no DTSTART`);
      if (start.at === null)
        return problem(start.line, 'kickoff', `"${start.text}" is not a date and time`);
      const teams = summary ? splitMatchSummary(summary.text) : null;
      if (!teams)
        return problem(summary?.line ?? event.line, 'home', `the summary must read "Home - Away"`);
      candidates.push({ line: start.line, ...teams, kickoff: start.at, providerMatchId: null });
      event = null;
    }
  }
  return checkCandidates(candidates, now);
}

// ---- a round's request ----

export type RoundFixture = Fixture & {
  /** When its tips close (kick-off less the round's minutes), UTC ISO. */ closesAt: string;
};

export type RoundListParse =
  | { ok: true; fixtures: RoundFixture[] }
  | {
      ok: false;
      problem: FixtureProblem;
      /** The request field to name: csv, ics or matches.{i}.{field}. */ inputField: string;
    };

/**
 * The fixtures of POST /groups/{id}/rounds, from whichever list it carries, with their closing
 * times: a match whose tips would close before `now` or more than a year ahead (a bet's
 * limits, bets.ts expiryRefusal) is refused naming its line too.
 */
export function readRoundList(
  input: {
    csv?: string | undefined;
    ics?: string | undefined;
    matches?:
      | ReadonlyArray<{
          home: string;
          away: string;
          kickoff: string;
          providerMatchId?: number | null | undefined;
        }>
      | undefined;
    timeZone: string;
    closeMinutesBefore: number;
  },
  now: number,
): RoundListParse {
  const options = { timeZone: input.timeZone, now };
  const source = input.csv !== undefined ? 'csv' : input.ics !== undefined ? 'ics' : 'matches';
  const parsed =
    input.csv !== undefined
      ? parseFixtureCsv(input.csv, options)
      : input.ics !== undefined
        ? parseFixtureIcs(input.ics, options)
        : checkFixtureRows(input.matches ?? [], now);
  const fieldOf = ({ line, field }: FixtureProblem) =>
    source === 'matches' ? `matches.${line - 1}.${field === 'list' ? 'kickoff' : field}` : source;
  if (!parsed.ok)
    return { ok: false, problem: parsed.problem, inputField: fieldOf(parsed.problem) };
  const fixtures: RoundFixture[] = [];
  for (const fixture of parsed.fixtures) {
    const closesAt = new Date(
      Date.parse(fixture.kickoff) - input.closeMinutesBefore * 60_000,
    ).toISOString();
    const refusal = expiryRefusal(closesAt, now);
    if (refusal) {
      const failed = problem(
        fixture.line,
        'kickoff',
        refusal === BET_MESSAGES.expiryInPast
          ? 'tips would close before now'
          : 'tips would close more than a year ahead',
      );
      if (!failed.ok)
        return { ok: false, problem: failed.problem, inputField: fieldOf(failed.problem) };
    }
    fixtures.push({ ...fixture, closesAt });
  }
  return { ok: true, fixtures };
}
