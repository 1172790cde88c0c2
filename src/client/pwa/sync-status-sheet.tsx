import { useLiveQuery } from 'dexie-react-hooks';
import { RotateCw, Trash2, X } from 'lucide-react';
import { useState } from 'react';
import { db, type OutboxEntry } from '../data/db';
import { localData } from '../data/local-data';
import { useLastSyncedAt } from '../data/use-last-synced';
import { useSession } from '../data/use-session';
import { canRetryRefusal } from '../data/write-refusal';
import { Button } from '../ui/button';
import { describeWrite } from './describe-write';
import { formatLastUpdated } from './format-last-updated';
import styles from './sync-status-sheet.module.css';
import { SYNC_TEXT } from './sync-text';

// The sync status sheet, opened from the offline strip or the "couldn't be sent"
// strip (sync-status-button.tsx loads it on the first tap): each write this device is still
// sending, or the server refused, in one sentence naming it, its bet and why; a refused one can
// be dismissed, and retried only where a retry may get through; a waiting one discarded. And
// when the data was last brought up to date.

/** The player's writes still to send or refused (answered ones are done), oldest first. */
function useOpenWrites(userId: number | undefined): OutboxEntry[] | undefined {
  return useLiveQuery(
    async () =>
      userId === undefined
        ? []
        : (await db.outbox.where('userId').equals(userId).sortBy('createdAt')).filter(
            (entry) => entry.status !== 'answered',
          ),
    [userId],
  );
}

export function SyncStatusSheet() {
  const { user } = useSession();
  const writes = useOpenWrites(user?.id);
  const syncedAt = useLastSyncedAt();
  const [now] = useState(() => Date.now());
  return (
    <div className={styles.sheet}>
      <p className={styles.updated}>
        {typeof syncedAt === 'number'
          ? `${formatLastUpdated(syncedAt, Math.max(now, syncedAt))}.`
          : SYNC_TEXT.neverSynced}
      </p>
      {writes && writes.length === 0 && <p className={styles.empty}>{SYNC_TEXT.upToDate}</p>}
      {writes && writes.length > 0 && (
        <ul className={styles.list} aria-label={SYNC_TEXT.title}>
          {writes.map((entry) => (
            <WriteRow key={entry.id} entry={entry} />
          ))}
        </ul>
      )}
    </div>
  );
}

function WriteRow({ entry }: { entry: OutboxEntry }) {
  const [busy, setBusy] = useState<'retry' | 'discard' | null>(null);
  const run = (action: 'retry' | 'discard') => {
    setBusy(action);
    const work =
      action === 'retry' ? localData.outbox.retry(entry.id) : localData.outbox.discard(entry.id);
    work
      .catch((error: unknown) => console.warn(`${action} failed`, error))
      .finally(() => setBusy(null));
  };
  const isRefused = entry.status === 'failed';
  return (
    <li className={styles.item} data-status={entry.status}>
      {isRefused ? (
        <span className={styles.what}>
          {/* One sentence names the write, its bet and why (data/write-refusal.ts). */}
          <span className={styles.title}>
            {entry.error ?? localData.outbox.textsOf(entry)?.refused}
          </span>
        </span>
      ) : (
        <span className={styles.what}>
          <span className={styles.title}>{describeWrite(entry)}</span>
          <span className={styles.reason}>
            {entry.status === 'sending' ? SYNC_TEXT.sending : SYNC_TEXT.waiting}
          </span>
        </span>
      )}
      <span className={styles.actions}>
        {isRefused && canRetryRefusal(entry.errorCode) && (
          <Button
            size="small"
            variant="secondary"
            icon={<RotateCw size={14} aria-hidden="true" />}
            isLoading={busy === 'retry'}
            onClick={() => run('retry')}
          >
            {SYNC_TEXT.retry}
          </Button>
        )}
        {entry.status !== 'sending' && (
          <Button
            size="small"
            variant="ghost"
            icon={
              isRefused ? (
                <X size={14} aria-hidden="true" />
              ) : (
                <Trash2 size={14} aria-hidden="true" />
              )
            }
            isLoading={busy === 'discard'}
            onClick={() => run('discard')}
          >
            {isRefused ? SYNC_TEXT.dismiss : SYNC_TEXT.discard}
          </Button>
        )}
      </span>
    </li>
  );
}
