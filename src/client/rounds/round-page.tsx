import { CalendarDays, Pencil, Save } from 'lucide-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { isBettingOpen } from '../../domain/fair-resolution';
import { canManageGroup } from '../../domain/policies/group-policy';
import { hasRoundStarted } from '../../domain/rounds';
import { formatScore, parseScore } from '../../domain/score-tips';
import { useSession } from '../data/use-session';
import { rosterOf, useGroup } from '../groups/use-groups';
import { AppPage } from '../shell/app-page';
import { toast } from '../shell/toast-store';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { EmptyState } from '../ui/empty-state';
import { FormAlert } from '../ui/form-alert';
import { Spinner } from '../ui/spinner';
import { useNow } from '../ui/use-now';
import { MatchRow, type ScoreDraft } from './match-row';
import { saveTips, type TipInput } from './round-actions';
import { openScoringSheet, SCORING_TEXT } from './scoring-sheet';
import { RoundTable } from './round-table';
import { useMyTips, useRound, useRoundResults } from './use-rounds';
import styles from './rounds.module.css';

// /group/:id/rounds/:roundId: a round's matches, tipped all at once (each match closes at its
// kick-off), and its table. Read from the mirror, so it opens offline; tips go through the
// outbox (round-actions.ts).

const TEXT = {
  save: 'Save tips',
  saving: 'Saving...',
  saved: 'Tips saved. Good luck!',
  nothing: 'Type a score for at least one match.',
  half: (match: string) => `Enter both scores for ${match}, from 0 to 30.`,
  table: 'Table',
  scoring: (exact: number, difference: number, tendency: number) =>
    `Exact result ${exact} · right difference ${difference} · right tendency ${tendency}`,
};

export function RoundPage() {
  const params = useParams();
  const groupId = Number(params.id);
  const round = useRound(Number(params.roundId));
  const results = useRoundResults(round);
  const { user } = useSession();
  const group = useGroup(groupId);
  const mine = useMyTips(round, user?.id);
  const now = useNow(15_000);
  const [drafts, setDrafts] = useState<Record<number, ScoreDraft>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  if (round === null)
    return (
      <AppPage title="Round">
        <Card>
          <EmptyState icon={<CalendarDays size={26} />} title="Round not found">
            It may be in a group you have left. <Link to={`/group/${groupId}/rounds`}>Rounds</Link>
          </EmptyState>
        </Card>
      </AppPage>
    );
  if (!round || !results || !mine)
    return (
      <AppPage title="Round">
        <Spinner size="large" label="Loading the round" />
      </AppPage>
    );

  const draftOf = (betId: number): ScoreDraft => {
    const typed = drafts[betId];
    if (typed) return typed;
    const tip = mine.get(betId);
    const score = tip ? parseScore(tip.prediction) : null;
    return score ? { home: String(score.home), away: String(score.away) } : { home: '', away: '' };
  };

  const save = async () => {
    const tips: TipInput[] = [];
    for (const match of round.matches) {
      const typed = drafts[match.betId];
      if (!typed || (typed.home === '' && typed.away === '')) continue;
      const score = parseScore(`${typed.home}-${typed.away}`);
      if (!score) return setProblem(TEXT.half(`${match.home} – ${match.away}`));
      tips.push({ betId: match.betId, prediction: formatScore(score) });
    }
    if (tips.length === 0) return setProblem(TEXT.nothing);
    setProblem(null);
    setIsBusy(true);
    try {
      const refusals = await saveTips(tips);
      if (refusals.length > 0) setProblem(refusals.join(' '));
      else {
        setDrafts({});
        if (navigator.onLine) toast.success(TEXT.saved);
      }
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setIsBusy(false);
    }
  };

  const { exact, difference, tendency } = round.scoring;
  // The rule the match rows use (and the server): open until its close or its picks shown.
  const hasOpen = round.matches.some((match) => {
    const bet = results.bets.get(match.betId);
    return bet !== undefined && isBettingOpen(bet, now);
  });
  // An admin may change the points until the first kick-off (the rule the server applies).
  const canEditScoring =
    round.id > 0 &&
    Boolean(group && user && canManageGroup(rosterOf(group), user.id)) &&
    !hasRoundStarted(round.matches, now);
  return (
    <AppPage
      title={round.name}
      actions={
        canEditScoring && (
          <Button
            size="small"
            variant="secondary"
            icon={<Pencil size={16} aria-hidden="true" />}
            onClick={() => openScoringSheet(round)}
          >
            {SCORING_TEXT.open}
          </Button>
        )
      }
    >
      <p className={styles.meta}>
        <Link to={`/group/${round.groupId}/rounds`}>All rounds</Link> ·{' '}
        {TEXT.scoring(exact, difference, tendency)}
      </p>
      <form
        noValidate
        className={styles.form}
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <ul className={styles.matches} aria-label="Matches">
          {round.matches.map((match, index) => (
            <MatchRow
              key={match.betId || `new-${index}`}
              match={match}
              bet={results.bets.get(match.betId)}
              draft={draftOf(match.betId)}
              onDraft={(draft) => setDrafts((all) => ({ ...all, [match.betId]: draft }))}
              scoring={round.scoring}
              now={now}
            />
          ))}
        </ul>
        {problem && <FormAlert tone="error">{problem}</FormAlert>}
        {hasOpen && round.id > 0 && (
          <Button
            type="submit"
            fullWidth
            isLoading={isBusy}
            loadingText={TEXT.saving}
            icon={<Save size={18} aria-hidden="true" />}
          >
            {TEXT.save}
          </Button>
        )}
      </form>
      <section aria-labelledby="round-table" className={styles.section}>
        <h2 id="round-table" className={styles.sectionTitle}>
          {TEXT.table}
        </h2>
        <Card>
          <RoundTable
            caption={`${round.name} table`}
            table={results.table}
            winners={results.winners}
            userId={user?.id}
          />
        </Card>
      </section>
    </AppPage>
  );
}
