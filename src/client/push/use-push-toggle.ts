import { useEffect, useState } from 'react';
import { sessionStore } from '../data/session';
import { useSession } from '../data/use-session';
import { toast } from '../shell/toast-store';
import { pushService } from './push-session';
import {
  disablePush,
  enablePush,
  readPushToggleStatus,
  type PushToggleStatus,
} from './push-toggle';

// The push toggle for a component: the status (read when the card opens and when the signed-in
// user changes), whether a switch is under way, and `toggle(next)`, which moves the switch at
// once (so it answers the tap) and settles on the outcome, with its toast.

export function usePushToggle() {
  const { user } = useSession();
  const userId = user?.id ?? null;
  const [status, setStatus] = useState<PushToggleStatus>('checking');
  const [isBusy, setIsBusy] = useState(false);

  useEffect(() => {
    let isCurrent = true;
    readPushToggleStatus(
      pushService,
      userId !== null && sessionStore.getAccessToken() !== null,
    ).then((next) => {
      if (isCurrent) setStatus(next);
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
