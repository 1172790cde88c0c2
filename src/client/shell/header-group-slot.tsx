import { UsersRound } from 'lucide-react';
import { useNavigate } from 'react-router-dom';
import styles from './app-header.module.css';

/**
 * The header's group corner (spec 01 §2): the player's available points in the active group,
 * a spinner while the active group loads, the active group's name (opens the group selector)
 * or "Join Group" when there is none. Groups arrive in the next issue, which renders the
 * points and the group button here; until then there is never an active group.
 */
export function HeaderGroupSlot() {
  const navigate = useNavigate();
  return (
    <div className={styles.groupSlot} data-slot="group">
      {/* points of the active group: rendered here by the groups feature */}
      <button type="button" className={styles.joinGroup} onClick={() => navigate('/group')}>
        <UsersRound size={18} aria-hidden="true" />
        <span>Join Group</span>
      </button>
    </div>
  );
}
