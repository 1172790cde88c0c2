import { Bell, BellOff, Lock } from 'lucide-react';
import { useEffect, useState } from 'react';
import { sessionStore } from '../data/session';
import { useSession } from '../data/use-session';
import { toast } from '../shell/toast-store';
import { Card } from '../ui/card';
import { Toggle } from '../ui/toggle';
import { pushService } from './push-session';
import {
  disablePush,
  enablePush,
  readPushToggleStatus,
  type PushToggleStatus,
} from './push-toggle';
import styles from './push-settings-card.module.css';

// Profile "Push notifications" settings (docs/groups-and-bets.md §2, §4): the toggle on, off or blocked for
// this device. Blocked (the browser denied permission) disables it and says how to allow it.

const TEXT = {
  title: 'Push notifications',
  label: 'Notifications on this device',
  checking: 'Checking this device…',
  on: 'You’ll hear about new bets in your groups, odds moving on your wagers, your results and friends joining.',
  off: 'Get a notification when something happens in your groups, even when Hunch is closed.',
  blocked: 'Notifications are blocked for Hunch in this browser.',
  unsupported: 'This browser can’t show notifications from Hunch.',
  howTo: 'To allow them:',
  steps: [
    'Click the lock icon in the address bar.',
    'Find the notification settings.',
    'Choose Allow.',
    'Refresh this page.',
  ],
};

const DESCRIPTIONS: Record<PushToggleStatus, string> = {
  checking: TEXT.checking,
  on: TEXT.on,
  off: TEXT.off,
  blocked: TEXT.blocked,
  unsupported: TEXT.unsupported,
};

export function PushSettingsCard() {
  const { status, isBusy, toggle } = usePushToggle();
  const Icon = status === 'on' ? Bell : status === 'blocked' ? Lock : BellOff;
  return (
    <Card aria-labelledby="push-settings" aria-busy={status === 'checking' || isBusy}>
      <h2 id="push-settings" className={styles.title}>
        <Icon size={20} aria-hidden="true" className={styles.icon} data-status={status} />
        {TEXT.title}
      </h2>
      <Toggle
        label={TEXT.label}
        checked={status === 'on'}
        onChange={(next) => void toggle(next)}
        disabled={
          status === 'checking' || status === 'blocked' || status === 'unsupported' || isBusy
        }
        description={DESCRIPTIONS[status]}
      />
      {status === 'blocked' && (
        <div className={styles.blocked}>
          <p>{TEXT.howTo}</p>
          <ol>
            {TEXT.steps.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
        </div>
      )}
    </Card>
  );
}

// The push toggle for a component: the status (read when the card opens and when the signed-in
// user changes), whether a switch is under way, and `toggle(next)`, which moves the switch at
// once (so it answers the tap) and settles on the outcome, with its toast.

function usePushToggle() {
  const { user } = useSession();
  const userId = user?.id ?? null;
  const [status, setStatus] = useState<PushToggleStatus>('checking');
  const [isBusy, setIsBusy] = useState(false);

  useEffect(() => {
    let isCurrent = true;
    readPushToggleStatus(pushService, userId !== null && sessionStore.getAccessToken() !== null)
      .then((next) => {
        if (isCurrent) setStatus(next);
      })
      .catch((error: unknown) => {
        // The toggle must leave 'checking' even so: off, as when the status cannot be read.
        console.warn('Could not read the push status', error);
        if (isCurrent) setStatus('off');
      });
    return () => {
      isCurrent = false;
    };
  }, [userId]);

  const toggle = async (next: boolean) => {
    if (isBusy) return;
    const previous = status;
    const hasToken = sessionStore.getAccessToken() !== null;
    setIsBusy(true);
    if (hasToken) setStatus(next ? 'on' : 'off');
    const outcome = await (next ? enablePush : disablePush)(pushService, hasToken, previous);
    setStatus(outcome.status);
    setIsBusy(false);
    toast[outcome.toast.type](outcome.toast.message);
  };

  return { status, isBusy, toggle };
}
