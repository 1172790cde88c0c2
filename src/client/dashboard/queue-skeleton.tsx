import { Card } from '../ui/card';
import styles from './dashboard-page.module.css';

/**
 * docs/design.md "Loading": a skeleton for a card while the local database answers. A status, not a
 * section: both queues load at once, and two landmarks named "Loading" would be one too many.
 */
export function QueueSkeleton() {
  return (
    <Card as="div" role="status" aria-busy="true" aria-label="Loading">
      <div className={styles.skeletonLine} />
      <div className={`${styles.skeletonLine} ${styles.skeletonShort}`} />
      <div className={styles.skeletonBlock} />
    </Card>
  );
}
