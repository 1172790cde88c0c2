import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkFixtureRows,
  parseFixtureCsv,
  parseFixtureIcs,
  readRoundList,
} from '../../src/domain/fixtures';
import { instantOfWallClock } from '../../src/domain/time-zones';

const now = Date.parse('2026-11-01T12:00:00Z');
const berlin = { timeZone: 'Europe/Berlin', now };

describe('parseFixtureCsv', () => {
  it("reads football-data's columns with a header, in the creator's time zone", () => {
    const csv =
      'Div,Date,Time,HomeTeam,AwayTeam,FTHG\nD1,05/12/2026,15:30,Bayern,Dortmund,\nD1,05/12/2026,18:30,Köln,Mainz,\n';
    const parsed = parseFixtureCsv(csv, berlin);
    expect(parsed).toEqual({
      ok: true,
      fixtures: [
        {
          line: 2,
          home: 'Bayern',
          away: 'Dortmund',
          kickoff: '2026-12-05T14:30:00.000Z',
          providerMatchId: null,
        },
        {
          line: 3,
          home: 'Köln',
          away: 'Mainz',
          kickoff: '2026-12-05T17:30:00.000Z',
          providerMatchId: null,
        },
      ],
    });
  });

  it('reads headerless semicolon lines with ISO dates and an id column', () => {
    const parsed = parseFixtureCsv('2026-12-05;20:45;"Inter; Milan";Roma;4711', {
      timeZone: 'UTC',
      now,
    });
    expect(parsed).toEqual({
      ok: true,
      fixtures: [
        {
          line: 1,
          home: 'Inter; Milan',
          away: 'Roma',
          kickoff: '2026-12-05T20:45:00.000Z',
          providerMatchId: 4711,
        },
      ],
    });
  });

  it.each([
    ['2026-12-05,15:30,A,B\n31/02/2026,15:30,C,D', 2, 'date'],
    ['2026-12-05,15:30,A,B\n\n2026-12-06,25:00,C,D', 3, 'time'],
    ['2026-12-05,15:30,,B', 1, 'home'],
    ['2026-12-05,15:30,A,', 1, 'away'],
    ['2026-12-05,15:30,A,B\n2026-10-05,15:30,C,D', 2, 'kickoff'],
    ['2026-12-05,15:30,A,B\n2026-12-06,15:30,a,b', 2, 'home'],
    ['2026-12-05,15:30,A,A', 1, 'away'],
    ['date,time,home,away,id\n2026-12-05,15:30,A,B,x', 2, 'id'],
  ])('refuses %j naming line %i and field %s', (csv, line, field) => {
    const parsed = parseFixtureCsv(csv, berlin);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problem).toMatchObject({ line, field });
    expect(parsed.problem.message).toContain(`Line ${line}`);
  });

  it('refuses an empty paste', () => {
    expect(parseFixtureCsv('  \n', berlin).ok).toBe(false);
  });
});

describe('parseFixtureIcs', () => {
  const ics = [
    'BEGIN:VCALENDAR',
    'BEGIN:VEVENT',
    'DTSTART:20261205T143000Z',
    'SUMMARY:Bayern München - Borussia',
    '  Dortmund',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'DTSTART;TZID=Europe/London:20261205T170000',
    'SUMMARY:Arsenal vs Chelsea',
    'END:VEVENT',
    'END:VCALENDAR',
  ].join('\r\n');

  it('reads each event, unfolding lines and honouring TZID', () => {
    expect(parseFixtureIcs(ics, berlin)).toEqual({
      ok: true,
      fixtures: [
        {
          line: 3,
          home: 'Bayern München',
          away: 'Borussia Dortmund',
          kickoff: '2026-12-05T14:30:00.000Z',
          providerMatchId: null,
        },
        {
          line: 8,
          home: 'Arsenal',
          away: 'Chelsea',
          kickoff: '2026-12-05T17:00:00.000Z',
          providerMatchId: null,
        },
      ],
    });
  });

  it('names the line of an all-day start and of a summary without two teams', () => {
    const allDay = ics.replace('DTSTART:20261205T143000Z', 'DTSTART;VALUE=DATE:20261205');
    expect(parseFixtureIcs(allDay, berlin)).toMatchObject({
      ok: false,
      problem: { line: 3, field: 'kickoff' },
    });
    const party = ics.replace('SUMMARY:Arsenal vs Chelsea', 'SUMMARY:Christmas party');
    expect(parseFixtureIcs(party, berlin)).toMatchObject({
      ok: false,
      problem: { line: 9, field: 'home' },
    });
  });
});

describe('typed rows', () => {
  it('needs a zone on each kick-off', () => {
    expect(
      checkFixtureRows([{ home: 'A', away: 'B', kickoff: '2026-12-05T15:30' }], now),
    ).toMatchObject({
      ok: false,
      problem: { line: 1, field: 'kickoff' },
    });
  });
});

describe('instantOfWallClock', () => {
  it('gives back the wall-clock time it was given, in that zone', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('2000-01-01T00:00:00Z'),
          max: new Date('2099-12-31T00:00:00Z'),
          noInvalidDate: true,
        }),
        fc.constantFrom('Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'UTC'),
        (date, zone) => {
          const format = new Intl.DateTimeFormat('en-CA', {
            timeZone: zone,
            hourCycle: 'h23',
            year: 'numeric',
            month: '2-digit',
            day: '2-digit',
            hour: '2-digit',
            minute: '2-digit',
          });
          const parts = Object.fromEntries(
            format.formatToParts(date).map((part) => [part.type, part.value]),
          );
          const local = {
            year: +parts.year!,
            month: +parts.month!,
            day: +parts.day!,
            hour: +parts.hour!,
            minute: +parts.minute!,
          };
          const utc = instantOfWallClock({ ...local, second: 0 }, zone);
          const again = Object.fromEntries(
            format.formatToParts(new Date(utc)).map((part) => [part.type, part.value]),
          );
          expect(again).toEqual(parts);
        },
      ),
    );
  });
});

describe('readRoundList', () => {
  it('closes tips the given minutes before kick-off', () => {
    const parsed = readRoundList(
      { csv: '2026-12-05,15:30,A,B', timeZone: 'UTC', closeMinutesBefore: 30 },
      now,
    );
    expect(parsed).toMatchObject({
      ok: true,
      fixtures: [{ closesAt: '2026-12-05T15:00:00.000Z' }],
    });
  });

  it('names the typed row and field whose tips would close before now', () => {
    const soon = new Date(now + 10 * 60_000).toISOString();
    const parsed = readRoundList(
      {
        matches: [
          { home: 'A', away: 'B', kickoff: '2026-12-05T15:30:00Z' },
          { home: 'C', away: 'D', kickoff: soon },
        ],
        timeZone: 'UTC',
        closeMinutesBefore: 15,
      },
      now,
    );
    expect(parsed).toMatchObject({
      ok: false,
      inputField: 'matches.1.kickoff',
      problem: {
        line: 2,
        field: 'kickoff',
        message: 'Line 2, kick-off: tips would close before now',
      },
    });
  });
});
