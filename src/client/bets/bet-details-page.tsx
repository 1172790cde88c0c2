import { ArrowLeft, Ban } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router-dom';
import { betStateWords } from '../../domain/bet-outcome';
import { resolvedBetCardOf } from '../../domain/share-cards';
import { ApiError, isNetworkError } from '../data/api-client';
import { useSession } from '../data/use-session';
import { mirrorRole, useGroup, useMyMembership } from '../groups/use-groups';
import { MuteButton } from '../inbox/mute-button';
import { ShareButton } from '../share/share-button';
import { AppPage } from '../shell/app-page';
import { usePageGroup } from '../shell/page-group-store';
import { toast } from '../shell/toast-store';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { EmptyState } from '../ui/empty-state';
import { Spinner } from '../ui/spinner';
import { useNow } from '../ui/use-now';
import { loadBetContext, serverIdOf } from './bet-actions';
import { betPageFacts, mirrorPolicy } from './mirror-policy';
import { BetCard } from './bet-card';
import { BetPendingBadge } from './bet-meta';
import { openCancelBetModal, CANCEL_TEXT } from './cancel-bet-confirm';
import { CommentThread } from './comment-thread';
import { BetHistoryList } from './bet-history-list';
import { ResolutionReview } from './resolution-review';
import { ResolveCard } from './resolve-card';
import { ResultsPanel } from './results-panel';
import { SameAsLastTime } from './same-as-last-time';
import { useBet, useMyWager } from './use-bets';
import { WhoPickedWhat } from './who-picked-what';
import styles from './bet-details-page.module.css';

// docs/groups-and-bets.md §2 "/bets/{id}" with the guard and resolver of §8: a bad id, 403, 404 or another
// server error → /dashboard with "Failed to load bet. Please try again."; 401 → /login with
// a return URL (RequireSession covers the signed-out case). Drawn from the mirror, which holds
// every bet of the player's groups (readable offline); one it lacks is asked for through
// user-context ("Unable to load bet" only when the network failed and nothing is stored).

export const BET_PAGE_TEXT = {
  title: 'Bet Details',
  back: 'Back',
  loading: 'Loading bet',
  unable: 'Unable to load bet',
  unableHint:
    "Check your connection and try again. Bets you've opened before stay readable offline.",
  failed: 'Failed to load bet. Please try again.',
  otherState: (state: string) => `This bet is currently ${state}.`,
};

export function BetDetailsPage() {
  const { id } = useParams();
  const betId = Number(id);
  // A bet created offline is opened under its temporary (negative) id until the server numbers it.
  if (!Number.isSafeInteger(betId) || betId === 0) return <BadBet />;
  return <BetDetails key={betId} betId={betId} />;
}

function BadBet() {
  useEffect(() => void toast.error(BET_PAGE_TEXT.failed), []);
  return <Navigate to="/dashboard" replace />;
}

