import { lazy, Suspense } from 'react';
import { Spinner } from '../ui/spinner';
import styles from './app-header.module.css';

// The header's group corner (docs/accounts-and-shell.md §2) is rendered only for a signed-in player, and its
// code is a lazy chunk: it reads Dexie, which must stay off the landing page's path.
const HeaderGroupCorner = lazy(() =>
  import('./header-group-corner').then((m) => ({ default: m.HeaderGroupCorner })),
);

export function HeaderGroupSlot() {
  return (
    <div className={styles.groupSlot} data-slot="group">
      <Suspense fallback={<Spinner size="small" label="Loading your group" />}>
        <HeaderGroupCorner />
      </Suspense>
    </div>
  );
}
