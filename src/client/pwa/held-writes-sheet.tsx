import { useLiveQuery } from 'dexie-react-hooks';
import { Send, Trash2 } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import type { HeldWrite } from '../data/db';
import { localData } from '../data/local-data';
import { useSession } from '../data/use-session';
import { Button } from '../ui/button';
import { describeWrite } from './describe-write';
import styles from './sync-status-sheet.module.css';
import { HELD_TEXT } from './sync-text';

// The last decision about writes a session left unsent (data/session-end.ts): each one, in
// the player's own words, with Send (back through the outbox, with its own key) and Discard.
// Nothing here goes anywhere unless the player says so. It closes once none is left.

/** The signed-in player's held writes, oldest first; never anyone else's. */
export function useHeldWrites(userId: number | undefined): HeldWrite[] | undefined {
  return useLiveQuery(
    async () => (userId === undefined ? [] : localData.held.list(userId)),
    [userId],
  );
}

export function HeldWritesSheet({ onEmpty }: { onEmpty: () => void }) {
  const { user } = useSession();
  const writes = useHeldWrites(user?.id);
  const isEmpty = writes?.length === 0;
  useEffect(() => {
    if (isEmpty) onEmpty();
  }, [isEmpty, onEmpty]);
  return (
    <div className={styles.sheet}>
      <p className={styles.updated}>{HELD_TEXT.intro}</p>
      {writes && writes.length > 0 && (
        <ul className={styles.list} aria-label={HELD_TEXT.title}>
          {writes.map((write) => (
            <HeldWriteRow key={write.id} write={write} />
          ))}
        </ul>
      )}
    </div>
  );
}

function HeldWriteRow({ write }: { write: HeldWrite }) {
  const [busy, setBusy] = useState<'send' | 'discard' | null>(null);
  const describedBy = useId();
  const run = (action: 'send' | 'discard') => {
    setBusy(action);
    const work =
      action === 'send' ? localData.held.send(write.id) : localData.held.discard(write.id);
    work
      .catch((error: unknown) => console.warn(`${action} failed`, error))
      .finally(() => setBusy(null));
  };
  return (
    <li className={styles.item}>
      <span className={styles.what}>
        <span className={styles.title} id={describedBy}>
          {describeWrite(write)}
        </span>
      </span>
      <span className={styles.actions}>
        <Button
          size="small"
          variant="secondary"
          icon={<Send size={14} aria-hidden="true" />}
          aria-describedby={describedBy}
          isLoading={busy === 'send'}
          disabled={busy !== null}
          onClick={() => run('send')}
        >
          {HELD_TEXT.send}
        </Button>
        <Button
          size="small"
          variant="ghost"
          icon={<Trash2 size={14} aria-hidden="true" />}
          aria-describedby={describedBy}
          isLoading={busy === 'discard'}
          disabled={busy !== null}
          onClick={() => run('discard')}
        >
          {HELD_TEXT.discard}
        </Button>
      </span>
    </li>
  );
}
