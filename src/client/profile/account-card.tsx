import { Pencil } from 'lucide-react';
import type { User } from '../../domain/auth';
import { Avatar } from '../ui/avatar';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import styles from './profile-page.module.css';

// The account information card of /profile (docs/accounts-and-shell.md §2, §3 "Full user").
export function AccountCard({ user, onEdit }: { user: User; onEdit?: () => void }) {
  const rows: [string, string][] = user.isTemporary
    ? [['Display name', user.displayName]]
    : [
        ['First name', user.firstName],
        ['Last name', user.lastName],
        ['Display name', user.displayName],
        ['Username', user.username],
        ['Email', user.email],
      ];
  return (
    <Card aria-labelledby="account-information">
      <div className={styles.identity}>
        <Avatar user={user} size="large" />
        <div className={styles.identityText}>
          <p className={styles.displayName}>{user.displayName}</p>
          <p className={styles.handle}>
            {user.isTemporary ? 'Guest account' : `@${user.username}`}
          </p>
        </div>
      </div>
      <div className={styles.cardHeading}>
        <h2 id="account-information" className={styles.sectionTitle}>
          Account Information
        </h2>
        {onEdit && (
          <Button
            variant="ghost"
            size="small"
            icon={<Pencil size={16} aria-hidden="true" />}
            onClick={onEdit}
          >
            Edit
          </Button>
        )}
      </div>
      <dl className={styles.details}>
        {rows.map(([label, value]) => (
          <div key={label} className={styles.detail}>
            <dt>{label}</dt>
            <dd>{value || '—'}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
