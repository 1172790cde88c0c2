import { useLiveQuery } from 'dexie-react-hooks';
import { logout } from '../data/accounts-api';
import { db } from '../data/db';
import { ConfirmDialog } from '../shell/confirm-dialog';
import { openModal } from '../shell/modal-store';
import { Button } from '../ui/button';
import { openUpgradeModal } from './account-modals';
import styles from './your-data.module.css';

// A guest has no email or password: once signed out, nobody can sign in to that account again.
// Logout warns first and says what goes, counted from the device's own mirror, and offers the
// upgrade that keeps everything.

const TEXT = {
  title: 'Sign out of your guest account?',
  body: 'A guest account has no email or password, so once you sign out nobody can sign back in to it. You would lose for good:',
  groups: (count: number, points: number) =>
    `your place in ${count} ${count === 1 ? 'group' : 'groups'}, with ${points} ${points === 1 ? 'point' : 'points'} in all`,
  openWagers: (count: number) =>
    `${count} ${count === 1 ? 'wager' : 'wagers'} still waiting for a result`,
  createdBets: (count: number) =>
    `the right to settle the ${count} ${count === 1 ? 'bet' : 'bets'} you created`,
  nothingYet: 'this guest name, and everything you play with it from now on',
  upgradeHint: 'Upgrade instead: add an email and password, and keep every point.',
  upgrade: 'Upgrade to a Full Account',
  keep: 'Keep playing',
  confirm: 'Sign out and lose it',
  busy: 'Signing out...',
  failed: 'Could not sign out. Please try again.',
};

/** Logout for a guest: a warning that says exactly what is lost, with the upgrade beside it. */
export function openGuestLogoutConfirm(userId: number) {
  openModal({
    title: TEXT.title,
    size: 'narrow',
    render: (close) => <GuestLogoutConfirm userId={userId} onDone={close} />,
  });
}

function GuestLogoutConfirm({ userId, onDone }: { userId: number; onDone: () => void }) {
  const losses = useGuestLosses(userId);
  return (
    <ConfirmDialog
      body={TEXT.body}
      keepLabel={TEXT.keep}
      confirmLabel={TEXT.confirm}
      busyLabel={TEXT.busy}
      failedMessage={TEXT.failed}
      onConfirm={logout}
      onDone={onDone}
    >
      <ul className={styles.text} aria-label="What you would lose">
        {losses === undefined || losses.groups === 0 ? (
          <li>{TEXT.nothingYet}</li>
        ) : (
          <>
            <li>{TEXT.groups(losses.groups, losses.points)}</li>
            {losses.openWagers > 0 && <li>{TEXT.openWagers(losses.openWagers)}</li>}
            {losses.createdBets > 0 && <li>{TEXT.createdBets(losses.createdBets)}</li>}
          </>
        )}
      </ul>
      <p className={styles.lead}>{TEXT.upgradeHint}</p>
      <Button
        fullWidth
        onClick={() => {
          onDone();
          openUpgradeModal();
        }}
      >
        {TEXT.upgrade}
      </Button>
    </ConfirmDialog>
  );
}

interface GuestLosses {
  groups: number;
  points: number;
  openWagers: number;
  createdBets: number;
}

/** What the guest holds, as this device's mirror knows it: their groups, points and open stakes. */
function useGuestLosses(userId: number): GuestLosses | undefined {
  return useLiveQuery(async () => {
    const memberships = await db.memberships.where('userId').equals(userId).toArray();
    const wagers = await db.wagers.where('userId').equals(userId).toArray();
    const wagerBets = await db.bets.bulkGet(wagers.map((wager) => wager.betId));
    const created = await db.bets.where('createdBy').equals(userId).toArray();
    return {
      groups: memberships.length,
      points: memberships.reduce((sum, membership) => sum + membership.totalPoints, 0),
      openWagers: wagerBets.filter((bet) => bet?.state === 'active').length,
      createdBets: created.filter((bet) => bet.state === 'active').length,
    };
  }, [userId]);
}
