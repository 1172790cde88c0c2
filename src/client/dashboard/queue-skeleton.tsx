import { Card } from '../ui/card';
import styles from './dashboard-page.module.css';

/** DESIGN.md "Loading": a skeleton for a card while the local database answers. */
export function QueueSkeleton() {
  return (
    <Card aria-busy="true" aria-label="Loading">
      <div className={styles.skeletonLine} />
      <div className={`${styles.skeletonLine} ${styles.skeletonShort}`} />
      <div className={styles.skeletonBlock} />
    </Card>
  );
}
