import { Bell } from 'lucide-react';
import { NavLink } from 'react-router-dom';
import { useUnreadNotificationCount } from '../data/use-notifications';
import styles from './app-header.module.css';

// The header's bell: the unread entries of the inbox, from the mirror. A lazy
// chunk, as the group corner is: it reads Dexie, which stays off the landing page's path.

/** "9+" past nine: the badge stays one small pill. */
const badgeOf = (count: number) => (count > 9 ? '9+' : String(count));

export function InboxBell() {
  const count = useUnreadNotificationCount();
  const label = count === 0 ? 'Inbox' : `Inbox, ${count} unread`;
  return (
    <NavLink
      to="/inbox"
      className={({ isActive }) => `${styles.bell} ${isActive ? styles.bellActive : ''}`}
      aria-label={label}
      title={label}
    >
      <Bell size={22} aria-hidden="true" />
      {count > 0 && (
        <span className={styles.badge} aria-hidden="true" data-testid="inbox-badge">
          {badgeOf(count)}
        </span>
      )}
    </NavLink>
  );
}
