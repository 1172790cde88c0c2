import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wagerPointsRefusal } from '../../src/domain/bets';
import { computeResolution, refunds } from '../../src/domain/payout';
import {
  DEFAULT_SCORING,
  MAX_GOALS,
  formatScore,
  matchdayWinners,
  parseScore,
  roundTable,
  scoringTableRefusal,
  tipHit,
  tipPoints,
  type Score,
  type ScoringTable,
} from '../../src/domain/score-tips';

const score = fc.record({
  home: fc.integer({ min: 0, max: MAX_GOALS }),
  away: fc.integer({ min: 0, max: MAX_GOALS }),
});
const scoring: fc.Arbitrary<ScoringTable> = fc
  .tuple(fc.nat(100), fc.nat(100), fc.nat(100))
  .map(([a, b, c]) => {
    const [tendency, difference, exact] = [a, b, c].sort((x, y) => x - y);
    return { exact: exact!, difference: difference!, tendency: tendency! };
  });

describe('parseScore', () => {
  it.each(['2-1', '2:1', ' 2 - 1 ', '0-0', `${MAX_GOALS}-0`, '02-1'])('reads %j', (text) => {
    expect(parseScore(text)).not.toBeNull();
  });

  it.each(['two-one', '-1-0', '99-99', `${MAX_GOALS + 1}-0`, '2-1-0', '2.5-1', '', '2', '2-'])(
    'refuses %j',
    (text) => {
      expect(parseScore(text)).toBeNull();
    },
  );

  it('reads back what it formats', () => {
    fc.assert(
      fc.property(score, (value) => {
        expect(parseScore(formatScore(value))).toEqual(value);
      }),
    );
  });
});

describe('scoring by the table', () => {
  it.each([
    ['2-1', '2-1', 'exact', 4],
    ['3-2', '2-1', 'difference', 3],
    ['1-1', '2-2', 'difference', 3],
    ['3-0', '2-1', 'tendency', 2],
    ['0-2', '1-3', 'difference', 3],
    ['0-1', '1-3', 'tendency', 2],
    ['1-0', '0-0', 'miss', 0],
    ['0-0', '1-0', 'miss', 0],
  ] as const)('tip %s on %s is %s for %i points', (tip, result, hit, points) => {
    const [t, r] = [parseScore(tip)!, parseScore(result)!];
    expect(tipHit(t, r)).toBe(hit);
    expect(tipPoints(DEFAULT_SCORING, t, r)).toBe(points);
  });

  it('scores a skipped match 0', () => {
    expect(tipPoints(DEFAULT_SCORING, null, { home: 1, away: 0 })).toBe(0);
  });

  it('never gives a tip more than an exact one would get', () => {
    fc.assert(
      fc.property(scoring, score, score, (table, tip, result) => {
        expect(tipPoints(table, tip, result)).toBeLessThanOrEqual(tipPoints(table, result, result));
      }),
    );
  });

  it('refuses tables out of order or out of range', () => {
    expect(scoringTableRefusal(DEFAULT_SCORING)).toBeNull();
    expect(scoringTableRefusal({ exact: 2, difference: 3, tendency: 1 })).not.toBeNull();
    expect(scoringTableRefusal({ exact: 4, difference: 3, tendency: -1 })).not.toBeNull();
    expect(scoringTableRefusal({ exact: 4.5, difference: 3, tendency: 1 })).not.toBeNull();
  });
});

describe('roundTable', () => {
  const tips = fc.array(fc.option(score, { nil: null }), { minLength: 4, maxLength: 4 });
  const match = fc.record({ result: fc.option(score, { nil: null }), tips });

  it("gives each player the sum of their matches' points by the table", () => {
    fc.assert(
      fc.property(scoring, fc.array(match, { maxLength: 9 }), (table, matches) => {
        const players = [1, 2, 3, 4];
        const standings = roundTable(
          table,
          matches.map((entry) => ({
            result: entry.result && formatScore(entry.result),
            tips: entry.tips.flatMap((tip, index) =>
              tip ? [{ userId: players[index]!, prediction: formatScore(tip) }] : [],
            ),
          })),
          players,
        );
        expect(standings.map((standing) => standing.userId).sort()).toEqual(players);
        for (const standing of standings) {
          const index = players.indexOf(standing.userId);
          const expected = matches.reduce(
            (sum, entry) =>
              sum + (entry.result ? tipPoints(table, entry.tips[index] ?? null, entry.result) : 0),
            0,
          );
          expect(standing.points).toBe(expected);
          expect(standing.points).toBe(
            standing.exact * table.exact +
              standing.difference * table.difference +
              standing.tendency * table.tendency,
          );
        }
        for (let index = 1; index < standings.length; index += 1)
          expect(standings[index - 1]!.points).toBeGreaterThanOrEqual(standings[index]!.points);
      }),
    );
  });

  it('names every top scorer Matchday winner once the round is complete, and nobody before', () => {
    const result: Score = { home: 2, away: 1 };
    const standings = roundTable(
      DEFAULT_SCORING,
      [
        {
          result: formatScore(result),
          tips: [
            { userId: 1, prediction: '2-1' },
            { userId: 2, prediction: '2-1' },
            { userId: 3, prediction: '0-0' },
          ],
        },
      ],
      [1, 2, 3, 4],
    );
    expect(matchdayWinners(standings, true)).toEqual([1, 2]);
    expect(matchdayWinners(standings, false)).toEqual([]);
    expect(matchdayWinners(roundTable(DEFAULT_SCORING, [], [1, 2]), true)).toEqual([]);
  });
});

describe('a score tip as a wager', () => {
  const tip = { betType: 'score_tip', baseWagerAmount: 1 };
  const yesNo = { betType: 'yes_no', baseWagerAmount: 2 };

  it('stakes nothing, while other bets stake the base times 1, 2 or 3', () => {
    expect(wagerPointsRefusal(tip, 0)).toBeNull();
    expect(wagerPointsRefusal(tip, 1)).toBe('tip_stakes_nothing');
    expect(wagerPointsRefusal(yesNo, 0)).toBe('points_min');
    expect(wagerPointsRefusal(yesNo, 3)).toBe('tier');
    expect(wagerPointsRefusal(yesNo, 4)).toBeNull();
  });

  it('moves no points when resolved, cancelled or expired', () => {
    const bet = { betType: 'score_tip', betTypeConfig: { home: 'A', away: 'B' } };
    const wagers = [1, 2].map((userId) => ({
      id: userId,
      userId,
      prediction: '2-1',
      points: 0,
      createdAt: '2026-01-01T00:00:00.000Z',
    }));
    expect(computeResolution(bet, wagers, '2-1').distributions).toEqual([]);
    expect(refunds(wagers)).toEqual([]);
  });
});
