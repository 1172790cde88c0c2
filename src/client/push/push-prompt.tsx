import { BellRing } from 'lucide-react';
import { useState } from 'react';
import { sessionStore } from '../data/session';
import { toast } from '../shell/toast-store';
import { Button } from '../ui/button';
import { pushService } from './push-session';
import { enablePush } from './push-toggle';
import styles from './push-prompt.module.css';

// The "Enable group updates" prompt of spec 02 §2 and §4, shown in the join modal after a
// join when this device has no active subscription and permission is not denied. It closes
// when notifications are enabled (or that failed, with its message) or declined.

export const PUSH_PROMPT_TITLE = 'Enable group updates';

const TEXT = {
  body: 'You’re in! Turn on notifications to hear when a friend creates a bet, the odds move on your wager or your bet is resolved.',
  enable: 'Enable',
  enabling: 'Enabling...',
  notNow: 'Not now',
};

export function PushPrompt({ onDone }: { onDone: () => void }) {
  const [isEnabling, setIsEnabling] = useState(false);
  const enable = async () => {
    setIsEnabling(true);
    const outcome = await enablePush(pushService, sessionStore.getAccessToken() !== null, 'off');
    toast[outcome.toast.type](outcome.toast.message);
    onDone();
  };
  return (
    <div className={styles.prompt}>
      <BellRing size={40} aria-hidden="true" className={styles.icon} />
      <p className={styles.body}>{TEXT.body}</p>
      <div className={styles.actions}>
        <Button variant="secondary" onClick={onDone} disabled={isEnabling}>
          {TEXT.notNow}
        </Button>
        <Button onClick={() => void enable()} isLoading={isEnabling} loadingText={TEXT.enabling}>
          {TEXT.enable}
        </Button>
      </div>
    </div>
  );
}