function BetDetails({ betId }: { betId: number }) {
  const navigate = useNavigate();
  const location = useLocation();
  const { user } = useSession();
  const bet = useBet(betId);
  const wager = useMyWager(betId, user?.id);
  const membership = useMyMembership(bet?.groupId, user?.id);
  const group = useGroup(bet?.groupId);
  const [isUnreachable, setIsUnreachable] = useState(false);
  const now = useNow(5000);
  // The header shows this bet's group's points, the ones a wager here spends.
  usePageGroup(bet?.groupId);

  // The mirror holds every bet of the player's groups. One it lacks (a link opened before the
  // first sync, or another group's bet) is asked for, which also tells a 403/404 apart.
  const isMissing = bet === null;
  useEffect(() => {
    if (!isMissing) return;
    if (betId < 0) {
      // Numbered meanwhile: the temporary row made way for the server's.
      void serverIdOf(betId).then((serverId) => {
        if (serverId === undefined) {
          toast.error(BET_PAGE_TEXT.failed);
          navigate('/dashboard', { replace: true });
        } else navigate(`/bets/${serverId}`, { replace: true });
      });
      return;
    }
    loadBetContext(betId).catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 401) {
        navigate(`/login?returnUrl=${encodeURIComponent(location.pathname)}`, { replace: true });
      } else if (error instanceof ApiError && !isNetworkError(error)) {
        toast.error(BET_PAGE_TEXT.failed);
        navigate('/dashboard', { replace: true });
      } else {
        console.warn(`Loading bet ${betId} failed`, error);
        setIsUnreachable(true);
      }
    });
    // Only when the mirror lacks it: the location is read for the return URL, not watched.
  }, [betId, isMissing]); // eslint-disable-line react-hooks/exhaustive-deps

  const goBack = () => {
    const canGoBack = (window.history.state as { idx?: number } | null)?.idx;
    if (canGoBack) navigate(-1);
    else navigate('/dashboard');
  };

  const role = user ? mirrorRole({ userId: user.id, membership, group }) : null;
  // What the page offers is the bet policy's answer, the same the server gives.
  const policy =
    bet && user
      ? mirrorPolicy(bet, betPageFacts(user.id, bet, { membership, group, wager }), now)
      : null;
  const canCancel = Boolean(policy?.cancel.allowed);
  const canJudgeDispute = Boolean(policy?.judgeDispute.allowed);
  const canResolve = Boolean(policy?.resolve.allowed);
  const canComment = Boolean(policy?.comment.allowed);
  const canMute = Boolean(policy?.mute.allowed);
  const canShare = Boolean(policy?.share.allowed);

  return (
    <AppPage
      title={BET_PAGE_TEXT.title}
      actions={
        <Button
          variant="ghost"
          size="small"
          icon={<ArrowLeft size={16} aria-hidden="true" />}
          onClick={goBack}
        >
          {BET_PAGE_TEXT.back}
        </Button>
      }
    >
      {bet === undefined || (bet === null && !isUnreachable) ? (
        <div className={styles.loading}>
          <Spinner size="large" label={BET_PAGE_TEXT.loading} />
        </div>
      ) : bet === null ? (
        <Card>
          <EmptyState title={BET_PAGE_TEXT.unable}>{BET_PAGE_TEXT.unableHint}</EmptyState>
        </Card>
      ) : (
        <div className={styles.body}>
          <header className={styles.head}>
            <h2 className={styles.title}>
              {bet.title} <BetPendingBadge bet={bet} />
            </h2>
            {bet.description && <p className={styles.description}>{bet.description}</p>}
            <div className={styles.groupRow}>
              {group?.name && <p className={styles.group}>{group.name}</p>}
              {bet.id > 0 && canMute && <MuteButton target="bet" id={bet.id} />}
            </div>
          </header>
          {/* First under the title: the undo window is short, and a dispute waits for an answer. */}
          <ResolutionReview
            bet={bet}
            viewerId={user?.id}
            canJudgeDispute={canJudgeDispute}
            policyFacts={
              user ? { userId: user.id, membership, group, hasWagered: Boolean(wager) } : undefined
            }
          />
          {bet.state === 'active' ? (
            <BetCard bet={bet} wager={wager ?? null} membership={membership ?? null} />
          ) : bet.state === 'resolved' ? (
            <>
              <ResultsPanel betId={bet.id} bet={bet} isPending={Boolean(bet.pendingWriteId)} />
              <div className={styles.share}>
                <SameAsLastTime bet={bet} group={group} role={role} />
                {bet.id > 0 && !bet.pendingWriteId && canShare && user && (
                  <ShareButton
                    share={(cards) =>
                      cards.shareResolvedBet(resolvedBetCardOf(bet, group?.name ?? ''), {
                        betId: bet.id,
                        viewer: { userId: user.id, role },
                      })
                    }
                  />
                )}
              </div>
            </>
          ) : (
            <Card>
              <p>{BET_PAGE_TEXT.otherState(bet.state)}</p>
              {betStateWords(bet, now, wager?.points) && (
                <p className={styles.stateWords}>{betStateWords(bet, now, wager?.points)}</p>
              )}
            </Card>
          )}
          {canResolve && <ResolveCard key={bet.id} bet={bet} />}
          {canCancel && (
            <div className={styles.cancel}>
              <Button
                variant="danger"
                size="small"
                icon={<Ban size={16} aria-hidden="true" />}
                onClick={() => openCancelBetModal(bet.id)}
              >
                {CANCEL_TEXT.open}
              </Button>
            </div>
          )}
          {bet.state !== 'draft' && (
            <WhoPickedWhat
              bet={bet}
              isClosed={Boolean(policy?.seePicks.allowed)}
              viewerId={user?.id}
            />
          )}
          {canComment && <CommentThread bet={bet} role={role} />}
          <BetHistoryList bet={bet} viewerId={user?.id} />
        </div>
      )}
    </AppPage>
  );
}
