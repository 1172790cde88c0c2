import { Lock } from 'lucide-react';
import { isBettingOpen } from '../../domain/fair-resolution';
import type { RoundMatchInfo } from '../../domain/rounds';
import { MAX_GOALS, parseScore, tipPoints, type ScoringTable } from '../../domain/score-tips';
import type { BetRow } from '../data/db';
import { kickoffText } from './use-rounds';
import styles from './rounds.module.css';

// One match of a round: while betting is open, the player's score (home – away, two number
// fields sized for thumbs); from kick-off "Closed", the result once in, and everyone's tips,
// revealed with the close (docs/rules.md "Tipping rounds": tips stay hidden until kick-off).

export type ScoreDraft = { home: string; away: string };

/** One side's goals: a number field sized for thumbs, the numeric keypad on phones. */
function GoalInput({
  team,
  value,
  onChange,
}: {
  team: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <input
      className={styles.goals}
      type="number"
      inputMode="numeric"
      min={0}
      max={MAX_GOALS}
      aria-label={`${team} goals`}
      value={value}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

const pointsText = (points: number) => `${points} ${points === 1 ? 'pt' : 'pts'}`;

export function MatchRow({
  match,
  bet,
  draft,
  onDraft,
  scoring,
  now,
}: {
  match: RoundMatchInfo;
  bet: BetRow | undefined;
  draft: ScoreDraft;
  onDraft: (draft: ScoreDraft) => void;
  scoring: ScoringTable;
  now: number;
}) {
  const title = `${match.home} – ${match.away}`;
  const isOpen = bet ? isBettingOpen(bet, now) : Date.parse(match.closesAt) > now;
  const result =
    bet?.state === 'resolved' && bet.correctAnswer ? parseScore(bet.correctAnswer) : null;
  return (
    <li className={styles.match} aria-label={title}>
      <div className={styles.matchHead}>
        <span className={styles.teams}>{title}</span>
        <span className={styles.kickoff}>{kickoffText(match.kickoff)}</span>
      </div>
      {isOpen && bet ? (
        <div className={styles.score}>
          <GoalInput
            team={match.home}
            value={draft.home}
            onChange={(home) => onDraft({ ...draft, home })}
          />
          <span aria-hidden="true">–</span>
          <GoalInput
            team={match.away}
            value={draft.away}
            onChange={(away) => onDraft({ ...draft, away })}
          />
        </div>
      ) : isOpen ? (
        <p className={styles.meta}>Tips open once the round has synced.</p>
      ) : (
        <div className={styles.closed}>
          <p className={styles.closedLine}>
            <span className={styles.badge}>
              <Lock size={12} aria-hidden="true" /> Closed
            </span>
            {result ? (
              <span className={styles.result}>
                Full time {result.home}–{result.away}
              </span>
            ) : (
              bet?.state === 'cancelled' && <span className={styles.meta}>Called off</span>
            )}
          </p>
          {bet?.picks && bet.picks.length > 0 ? (
            <ul className={styles.tips} aria-label={`Tips on ${title}`}>
              {bet.picks.map((pick) => (
                <li key={pick.userId}>
                  <span className={styles.tipName}>{pick.userName}</span>
                  <span className={styles.tipScore}>{pick.prediction}</span>
                  {result && (
                    <span className={styles.tipPoints}>
                      {pointsText(tipPoints(scoring, parseScore(pick.prediction), result))}
                    </span>
                  )}
                </li>
              ))}
            </ul>
          ) : (
            <p className={styles.meta}>No tips on this match.</p>
          )}
        </div>
      )}
    </li>
  );
}
