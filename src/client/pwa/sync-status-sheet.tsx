import { useLiveQuery } from 'dexie-react-hooks';
import { AlertTriangle, RotateCw, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { db, type OutboxEntry } from '../data/db';
import { APP_MUTATORS, localData } from '../data/local-data';
import { OUTBOX_TEXT } from '../data/outbox';
import { useLastSyncedAt } from '../data/use-last-synced';
import { useSession } from '../data/use-session';
import { openModal } from '../shell/modal-store';
import { Button } from '../ui/button';
import { formatLastUpdated } from './format-last-updated';
import banner from './offline-banner.module.css';
import styles from './sync-status-sheet.module.css';

// The sync status sheet, opened from the offline strip or the "couldn't be sent"
// strip: each write this device is still sending, or the server refused, with its reason; a
// refused one can be retried or discarded, a waiting one discarded. And when the data was last
// brought up to date.

export const SYNC_TEXT = {
  title: 'Sync status',
  open: 'Details',
  review: 'Review',
  waiting: 'Waiting to be sent',
  sending: 'Sending…',
  retry: 'Retry',
  discard: 'Discard',
  upToDate: 'Everything on this device has reached the server.',
  neverSynced: 'Not updated from the server yet.',
  refused: (count: number) =>
    count === 1 ? "1 change couldn't be sent." : `${count} changes couldn't be sent.`,
};

const MUTATORS = new Map(APP_MUTATORS.map((mutator) => [mutator.name, mutator]));

/** "Wager · 4 points on yes": what the write is, in the player's words. */
function describeWrite(entry: Pick<OutboxEntry, 'mutator' | 'args'>): string {
  const mutator = MUTATORS.get(entry.mutator);
  if (!mutator) return 'Change';
  const label = OUTBOX_TEXT.label[mutator.kind(entry.args as never)];
  const detail = mutator.describe?.(entry.args as never);
  return detail ? `${label} · ${detail}` : label;
}

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
  const reason =
    entry.status === 'failed'
      ? (entry.error ?? OUTBOX_TEXT.failed[localData.outbox.kindOf(entry)])
      : entry.status === 'sending'
        ? SYNC_TEXT.sending
        : SYNC_TEXT.waiting;
  return (
    <li className={styles.item} data-status={entry.status}>
      <span className={styles.what}>
        <span className={styles.title}>{describeWrite(entry)}</span>
        <span className={styles.reason}>{reason}</span>
      </span>
      <span className={styles.actions}>
        {entry.status === 'failed' && (
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
            icon={<Trash2 size={14} aria-hidden="true" />}
            isLoading={busy === 'discard'}
            onClick={() => run('discard')}
          >
            {SYNC_TEXT.discard}
          </Button>
        )}
      </span>
    </li>
  );
}

function openSyncStatusSheet() {
  openModal({ title: SYNC_TEXT.title, render: () => <SyncStatusSheet /> });
}

/** The strip's button that opens the sheet. */
export function SyncStatusButton({ children = SYNC_TEXT.open }: { children?: string }) {
  return (
    <button type="button" className={styles.open} onClick={openSyncStatusSheet}>
      {children}
    </button>
  );
}

/** Online: a strip only while the server has refused a write nobody was waiting on. */
export function RefusedWritesStrip() {
  const { user } = useSession();
  const userId = user?.id;
  const count = useLiveQuery(
    async () =>
      userId === undefined
        ? 0
        : (await db.outbox.where('userId').equals(userId).toArray()).filter(
            (entry) => entry.status === 'failed',
          ).length,
    [userId],
  );
  if (!count) return null;
  return (
    <div className={banner.indicator}>
      <AlertTriangle size={16} aria-hidden="true" className={banner.icon} />
      <span className={banner.text}>
        {SYNC_TEXT.refused(count)} <SyncStatusButton>{SYNC_TEXT.review}</SyncStatusButton>
      </span>
    </div>
  );
}
