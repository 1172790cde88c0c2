import { KeyRound, Plus, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { isApiTokenExpired, type ApiToken } from '../../domain/api-tokens';
import { formatCommentAge } from '../../domain/comments';
import { isNetworkError } from '../data/api-client';
import { listApiTokens, revokeApiToken } from '../data/api-tokens-api';
import { useSession } from '../data/use-session';
import { AppPage } from '../shell/app-page';
import { ConfirmDialog } from '../shell/confirm-dialog';
import { openModal } from '../shell/modal-store';
import { toast } from '../shell/toast-store';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { EmptyState } from '../ui/empty-state';
import { Spinner } from '../ui/spinner';
import { useNow } from '../ui/use-now';
import { openUpgradeModal } from './account-modals';
import { tokenDateText, tokenExpiryText } from './api-token-dates';
import { openNewApiTokenSheet } from './new-api-token-sheet';
import styles from './api-tokens.module.css';

// /profile/api-tokens: the player's personal API tokens (docs/integrations.md), newest first,
// each with when it was made, last used and expires, and Revoke (asked first: programs using it stop at
// once). Online only: the list is the server's.

export const API_TOKENS_TEXT = {
  title: 'API tokens',
  lead: 'A token lets a program of yours, like a chat bot or a script, use Hunch as you. Give each program its own, so you can revoke one without the others.',
  add: 'New token',
  loading: 'Loading your tokens...',
  offline: "You're offline. Connect to see your tokens.",
  failed: "We couldn't load your tokens. Please try again.",
  retry: 'Try again',
  emptyTitle: 'No tokens yet',
  empty: 'Make one for each program that should use your account.',
  guest: 'API tokens are for full accounts. Upgrade to keep your account and make tokens.',
  upgrade: 'Upgrade to a Full Account',
  scope: { read: 'Read', play: 'Play' },
  created: (date: string) => `Created ${date}`,
  lastUsed: (age: string) => `Last used ${age}`,
  neverUsed: 'Never used',
  revoke: 'Revoke',
  revokeTitle: 'Revoke this token?',
  revokeBody: (name: string) =>
    `Programs using "${name}" stop working at once. This can't be undone.`,
  keep: 'Keep it',
  revoking: 'Revoking...',
  revokeFailed: "We couldn't revoke the token. Please try again.",
  revoked: 'Token revoked.',
};

function openRevokeConfirm(token: ApiToken, onRevoked: () => void) {
  openModal({
    title: API_TOKENS_TEXT.revokeTitle,
    size: 'narrow',
    render: (close) => (
      <ConfirmDialog
        body={API_TOKENS_TEXT.revokeBody(token.name)}
        keepLabel={API_TOKENS_TEXT.keep}
        confirmLabel={API_TOKENS_TEXT.revoke}
        busyLabel={API_TOKENS_TEXT.revoking}
        failedMessage={API_TOKENS_TEXT.revokeFailed}
        onConfirm={async () => {
          await revokeApiToken(token.id);
          toast.success(API_TOKENS_TEXT.revoked);
          onRevoked();
        }}
        onDone={close}
      />
    ),
  });
}

export function ApiTokensPage() {
  const { user } = useSession();
  const [tokens, setTokens] = useState<ApiToken[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const isGuest = user?.isTemporary ?? false;

  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (isGuest) return;
    let isCurrent = true;
    listApiTokens().then(
      (listed) => {
        if (!isCurrent) return;
        setTokens(listed);
        setFailure(null);
      },
      (error: unknown) => {
        console.warn('Loading the API tokens failed', error);
        if (isCurrent)
          setFailure(isNetworkError(error) ? API_TOKENS_TEXT.offline : API_TOKENS_TEXT.failed);
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [isGuest, attempt]);
  const load = () => setAttempt((n) => n + 1);

  return (
    <AppPage title={API_TOKENS_TEXT.title}>
      <p className={styles.lead}>{API_TOKENS_TEXT.lead}</p>
      {!isGuest && (
        <Button
          className={styles.add}
          icon={<Plus size={18} aria-hidden="true" />}
          onClick={() => openNewApiTokenSheet(load)}
        >
          {API_TOKENS_TEXT.add}
        </Button>
      )}
      {isGuest ? (
        <Card>
          <p className={styles.text}>{API_TOKENS_TEXT.guest}</p>
          <Button fullWidth onClick={openUpgradeModal}>
            {API_TOKENS_TEXT.upgrade}
          </Button>
        </Card>
      ) : failure ? (
        <Card>
          <p className={styles.text} role="alert">
            {failure}
          </p>
          <Button
            variant="secondary"
            fullWidth
            onClick={() => {
              setFailure(null);
              setTokens(null);
              load();
            }}
          >
            {API_TOKENS_TEXT.retry}
          </Button>
        </Card>
      ) : !tokens ? (
        <div className={styles.loading} role="status">
          <Spinner size="medium" />
          <span>{API_TOKENS_TEXT.loading}</span>
        </div>
      ) : tokens.length === 0 ? (
        <Card>
          <EmptyState icon={<KeyRound size={26} />} title={API_TOKENS_TEXT.emptyTitle}>
            {API_TOKENS_TEXT.empty}
          </EmptyState>
        </Card>
      ) : (
        <Card>
          <ul className={styles.list} aria-label={API_TOKENS_TEXT.title}>
            {tokens.map((token) => (
              <TokenRow key={token.id} token={token} onRevoked={load} />
            ))}
          </ul>
        </Card>
      )}
    </AppPage>
  );
}

function TokenRow({ token, onRevoked }: { token: ApiToken; onRevoked: () => void }) {
  const now = useNow();
  return (
    <li className={styles.row}>
      <div className={styles.details}>
        <p className={styles.name}>{token.name}</p>
        <p className={styles.badges}>
          {token.scopes.map((scope) => (
            <span key={scope} className={styles.badge}>
              {API_TOKENS_TEXT.scope[scope]}
            </span>
          ))}
        </p>
        <p className={styles.meta}>
          <span>{API_TOKENS_TEXT.created(tokenDateText(token.createdAt))}</span>
          <span>
            {token.lastUsedAt
              ? API_TOKENS_TEXT.lastUsed(formatCommentAge(token.lastUsedAt, now))
              : API_TOKENS_TEXT.neverUsed}
          </span>
          <span className={isApiTokenExpired(token.expiresAt, now) ? styles.expired : undefined}>
            {tokenExpiryText(token.expiresAt, now)}
          </span>
        </p>
      </div>
      <Button
        variant="ghost"
        size="small"
        className={styles.revoke}
        icon={<Trash2 size={16} aria-hidden="true" />}
        aria-label={`${API_TOKENS_TEXT.revoke} ${token.name}`}
        onClick={() => openRevokeConfirm(token, onRevoked)}
      >
        {API_TOKENS_TEXT.revoke}
      </Button>
    </li>
  );
}
