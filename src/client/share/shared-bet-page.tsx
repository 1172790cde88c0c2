import { useEffect, useState } from 'react';
import { Link, Navigate, useParams } from 'react-router-dom';
import {
  PUBLIC_BET_STATE_LABELS,
  sharedBetPath,
  type PublicBetState,
} from '../../domain/bet-shares';
import type { SharedBet } from '../../domain/schemas/bet-shares';
import { SHARE_CARD_TEXT } from '../../domain/share-cards';
import { AuthLayout } from '../auth/auth-layout';
import { useSignUpOffer } from '../auth/use-sign-up-offer';
import { ApiError } from '../data/api-client';
import { fetchSharedBet } from '../data/bet-share-api';
import { useSession } from '../data/use-session';
import { mirrorRole, useGroup, useMyMembership } from '../groups/use-groups';
import { usePageTitle } from '../shell/use-page-title';
import { buttonClassName } from '../ui/button';
import { Spinner } from '../ui/spinner';
import styles from './shared-bet-page.module.css';

// /s/:token, a bet's public link (docs/groups-and-bets.md, "Sharing a bet"): whoever opens it,
// signed out or not in the group, reads that one bet: its question, its state and, once
// resolved, who called it; with "Sign up to play" where this server takes new accounts, and
// "Join" where the group is public. A member of the group goes to the bet itself.

export const SHARED_BET_TEXT = {
  loading: 'Loading bet',
  inGroup: (group: string) => `A bet in ${group}`,
  open: 'Betting is open. Picks stay hidden until it closes.',
  closed: "Betting has closed. The result isn't in yet.",
  cancelled: 'This bet was cancelled. Every wager went back to its player.',
  signUp: 'Sign up to play',
  join: 'Join the group',
  signIn: 'Sign in',
  haveAccount: 'Already playing?',
  offTitle: 'This link was turned off',
  offText: 'Whoever shared this bet stopped sharing it. Ask them for a new link.',
  missingTitle: "This link doesn't lead to a bet",
  missingText: 'Check that you copied the whole link.',
  failedTitle: "We couldn't load this bet",
  failedText: 'Check your connection and try again.',
  home: 'What is Hunch?',
};

type Loaded =
  { kind: 'loading' } | { kind: 'bet'; bet: SharedBet } | { kind: 'off' | 'missing' | 'failed' };

export function SharedBetPage() {
  const { token = '' } = useParams();
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });
  useEffect(() => {
    let isCurrent = true;
    fetchSharedBet(token).then(
      (bet) => isCurrent && setLoaded({ kind: 'bet', bet }),
      (error: unknown) => {
        if (!isCurrent) return;
        if (error instanceof ApiError && error.status === 410) setLoaded({ kind: 'off' });
        else if (error instanceof ApiError && error.status === 404) setLoaded({ kind: 'missing' });
        else {
          console.warn('Loading the shared bet failed', error);
          setLoaded({ kind: 'failed' });
        }
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [token]);

  if (loaded.kind === 'bet') return <SharedBetView bet={loaded.bet} token={token} />;
  return <SharedBetNotice kind={loaded.kind} />;
}

function SharedBetNotice({ kind }: { kind: Exclude<Loaded['kind'], 'bet'> }) {
  const [title, text] =
    kind === 'off'
      ? [SHARED_BET_TEXT.offTitle, SHARED_BET_TEXT.offText]
      : kind === 'missing'
        ? [SHARED_BET_TEXT.missingTitle, SHARED_BET_TEXT.missingText]
        : kind === 'failed'
          ? [SHARED_BET_TEXT.failedTitle, SHARED_BET_TEXT.failedText]
          : [SHARED_BET_TEXT.loading, null];
  usePageTitle(title);
  return (
    <AuthLayout title={title} subtitle={text ?? undefined}>
      {kind === 'loading' ? (
        <Spinner size="large" label={SHARED_BET_TEXT.loading} />
      ) : (
        <Link to="/" className={buttonClassName({ fullWidth: true })}>
          {SHARED_BET_TEXT.home}
        </Link>
      )}
    </AuthLayout>
  );
}

function SharedBetView({ bet, token }: { bet: SharedBet; token: string }) {
  usePageTitle(bet.title);
  const { user } = useSession();
  const membership = useMyMembership(bet.groupId, user?.id);
  const group = useGroup(bet.groupId);
  const offer = useSignUpOffer('');
  if (user && mirrorRole({ userId: user.id, membership, group })) {
    return <Navigate to={`/bets/${bet.betId}`} replace />;
  }
  const groupPath = `/group/${bet.groupId}`;
  // After signing up, a public group's bet leads into its group; a private one's back here.
  const afterSignUp = bet.isGroupPublic ? groupPath : sharedBetPath(token);
  const canSignUp = !user && offer.refusal.account === null;
  return (
    <AuthLayout
      title={bet.title}
      subtitle={SHARED_BET_TEXT.inGroup(bet.groupName)}
      footer={
        user ? undefined : (
          <>
            {SHARED_BET_TEXT.haveAccount}{' '}
            <Link to={`/login?returnUrl=${encodeURIComponent(sharedBetPath(token))}`}>
              {SHARED_BET_TEXT.signIn}
            </Link>
          </>
        )
      }
    >
      <div className={styles.body}>
        <p className={styles.state}>
          <span className={`${styles.badge} ${styles[bet.state]}`}>
            {PUBLIC_BET_STATE_LABELS[bet.state]}
          </span>
        </p>
        <BetStateWords state={bet.state} result={bet.result} />
        <p className={styles.disclaimer}>{SHARE_CARD_TEXT.disclaimer}</p>
        {canSignUp && (
          <Link
            to={`/register?returnUrl=${encodeURIComponent(afterSignUp)}`}
            className={buttonClassName({ fullWidth: true })}
          >
            {SHARED_BET_TEXT.signUp}
          </Link>
        )}
        {bet.isGroupPublic && (
          <Link
            to={groupPath}
            className={buttonClassName({
              variant: canSignUp ? 'secondary' : 'primary',
              fullWidth: true,
            })}
          >
            {SHARED_BET_TEXT.join}
          </Link>
        )}
      </div>
    </AuthLayout>
  );
}

function BetStateWords({ state, result }: { state: PublicBetState; result: SharedBet['result'] }) {
  if (state === 'resolved' && result)
    return (
      <div className={styles.result}>
        <p className={styles.headline}>{result.headline}</p>
        {result.detail && <p className={styles.detail}>{result.detail}</p>}
      </div>
    );
  const words =
    state === 'open'
      ? SHARED_BET_TEXT.open
      : state === 'closed'
        ? SHARED_BET_TEXT.closed
        : SHARED_BET_TEXT.cancelled;
  return <p className={styles.words}>{words}</p>;
}
