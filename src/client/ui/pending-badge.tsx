import { Clock } from 'lucide-react';
import styles from './pending-badge.module.css';

// The outbox's mark: a row carrying `pendingWriteId` was changed on this device and
// the server has not confirmed it yet. `<PendingBadge row={wager} />` renders nothing otherwise.

const PENDING_TEXT = 'Pending';

export function PendingBadge({ row }: { row: object | null | undefined }) {
  if (!(row as { pendingWriteId?: string } | null | undefined)?.pendingWriteId) return null;
  return (
    <span className={styles.badge} data-testid="pending-badge" title="Waiting to be sent">
      <Clock size={12} aria-hidden="true" />
      {PENDING_TEXT}
    </span>
  );
}
