import { LogOut, ShieldCheck } from 'lucide-react';
import { useEffect, useState } from 'react';
import { fetchCurrentUser, logout } from '../data/accounts-api';
import { useSession } from '../data/use-session';
import { NotificationChoicesCard } from '../inbox/notification-choices-card';
import { PushSettingsCard } from '../push/push-settings-card';
import { InstallCard } from '../pwa/install-card';
import { AppPage } from '../shell/app-page';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { Spinner } from '../ui/spinner';
import { AccountCard } from './account-card';
import { ApiTokensCard } from './api-tokens-card';
import { MoveDeviceCard } from './move-device-card';
import { openEditAccountModal, openUpgradeModal } from './account-modals';
import { openGuestLogoutConfirm } from './guest-logout-confirm';
import { YourDataCard } from './your-data-card';
import styles from './profile-page.module.css';

// docs/accounts-and-shell.md §2 "Profile page", with the push notification settings of docs/groups-and-bets.md §2.
const TEXT = {
  title: 'Profile',
  loading: 'Loading profile...',
  offline: 'Showing your saved details; we could not reach the server just now.',
  guestTitle: "You're playing as a guest",
  guestText: 'Upgrade to keep your points and groups safe and sign in from any device.',
  upgrade: 'Upgrade to a Full Account',
  logout: 'Logout',
};

export function ProfilePage() {
  const { user } = useSession();
  const [status, setStatus] = useState<'loading' | 'loaded' | 'stale'>('loading');

  useEffect(() => {
    let isCurrent = true;
    fetchCurrentUser().then(
      () => isCurrent && setStatus('loaded'),
      (error: unknown) => {
        console.warn('Could not load the profile', error);
        if (isCurrent) setStatus('stale');
      },
    );
    return () => {
      isCurrent = false;
    };
  }, []);

  // The route guard takes a logged-out person to /login (without a returnUrl). A guest is warned
  // first: nobody can sign in to a guest account again.
  const onLogout = () => (user?.isTemporary ? openGuestLogoutConfirm(user.id) : void logout());

  if (!user) return null;

  return (
    <AppPage title={TEXT.title}>
      {status === 'loading' ? (
        <div className={styles.loading} role="status">
          <Spinner size="medium" />
          <span>{TEXT.loading}</span>
        </div>
      ) : (
        <>
          {status === 'stale' && <p className={styles.stale}>{TEXT.offline}</p>}
          {user.isTemporary && (
            <Card className={styles.upgrade} aria-labelledby="guest-upgrade">
              <ShieldCheck size={28} aria-hidden="true" className={styles.upgradeIcon} />
              <div className={styles.upgradeText}>
                <h2 id="guest-upgrade" className={styles.sectionTitle}>
                  {TEXT.guestTitle}
                </h2>
                <p>{TEXT.guestText}</p>
              </div>
              <Button onClick={openUpgradeModal} fullWidth>
                {TEXT.upgrade}
              </Button>
            </Card>
          )}
          <AccountCard user={user} onEdit={user.isTemporary ? undefined : openEditAccountModal} />
          <InstallCard />
          <MoveDeviceCard />
          <PushSettingsCard />
          <NotificationChoicesCard />
          {!user.isTemporary && <ApiTokensCard />}
          <YourDataCard />
        </>
      )}
      <Button
        variant="danger"
        fullWidth
        icon={<LogOut size={18} aria-hidden="true" />}
        onClick={onLogout}
      >
        {TEXT.logout}
      </Button>
    </AppPage>
  );
}
