import { BellRing } from 'lucide-react';
import { useState } from 'react';
import { sessionStore } from '../data/session';
import { openModal, replaceModal } from '../shell/modal-store';
import { toast } from '../shell/toast-store';
import { Button } from '../ui/button';
import { pushService } from './push-session';
import { enablePush } from './push-toggle';
import styles from './push-prompt.module.css';

// The "Enable group updates" prompt of docs/groups-and-bets.md §2 and §4, shown in the join modal after a
// join when this device has no active subscription and permission is not denied. It closes
// when notifications are enabled (or that failed, with its message) or declined. Below it:
// the rule that decides whether to offer it, and offerPushPrompt(), which the join flow calls.

const PUSH_PROMPT_TITLE = 'Enable group updates';

const TEXT = {
  body: 'You’re in! Turn on notifications to hear when a friend creates a bet, the odds move on your wager or your bet is resolved.',
  enable: 'Enable',
  enabling: 'Enabling...',
  notNow: 'Not now',
};

function PushPrompt({ onDone }: { onDone: () => void }) {
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

// docs/groups-and-bets.md §4, after a join: the server's push status is checked with a 10 s time-out. With
// no active subscription and permission not denied, the join modal switches to the "Enable
// group updates" prompt; otherwise it closes. If the check errors (or times out) the join
// simply completes: §4 says so, and a prompt the status could not justify would nag people
// who already get notifications (§8's "failure means the prompt is shown" is the other
// reading; §4, the flow itself, wins).

export const PUSH_STATUS_TIMEOUT_MS = 10_000;

export interface PushPromptChecks {
  isSupported: boolean;
  isSignedIn: boolean;
  permission: NotificationPermission;
  /** GET status; aborted when the time-out wins. */
  checkStatus: (signal: AbortSignal) => Promise<boolean>;
  timeoutMs?: number;
}

export async function shouldOfferPushPrompt({
  isSupported,
  isSignedIn,
  permission,
  checkStatus,
  timeoutMs = PUSH_STATUS_TIMEOUT_MS,
}: PushPromptChecks): Promise<boolean> {
  if (!isSupported || !isSignedIn || permission === 'denied') return false;
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error('The push status check timed out'));
    }, timeoutMs);
  });
  try {
    const isActive = await Promise.race([checkStatus(controller.signal), timeout]);
    return !isActive;
  } catch (error) {
    console.warn('The push status check failed; the join completes without the prompt', error);
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * After a join (docs/groups-and-bets.md §4): when the status check says so, the open join modal becomes the
 * "Enable group updates" prompt (or, for a join made on the group page, the prompt opens).
 * Resolves true when the prompt is showing.
 */
export async function offerPushPrompt({ isModalOpen }: { isModalOpen: boolean }): Promise<boolean> {
  const shouldOffer = await shouldOfferPushPrompt({
    isSupported: pushService.isSupported(),
    isSignedIn: sessionStore.getAccessToken() !== null,
    permission: pushService.permission(),
    checkStatus: (signal) => pushService.status(signal),
  });
  if (!shouldOffer) return false;
  (isModalOpen ? replaceModal : openModal)({
    title: PUSH_PROMPT_TITLE,
    size: 'narrow',
    render: (close) => <PushPrompt onDone={close} />,
  });
  return true;
}
