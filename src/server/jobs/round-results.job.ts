import { and, asc, eq, inArray, isNull, lte, or } from 'drizzle-orm';
import { formatScore, parseScore } from '../../domain/score-tips';
import type { Database } from '../db/connect';
import { roundMatches, type RoundMatchRow } from '../db/rounds-schema';
import { bets } from '../db/schema';
import type { EventBus } from '../events';
import { announceSettlement, settleByResolution } from '../bets/settlement.service';
import { isSameTeam, type ProviderMatch, type ResultsProvider } from '../rounds/football-data';
import { startIntervalJob, type IntervalJob, type IntervalJobOptions } from './interval-job';

// Tipping rounds' results from a provider (docs/rules.md "Tipping rounds"): a match still
// without a result 110 minutes (ROUND_RESULTS_AFTER_KICKOFF_MINUTES) after its kick-off is
// asked about, and a finished one is
// resolved through the bets' own resolution (settleByResolution), its history line "Result
// from football-data.org"; the round's creator is its resolver, so they may undo it, and a
// dispute reaches it like any result. Several instances poll at once: each pass first claims
// its matches (an UPDATE of `result_checked_at` on rows taken FOR UPDATE SKIP LOCKED), so a
// match is asked about by one instance per RESULT_RECHECK_MS; each result is then settled in
// its own transaction on the bet taken FOR UPDATE SKIP LOCKED and only while still active, so
// a result is filled once, whoever else (a person, another instance) got there first.

/** A match is asked about this long after kick-off by default: 90 minutes, half-time and stoppage time. */
export const RESULT_AFTER_KICKOFF_MS = 110 * 60 * 1000;
/** A match asked about is not asked again before this. */
export const RESULT_RECHECK_MS = 10 * 60 * 1000;
/** Matches claimed per pass: one provider request for the linked ones. */
const RESULTS_BATCH_SIZE = 50;

export interface RoundResultsDeps {
  db: Database;
  events: EventBus;
  provider: ResultsProvider;
  /** How long after kick-off a match is first asked about (default RESULT_AFTER_KICKOFF_MS). */
  afterKickoffMs?: number;
}

const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/** Claims the due matches for this pass: no other instance asks about them until the recheck. */
async function claimDueMatches(
  db: Database,
  now: Date,
  afterKickoffMs: number,
): Promise<RoundMatchRow[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: roundMatches.id })
      .from(roundMatches)
      .innerJoin(bets, eq(bets.id, roundMatches.betId))
      .where(
        and(
          eq(bets.state, 'active'),
          lte(roundMatches.kickoff, new Date(now.getTime() - afterKickoffMs)),
          or(
            isNull(roundMatches.resultCheckedAt),
            lte(roundMatches.resultCheckedAt, new Date(now.getTime() - RESULT_RECHECK_MS)),
          ),
        ),
      )
      .orderBy(asc(roundMatches.kickoff), asc(roundMatches.id))
      .limit(RESULTS_BATCH_SIZE)
      .for('update', { of: roundMatches, skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(roundMatches)
      .set({ resultCheckedAt: now })
      .where(
        inArray(
          roundMatches.id,
          due.map((row) => row.id),
        ),
      )
      .returning();
  });
}

/** The provider's match of each claimed match: by its id, else by its teams on its day (then linked). */
async function findProviderMatches(
  deps: RoundResultsDeps,
  claimed: readonly RoundMatchRow[],
): Promise<Map<number, ProviderMatch>> {
  const found = new Map<number, ProviderMatch>();
  const linked = claimed.filter((match) => match.providerMatchId !== null);
  if (linked.length > 0) {
    const byId = new Map(
      (await deps.provider.matchesByIds(linked.map((match) => match.providerMatchId!))).map(
        (match) => [match.id, match],
      ),
    );
    for (const match of linked) {
      const answer = byId.get(match.providerMatchId!);
      if (answer) found.set(match.id, answer);
    }
  }
  const unlinked = claimed.filter((match) => match.providerMatchId === null);
  for (const day of new Set(unlinked.map((match) => dayOf(match.kickoff)))) {
    const next = dayOf(new Date(Date.parse(day) + 24 * 60 * 60 * 1000));
    const answers = await deps.provider.matchesBetween(day, next);
    for (const match of unlinked.filter((entry) => dayOf(entry.kickoff) === day)) {
      const answer = answers.find(
        (candidate) =>
          dayOf(new Date(candidate.utcDate)) === day &&
          isSameTeam(candidate.home, match.home) &&
          isSameTeam(candidate.away, match.away),
      );
      if (!answer) continue;
      found.set(match.id, answer);
      await deps.db
        .update(roundMatches)
        .set({ providerMatchId: answer.id })
        .where(eq(roundMatches.id, match.id));
    }
  }
  return found;
}

/** The final score of a finished match, or null (not finished, or a score no tip could be). */
function finalScore(match: ProviderMatch): string | null {
  const { home, away } = match.fullTime;
  if (match.status !== 'FINISHED' || home === null || away === null) return null;
  const score = parseScore(`${home}-${away}`);
  return score ? formatScore(score) : null;
}

/** One pass at `now`: answers the bet ids it resolved. */
export async function runRoundResults(deps: RoundResultsDeps, now: Date = new Date()) {
  const resolved: number[] = [];
  const claimed = await claimDueMatches(
    deps.db,
    now,
    deps.afterKickoffMs ?? RESULT_AFTER_KICKOFF_MS,
  );
  if (claimed.length === 0) return resolved;
  const answers = await findProviderMatches(deps, claimed);
  for (const match of claimed) {
    const answer = answers.get(match.id);
    const score = answer ? finalScore(answer) : null;
    if (!score) continue;
    const settlement = await deps.db.transaction(async (tx) => {
      const [bet] = await tx
        .select()
        .from(bets)
        .where(and(eq(bets.id, match.betId), eq(bets.state, 'active')))
        .for('no key update', { skipLocked: true });
      if (!bet) return null;
      return settleByResolution(tx, bet, score, bet.createdBy, now, 'resolved', {
        reason: `Result from ${deps.provider.name}`,
      });
    });
    if (!settlement) continue;
    announceSettlement(deps.events, settlement);
    resolved.push(match.betId);
  }
  return resolved;
}

/** Runs `runRoundResults` every `intervalMs` (interval-job.ts). */
export function startRoundResultsJob(deps: RoundResultsDeps & IntervalJobOptions): IntervalJob {
  return startIntervalJob({
    ...deps,
    name: 'round-results',
    run: async (now) => {
      const resolved = await runRoundResults(deps, now);
      if (resolved.length > 0) deps.logger?.info({ count: resolved.length }, 'filled results');
    },
  });
}
